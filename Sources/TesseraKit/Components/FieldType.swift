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

    /// The type's place in `allCases`.
    var ordinal: Int {
        switch self {
        case .text: 0
        case .markdown: 1
        case .inlineMarkdown: 2
        case .number: 3
        case .percent: 4
        case .currency: 5
        case .date: 6
        case .link: 7
        case .image: 8
        case .enum: 9
        case .bool: 10
        case .list: 11
        case .items: 12
        }
    }
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

    private var stored: CopyOnWrite<Parts>

    public init(
        name: String, type: FieldType, required: Bool = false, defaultValue: ContentNode? = nil, description: String? = nil, format: String? = nil,
        values: [String] = [], currency: String? = nil, accepts: [String] = [], image: ImageRequest = ImageRequest(), location: SourceLocation
    ) {
        stored = CopyOnWrite(Parts(
            name: name, type: type, required: required, defaultValue: defaultValue, description: description, format: format,
            values: values, currency: currency, accepts: accepts, image: image, location: location))
    }

    public static func == (lhs: FieldSpec, rhs: FieldSpec) -> Bool {
        lhs.stored.shares(rhs.stored) || lhs.stored.read == rhs.stored.read
    }

    public var name: String { get { stored.read.name } _modify { yield &stored.write.name } }
    public var type: FieldType { get { stored.read.type } _modify { yield &stored.write.type } }
    public var required: Bool { get { stored.read.required } _modify { yield &stored.write.required } }
    public var defaultValue: ContentNode? { get { stored.read.defaultValue } _modify { yield &stored.write.defaultValue } }
    public var description: String? { get { stored.read.description } _modify { yield &stored.write.description } }
    /// Dates: `relative`, `short`, `medium`, `long`, `full`, or a pattern such as `yyyy-MM-dd`.
    /// Numbers: a count of fraction digits.
    public var format: String? { get { stored.read.format } _modify { yield &stored.write.format } }
    /// `enum`: the allowed values.
    public var values: [String] { get { stored.read.values } _modify { yield &stored.write.values } }
    /// `currency`: the ISO 4217 code when content gives only an amount.
    public var currency: String? { get { stored.read.currency } _modify { yield &stored.write.currency } }
    /// `items`: the component codes a container accepts; empty accepts any.
    public var accepts: [String] { get { stored.read.accepts } _modify { yield &stored.write.accepts } }
    /// `image`: how the layout shows it: the `sizes` attribute, a ratio to crop to (`16:9`), and
    /// widths to make instead of the site's.
    public var image: ImageRequest { get { stored.read.image } _modify { yield &stored.write.image } }
    public var location: SourceLocation { get { stored.read.location } _modify { yield &stored.write.location } }

    static let keys = ["type", "required", "default", "description", "format", "values", "currency", "accepts", "sizes", "ratio", "widths"]
}
