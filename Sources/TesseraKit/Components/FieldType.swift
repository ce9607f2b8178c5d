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
///
/// Its values live in one box that copies share, and a change copies the box first (copy on
/// write). A schema's fields are read for every component of every page (mapping, page JSON,
/// search), and a field copied for each read retained and released a dozen references: 2–3% of
/// the CPU time of a build of feed pages.
public struct FieldSpec: Sendable, Equatable {
    private struct Parts: Sendable, Equatable {
        var name: String
        var type: FieldType
        var required: Bool
        var defaultValue: ContentNode?
        var description: String?
        var format: String?
        var values: [String]
        var currency: String?
        var accepts: [String]
        var image: ImageRequest
        var location: SourceLocation
    }

    /// Changed only while no other `FieldSpec` shares it.
    private final class Box: @unchecked Sendable {
        var parts: Parts
        init(_ parts: Parts) { self.parts = parts }
    }

    private var box: Box

    public init(
        name: String, type: FieldType, required: Bool = false, defaultValue: ContentNode? = nil, description: String? = nil, format: String? = nil,
        values: [String] = [], currency: String? = nil, accepts: [String] = [], image: ImageRequest = ImageRequest(), location: SourceLocation
    ) {
        box = Box(Parts(
            name: name, type: type, required: required, defaultValue: defaultValue, description: description, format: format,
            values: values, currency: currency, accepts: accepts, image: image, location: location))
    }

    private var parts: Parts {
        get { box.parts }
        _modify {
            if !isKnownUniquelyReferenced(&box) { box = Box(box.parts) }
            yield &box.parts
        }
    }

    public static func == (lhs: FieldSpec, rhs: FieldSpec) -> Bool {
        lhs.box === rhs.box || lhs.box.parts == rhs.box.parts
    }

    public var name: String { get { box.parts.name } set { parts.name = newValue } }
    public var type: FieldType { get { box.parts.type } set { parts.type = newValue } }
    public var required: Bool { get { box.parts.required } set { parts.required = newValue } }
    public var defaultValue: ContentNode? { get { box.parts.defaultValue } set { parts.defaultValue = newValue } }
    public var description: String? { get { box.parts.description } set { parts.description = newValue } }
    /// Dates: `relative`, `short`, `medium`, `long`, `full`, or a pattern such as `yyyy-MM-dd`.
    /// Numbers: a count of fraction digits.
    public var format: String? { get { box.parts.format } set { parts.format = newValue } }
    /// `enum`: the allowed values.
    public var values: [String] { get { box.parts.values } set { parts.values = newValue } }
    /// `currency`: the ISO 4217 code when content gives only an amount.
    public var currency: String? { get { box.parts.currency } set { parts.currency = newValue } }
    /// `items`: the component codes a container accepts; empty accepts any.
    public var accepts: [String] { get { box.parts.accepts } set { parts.accepts = newValue } }
    /// `image`: how the layout shows it: the `sizes` attribute, a ratio to crop to (`16:9`), and
    /// widths to make instead of the site's.
    public var image: ImageRequest { get { box.parts.image } set { parts.image = newValue } }
    public var location: SourceLocation { get { box.parts.location } set { parts.location = newValue } }

    static let keys = ["type", "required", "default", "description", "format", "values", "currency", "accepts", "sizes", "ratio", "widths"]
}
