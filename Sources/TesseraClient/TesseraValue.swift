import Foundation

/// Any JSON value, for the parts of a Tessera document whose shape belongs to a theme rather than
/// to the format: component `fields` and `computed`, `layoutOptions`, and keys this client does
/// not know yet. Keeping them as values (instead of failing or dropping them) is what lets an app
/// built today read documents written by a newer generator.
public enum TesseraValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([TesseraValue])
    case object([String: TesseraValue])
}

extension TesseraValue: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Bool before Double: some decoders would otherwise read `true` as 1.
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([TesseraValue].self) { self = .array(value) }
        else if let value = try? container.decode([String: TesseraValue].self) { self = .object(value) }
        else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a JSON value")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .number(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

// MARK: - Accessors

extension TesseraValue {
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var number: Double? { if case .number(let value) = self { value } else { nil } }
    public var bool: Bool? { if case .bool(let value) = self { value } else { nil } }
    public var array: [TesseraValue]? { if case .array(let value) = self { value } else { nil } }
    public var object: [String: TesseraValue]? { if case .object(let value) = self { value } else { nil } }
    public var isNull: Bool { self == .null }

    /// An integer, when the number has no fraction (JSON has one number type; counts arrive as doubles).
    public var int: Int? {
        guard let number, number.rounded() == number, abs(number) < 9.0e15 else { return nil }
        return Int(number)
    }

    /// The value at `key` of an object; nil for a missing key or a value that is not an object.
    public subscript(key: String) -> TesseraValue? { object?[key] }

    /// The element at `index` of an array; nil when out of range rather than a trap.
    public subscript(index: Int) -> TesseraValue? {
        guard let array, array.indices.contains(index) else { return nil }
        return array[index]
    }

    // MARK: Tessera field shapes

    /// The display text of a field, whatever its type: a text or enum field is the string itself;
    /// markdown (`{html, text}`), number, percent, currency and date (`{text, …}`) carry a
    /// ready-formatted `text` in the page's language, which apps should show rather than re-format.
    public var text: String? { string ?? self["text"]?.string }

    /// The raw number behind a number, percent (a fraction: 0.42 is 42 %) or currency field,
    /// or a bare JSON number.
    public var numericValue: Double? { number ?? self["value"]?.number }

    /// The `html` of a markdown field.
    public var html: String? { self["html"]?.string }

    /// The `url` of a link field (`{url, external}`), or an image's `src`.
    public var url: String? { self["url"]?.string ?? self["src"]?.string }

    /// The value decoded as a typed model, e.g. an image field as ``TesseraImage`` or an items
    /// field as `[TesseraComponentData]`.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws -> T {
        try JSONDecoder().decode(T.self, from: JSONEncoder().encode(self))
    }
}

// MARK: - Literals (handy in tests and previews)

extension TesseraValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int) { self = .number(Double(value)) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: TesseraValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, TesseraValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}
