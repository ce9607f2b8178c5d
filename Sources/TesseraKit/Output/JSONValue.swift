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
    case object(JSONObject)
    /// A value written already (`JSONMembers`, a page's components): its text, as it is.
    case raw([UInt8])

    init(stringLiteral value: String) { self = .string(value) }
    init(integerLiteral value: Int) { self = .int(value) }
    init(booleanLiteral value: Bool) { self = .bool(value) }
    init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    init(dictionaryLiteral elements: (String, JSONValue)...) { self = .object(JSONObject(pairs: elements)) }

    /// From `JSONSerialization`-style values (`[String: Any]`, `[Any]`, `String`, numbers, `Bool`).
    init(any value: Any) {
        switch value {
        case let value as JSONValue: self = value
        case let value as String: self = .string(value)
        case let value as Bool: self = .bool(value)
        case let value as Int: self = .int(value)
        case let value as Double: self = .double(value)
        case let value as [String: Any]: self = .object(JSONObject(value.mapValues(JSONValue.init(any:))))
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
            // Kept sorted by their keys' UTF-8 bytes: the same order on every platform.
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.quote(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        case .raw(let bytes):
            out.append(contentsOf: bytes)
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
        out.append(UInt8(ascii: "\""))
        text.withUTF8Bytes { quoteBytes($0, into: &out) }
        out.append(UInt8(ascii: "\""))
    }

    private static func quoteBytes(_ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
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

    /// Whether any of eight bytes may be one to escape (below 0x20, `"` or `\`): never false
    /// when one is, so a word it clears is copied as it is. The classic tests for a zero byte and
    /// a byte below n, on the word as is and xor-ed with each quote byte.
    @inline(__always)
    private static func mayNeedEscape(_ word: UInt64) -> Bool {
        let ones = ByteLanes.ones, highs = ByteLanes.highs
        func hasZero(_ value: UInt64) -> UInt64 { (value &- ones) & ~value & highs }
        let below = (word &- 0x20 &* ones) & ~word & highs
        return below | hasZero(word ^ (0x22 &* ones)) | hasZero(word ^ (0x5C &* ones)) != 0
    }
}

/// A JSON object's members, written in the order of their keys' UTF-8 bytes
/// (`JSONValue.utf8Precedes`), each key once.
///
/// A page's JSON is dozens of small objects, and a feed page's hundreds. As dictionaries they
/// hashed every key they were given, grew their tables, and were sorted into arrays to be
/// written. Here the members are an array kept in written order: a key is found by comparing
/// it with a handful of others (as `String`s, so canonically equivalent keys, "é" and
/// "e\u{301}", are one key, as in a dictionary), and a new one goes to its place. Objects built
/// member by member have a few dozen members at most; large ones are made from dictionaries.
struct JSONObject: Sendable, Equatable, Sequence, ExpressibleByDictionaryLiteral {
    /// The members in written order.
    private(set) var members: [(key: String, value: JSONValue)] = []

    init() {}

    /// The pairs' keys once each, the last value of a repeated key winning (as in a dictionary
    /// literal).
    init<Pairs: Sequence>(pairs: Pairs) where Pairs.Element == (String, JSONValue) {
        // Room for the members a page's objects add after their first ones, in one allocation.
        members.reserveCapacity(Swift.max(pairs.underestimatedCount + 4, 8))
        for (key, value) in pairs { self[key] = value }
    }

    init(dictionaryLiteral elements: (String, JSONValue)...) { self.init(pairs: elements) }

    /// A dictionary's members, sorted once.
    init(_ dictionary: [String: JSONValue]) {
        members = dictionary.map { ($0.key, $0.value) }.sorted { JSONValue.utf8Precedes($0.key, $1.key) }
    }

    var isEmpty: Bool { members.isEmpty }
    var count: Int { members.count }

    func makeIterator() -> IndexingIterator<[(key: String, value: JSONValue)]> { members.makeIterator() }

    /// A key's value; setting nil removes the member. A key equal to one already there is that
    /// member, whose key keeps its spelling, as in a dictionary.
    subscript(key: String) -> JSONValue? {
        get { members.first { $0.key == key }?.value }
        set {
            if let index = members.firstIndex(where: { $0.key == key }) {
                if let newValue { members[index].value = newValue } else { members.remove(at: index) }
            } else if let newValue {
                if members.capacity == 0 { members.reserveCapacity(8) }
                var place = members.count
                while place > 0, JSONValue.utf8Precedes(key, members[place - 1].key) { place -= 1 }
                members.insert((key, newValue), at: place)
            }
        }
    }

    /// Equal as dictionaries are: the same keys (as `String`s) with equal values.
    static func == (a: JSONObject, b: JSONObject) -> Bool {
        a.count == b.count && a.members.allSatisfy { b[$0.key] == $0.value }
    }
}

/// A JSON object written member by member, each value straight to bytes, and copied out in
/// `JSONObject`'s order: keys once each (a key equal to one already there keeps its place and
/// spelling and takes the new value), sorted by their UTF-8 bytes. For objects whose keys are
/// not known in advance (a schema's fields), without a `JSONValue` for each value.
struct JSONMembers {
    /// The values' bytes, one after another; a replaced value's stay, unused.
    private var values: [UInt8] = []
    /// In written order: each key and where its value is in `values`.
    private var members: [(key: String, value: Range<Int>)] = []

    var isEmpty: Bool { members.isEmpty }

    /// Adds `key` with what `write` appends; nothing, and false, when it appends nothing.
    @discardableResult
    mutating func add(_ key: String, _ write: (inout [UInt8]) -> Void) -> Bool {
        let start = values.count
        write(&values)
        guard values.count > start else { return false }
        let range = start..<values.count
        if let index = members.firstIndex(where: { $0.key == key }) {
            members[index].value = range
            return true
        }
        if members.capacity == 0 { members.reserveCapacity(8) }
        var place = members.count
        while place > 0, JSONValue.utf8Precedes(key, members[place - 1].key) { place -= 1 }
        members.insert((key, range), at: place)
        return true
    }

    mutating func add(_ key: String, _ value: JSONValue) {
        add(key) { value.write(into: &$0) }
    }

    /// `{"key":value,…}`.
    func write(into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        values.withUnsafeBufferPointer { values in
            for (index, member) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.quote(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                out.append(contentsOf: UnsafeBufferPointer(rebasing: values[member.value]))
            }
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// Pieces of JSON text written straight to bytes, for documents whose keys are known in advance
/// and written in their order by hand (a page's components, an article's structured data).
enum JSONBytes {
    /// A literal's bytes, appended.
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `key` (`"name":`) after a comma unless it is an object's first.
    static func member(_ key: StaticString, _ out: inout [UInt8]) {
        if out.last != UInt8(ascii: "{") { out.append(UInt8(ascii: ",")) }
        append(key, to: &out)
    }

    /// `key` (`,"name":` or `{"name":`) and `text` as a JSON string.
    static func text(_ key: StaticString, _ text: String, _ out: inout [UInt8]) {
        append(key, to: &out)
        JSONValue.quote(text, into: &out)
    }

    /// `key` and `value`.
    static func json(_ key: StaticString, _ value: JSONValue, _ out: inout [UInt8]) {
        append(key, to: &out)
        value.write(into: &out)
    }
}
