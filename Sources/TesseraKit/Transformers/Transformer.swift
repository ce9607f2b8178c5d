import Foundation

/// A named function from a content value to view data: the unit of "model → display" logic.
public struct Transformer: Sendable {
    public typealias Function = @Sendable (ContentNode, FieldSpec, TransformContext) throws -> ViewValue

    public let name: String
    public let transform: Function

    public init(_ name: String, _ transform: @escaping Function) {
        self.name = name
        self.transform = transform
    }
}

/// Every transformer Tessera knows, by name; a field type names the one that maps it.
public struct TransformerRegistry: Sendable {
    private var transformers: [String: Transformer] {
        didSet { byType = Self.byType(transformers) }
    }
    /// The transformer of each field type, at the type's place in `FieldType.allCases`: every
    /// field of every component is mapped by its type's transformer, which a lookup by name
    /// found by hashing the name (78,000 lookups for 1,000 feed pages, 330 instructions each).
    private var byType: [Transformer?]

    public init(_ transformers: [Transformer]) {
        let named = Dictionary(transformers.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        self.transformers = named
        byType = Self.byType(named)
    }

    private static func byType(_ transformers: [String: Transformer]) -> [Transformer?] {
        FieldType.allCases.map { transformers[$0.rawValue] }
    }

    public subscript(name: String) -> Transformer? { transformers[name] }

    /// The transformer named as `type` is: `self[type.rawValue]`, without hashing the name.
    subscript(type: FieldType) -> Transformer? { byType[type.ordinal] }

    public mutating func register(_ transformer: Transformer) {
        transformers[transformer.name] = transformer
    }

    /// The built-in transformers, one per field type that holds a value.
    public static let standard = TransformerRegistry([
        TextTransformers.text, TextTransformers.markdown, TextTransformers.inlineMarkdown,
        TextTransformers.enumeration, TextTransformers.bool, TextTransformers.list,
        NumberTransformers.number, NumberTransformers.percent, NumberTransformers.currency,
        DateTransformer.date, LinkTransformers.link, LinkTransformers.image,
    ])

    /// A wrong-type error at the value, in the one wording every transformer uses.
    static func wrongType(_ node: ContentNode, field: FieldSpec, expected: String, hint: String? = nil) -> TesseraError {
        TesseraError(
            "field '\(field.name)' must be \(expected), found \(node.kindDescription)", at: node.location,
            hint: hint)
    }
}
