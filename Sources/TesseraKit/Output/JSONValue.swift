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
    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The document's UTF-8 bytes, with a final newline.
    var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(4096)
        write(into: &out)
        out.append(UInt8(ascii: "\n"))
        return out
    }

    /// Appends the value's text (no final newline).
    func write(into out: inout String) {
        var bytes: [UInt8] = []
        write(into: &bytes)
        out += String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the value's UTF-8 bytes: strings are copied in runs between the bytes to escape,
    /// never character by character.
    func write(into out: inout [UInt8]) {
        switch self {
        case .null: Self.append("null", to: &out)
        case .bool(let flag): Self.append(flag ? "true" : "false", to: &out)
        case .int(let number): Self.append(String(number), to: &out)
        case .double(let number):
            let text = number.isFinite ? (number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)") : "null"
            Self.append(text, to: &out)
        case .string(let text): Self.quote(text, into: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // Sorted by UTF-8 bytes: the same order on every platform. The members are sorted with
            // their values, so no key is hashed again to find its value (1% of a feed build).
            for (index, member) in members.sorted(by: { Self.utf8Precedes($0.key, $1.key) }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Whether `a`'s UTF-8 bytes sort before `b`'s: `a.utf8.lexicographicallyPrecedes(b.utf8)`,
    /// by `memcmp` (every object's keys are sorted; byte by byte they were 1% of a feed build).
    static func utf8Precedes(_ a: String, _ b: String) -> Bool {
        let compared = a.utf8.withContiguousStorageIfAvailable { x in
            b.utf8.withContiguousStorageIfAvailable { y -> Bool in
                let common = min(x.count, y.count)
                if common > 0 {
                    let order = memcmp(x.baseAddress!, y.baseAddress!, common)
                    if order != 0 { return order < 0 }
                }
                return x.count < y.count
            }
        }
        return (compared ?? nil) ?? a.utf8.lexicographicallyPrecedes(b.utf8)
    }

    private static func append(_ text: String, to out: inout [UInt8]) {
        var text = text
        text.withUTF8 { out.append(contentsOf: $0) }
    }

    /// `text` as a JSON string: `"` and `\\` escaped, and every byte below 0x20 (`\n`, `\r`,
    /// `\t`, else `\u00xx`); everything else, non-ASCII included, as its UTF-8 bytes.
    static func quote(_ text: String, into out: inout [UInt8]) {
        var text = text
        out.append(UInt8(ascii: "\""))
        text.withUTF8 { bytes in
            guard let base = bytes.baseAddress else { return }
            var start = 0, index = 0
            while index < bytes.count {
                // Eight bytes at a time while none of them is to be escaped.
                while index + 8 <= bytes.count, !mayNeedEscape(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self)) { index += 8 }
                guard index < bytes.count else { break }
                let byte = bytes[index]
                index += 1
                guard byte < 0x20 || byte == 0x22 || byte == 0x5C else { continue }
                if start < index - 1 { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<(index - 1)])) }
                start = index
                out.append(UInt8(ascii: "\\"))
                switch byte {
                case 0x22: out.append(0x22)
                case 0x5C: out.append(0x5C)
                case 0x0A: out.append(UInt8(ascii: "n"))
                case 0x0D: out.append(UInt8(ascii: "r"))
                case 0x09: out.append(UInt8(ascii: "t"))
                default:
                    out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
                }
            }
            if start < bytes.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...])) }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Whether any of eight bytes may be one to escape (below 0x20, `"` or `\`): never false
    /// when one is, so a word it clears is copied as it is. The classic tests for a zero byte and
    /// a byte below n, on the word as is and xor-ed with each quote byte.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let below = (word &- 0x20 &* ones) & ~word & highs
        return below | hasZero(word ^ (0x22 &* ones)) | hasZero(word ^ (0x5C &* ones)) != 0
    }
}
