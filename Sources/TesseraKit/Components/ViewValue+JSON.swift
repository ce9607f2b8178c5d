import Foundation

/// View data as JSON, for the per-page documents a native app can render from.
extension ViewValue: Encodable {
    public func encode(to encoder: Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let b):
            var container = encoder.singleValueContainer()
            try container.encode(b)
        case .string(let s):
            var container = encoder.singleValueContainer()
            try container.encode(s)
        case .number(let n):
            var container = encoder.singleValueContainer()
            try container.encode(n)
        case .list(let items):
            var container = encoder.unkeyedContainer()
            for item in items { try container.encode(item) }
        case .object(let object):
            try object.encode(to: encoder)
        case .formatted(let text, let object):
            try object.merging([("text", .string(text))]).encode(to: encoder)
        case .components(let children):
            var container = encoder.unkeyedContainer()
            for child in children { try container.encode(child) }
        }
    }
}

extension ViewObject: Encodable {
    struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (key, value) in pairs { try container.encode(value, forKey: Key(key)) }
    }
}

extension ComponentView: Encodable {
    public func encode(to encoder: Encoder) throws {
        try ViewObject([("component", .string(code))] + data.pairs).encode(to: encoder)
    }
}
