import Foundation

/// A JSON document built in Swift and written without Foundation's bridging: keys sorted, `/`
/// not escaped, non-ASCII as UTF-8, so equal input gives equal bytes, fast.
enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last })) }

    /// From `JSONSerialization`-style values (`[String: Any]`, `[Any]`, `String`, numbers, `Bool`).
    init(any value: Any) {
        switch value {
        case let value as JSONValue: self = value
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        case let value as [String: Any]: self = .object(value.mapValues(JSONValue.init(any:)))
        case let value as [Any]: self = .array(value.map(JSONValue.init(any:)))
        default: self = .null
        }
    }

    /// The document as text, with a final newline.
    var text: String {
        var out = ""
        out.reserveCapacity(4096)
        write(into: &out)
        out.append("\n")
        return out
    }

    func write(into out: inout String) {
        switch self {
        case .null: out.append("null")
        case .bool(let flag): out.append(flag ? "true" : "false")
        case .int(let number): out.append(String(number))
        case .double(let number):
            if number.isFinite { out.append(number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)") } else { out.append("null") }
        case .string(let text): Self.quote(text, into: &out)
        case .array(let items):
            out.append("[")
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(",") }
                item.write(into: &out)
            }
            out.append("]")
        case .object(let members):
            out.append("{")
            // Sorted by UTF-8 bytes: the same order on every platform.
            for (index, key) in members.keys.sorted(by: { $0.utf8.lexicographicallyPrecedes($1.utf8) }).enumerated() {
                if index > 0 { out.append(",") }
                Self.quote(key, into: &out)
                out.append(":")
                members[key]!.write(into: &out)
            }
            out.append("}")
        }
    }

    static func quote(_ text: String, into out: inout String) {
        out.append("\"")
        var plain = true
        for byte in text.utf8 where byte < 0x20 || byte == 0x22 || byte == 0x5C { plain = false; break }
        if plain {
            out.append(text)
        } else {
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out.append("\\\"")
                case "\\": out.append("\\\\")
                case "\n": out.append("\\n")
                case "\r": out.append("\\r")
                case "\t": out.append("\\t")
                case _ where scalar.value < 0x20:
                    out.append("\\u00")
                    out.append(String(format: "%02x", scalar.value))
                default: out.unicodeScalars.append(scalar)
                }
            }
        }
        out.append("\"")
    }
}
