import Foundation

/// The types a component schema can give a field; each names the transformer that makes its view data.
public enum FieldType: String, Sendable, CaseIterable, Codable {
    case text
    case markdown
    case inlineMarkdown = "inline-markdown"
    case number
    case percent
    case currency
    case date
    case link
    case image
    case `enum`
    case bool
    case list
    /// Nested components: the children of a container.
    case items
}

/// One field of a component schema.
public struct FieldSpec: Sendable, Equatable {
    public var name: String
    public var type: FieldType
    public var required: Bool = false
    public var defaultValue: ContentNode?
    public var description: String?
    /// Dates: `relative`, `short`, `medium`, `long`, `full`, or a pattern such as `yyyy-MM-dd`.
    /// Numbers: a count of fraction digits.
    public var format: String?
    /// `enum`: the allowed values.
    public var values: [String] = []
    /// `currency`: the ISO 4217 code when content gives only an amount.
    public var currency: String?
    /// `items`: the component codes a container accepts; empty accepts any.
    public var accepts: [String] = []
    /// `image`: how the layout shows it: the `sizes` attribute, a ratio to crop to (`16:9`), and
    /// widths to make instead of the site's.
    public var image = ImageRequest()
    public var location: SourceLocation

    static let keys = ["type", "required", "default", "description", "format", "values", "currency", "accepts", "sizes", "ratio", "widths"]
}
