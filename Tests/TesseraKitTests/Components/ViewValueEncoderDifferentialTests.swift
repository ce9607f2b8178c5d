import Foundation
import Testing
@testable import TesseraKit

/// The view-data encoder writes members in place; it must make exactly the values the encoder
/// before it made (kept below as `ReferenceViewValueEncoder`), for every shape synthesized and
/// hand-written `Encodable`s take: keys written twice, containers nested and swapped, super
/// encoders, nil optionals of every kind, lists of lists, and the coding path a value reads.
@Suite struct ViewValueEncoderDifferentialTests {
    enum Tone: String, Encodable, CaseIterable { case info, warning, ácido = "ácido" }

    enum Shape: Encodable {
        case circle(radius: Double)
        case labelled(String, Int?)
        case none
    }

    struct Flat: Encodable {
        var text: String
        var maybeText: String?
        var flag: Bool
        var maybeFlag: Bool?
        var number: Int
        var maybeNumber: Int?
        var real: Double
        var maybeReal: Double?
        var single: Float
        var maybeSingle: Float?
        var url: URL
        var maybeURL: URL?
        var date: Date
        var view: ViewValue
        var maybeView: ViewValue?
        var tone: Tone
        var maybeTone: Tone?
        var texts: [String]
        var maybeNumbers: [Int?]
        var shape: Shape
    }

    struct Nested: Encodable {
        var flat: Flat
        var flats: [Flat]
        var maybeFlat: Flat?
        var table: [String: Int]
        var grid: [[Double]]
        var custom: Custom
        var customs: [Custom]
    }

    /// Writes with every container call an `encode(to:)` can make, chosen by `moves`.
    struct Custom: Encodable {
        var moves: [Int]
        var text: String

        struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(_ name: String) { stringValue = name }
            init?(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        func encode(to encoder: Encoder) throws {
            var keyed = encoder.container(keyedBy: Key.self)
            for (step, move) in moves.enumerated() {
                let key = Key(["a", "b", "c", "é", "e\u{301}"][step % 5])
                switch move % 12 {
                case 0: try keyed.encode(text, forKey: key)
                case 1: try keyed.encode(step, forKey: key)
                case 2: try keyed.encodeNil(forKey: key)
                case 3:
                    var inner = keyed.nestedContainer(keyedBy: Key.self, forKey: key)
                    try inner.encode(text, forKey: Key("inner"))
                    try inner.encode(Self.path(encoder.codingPath + [key]), forKey: Key("path"))
                case 4:
                    var list = keyed.nestedUnkeyedContainer(forKey: key)
                    try list.encode(text)
                    try list.encodeNil()
                    try list.encode(Double(step) / 4)
                    try list.encode(list.count)
                    var deeper = list.nestedContainer(keyedBy: Key.self)
                    try deeper.encode(true, forKey: Key("deep"))
                    var row = list.nestedUnkeyedContainer()
                    try row.encode(step)
                    try Tone.info.encode(to: list.superEncoder())
                case 5: try Tone.warning.encode(to: keyed.superEncoder(forKey: key))
                case 6: try Shape.labelled(text, step).encode(to: keyed.superEncoder())
                case 7: try keyed.encodeIfPresent(step.isMultiple(of: 2) ? text : nil, forKey: key)
                case 8: try keyed.encodeIfPresent(step.isMultiple(of: 2) ? Float(step) : nil, forKey: key)
                case 9: try keyed.encode(Self.path(keyed.codingPath + [key]), forKey: key)
                case 10:
                    // The same encoder asked for another kind of container: what the keyed one
                    // writes after this goes nowhere.
                    var single = encoder.singleValueContainer()
                    try single.encode(text)
                case 11:
                    keyed = encoder.container(keyedBy: Key.self)
                    try keyed.encode([step, step + 1], forKey: key)
                default: break
                }
            }
        }

        static func path(_ keys: [CodingKey]) -> String { keys.map(\.stringValue).joined(separator: "/") }
    }

    /// A path-reading value inside lists and objects: what `codingPath` says at each depth.
    struct PathProbe: Encodable {
        func encode(to encoder: Encoder) throws {
            var single = encoder.singleValueContainer()
            try single.encode(Custom.path(encoder.codingPath))
        }
    }

    struct Probed: Encodable {
        var here: PathProbe
        var list: [PathProbe]
        var nested: [String: [PathProbe]]
    }

    static func text(_ random: inout SeededGenerator) -> String {
        let pieces = ["", "a", "Ω", "e\u{301}", "👩‍💻", "<b>", " ", "\"", "line\nbreak", "long text of a field"]
        return (0..<Int.random(in: 0...3, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    static func flat(_ random: inout SeededGenerator) -> Flat {
        func maybe<T>(_ value: @autoclosure () -> T) -> T? { Bool.random(using: &random) ? value() : nil }
        let views: [ViewValue] = [.null, .bool(true), .string("x"), .number(2.5), .list([.string("y"), .null]), .object(["k": .number(1)]), .formatted("3 May", ["iso": .string("2026-05-03")])]
        let shapes: [Shape] = [.circle(radius: 1.5), .labelled("l", nil), .labelled("m", 4), .none]
        return Flat(
            text: text(&random), maybeText: maybe(text(&random)), flag: .random(using: &random), maybeFlag: maybe(.random(using: &random)),
            number: .random(in: -1_000...1_000, using: &random), maybeNumber: maybe(.random(in: -5...5, using: &random)),
            real: .random(in: -10...10, using: &random), maybeReal: maybe(.random(in: 0...1, using: &random)),
            single: .random(in: -2...2, using: &random), maybeSingle: maybe(.random(in: 0...1, using: &random)),
            url: URL(string: "https://example.com/\(Int.random(in: 0...9, using: &random))/")!, maybeURL: maybe(URL(string: "/about/")!),
            date: Date(timeIntervalSince1970: .random(in: -1e10...1e10, using: &random).rounded()),
            view: views.randomElement(using: &random)!, maybeView: maybe(views.randomElement(using: &random)!),
            tone: Tone.allCases.randomElement(using: &random)!, maybeTone: maybe(Tone.allCases.randomElement(using: &random)!),
            texts: (0..<Int.random(in: 0...3, using: &random)).map { _ in text(&random) },
            maybeNumbers: (0..<Int.random(in: 0...3, using: &random)).map { _ in maybe(Int.random(in: 0...9, using: &random)) },
            shape: shapes.randomElement(using: &random)!)
    }

    static func custom(_ random: inout SeededGenerator) -> Custom {
        Custom(moves: (0..<Int.random(in: 0...14, using: &random)).map { _ in Int.random(in: 0...11, using: &random) }, text: text(&random))
    }

    @Test func encodesAsTheEncoderBeforeItDid() throws {
        var random = SeededGenerator(seed: 29)
        for round in 0..<2_000 {
            let value = Nested(
                flat: Self.flat(&random), flats: (0..<Int.random(in: 0...3, using: &random)).map { _ in Self.flat(&random) },
                maybeFlat: Bool.random(using: &random) ? Self.flat(&random) : nil,
                table: Dictionary(uniqueKeysWithValues: (0..<Int.random(in: 0...4, using: &random)).map { ("k\($0)", $0) }),
                grid: (0..<Int.random(in: 0...3, using: &random)).map { _ in (0..<Int.random(in: 0...3, using: &random)).map { Double($0) / 2 } },
                custom: Self.custom(&random), customs: (0..<Int.random(in: 0...2, using: &random)).map { _ in Self.custom(&random) })
            let expected = try ReferenceViewValueEncoder().encode(value)
            let encoded = try ViewValueEncoder().encode(value)
            #expect(encoded == expected, "round \(round)")
            // Equal view objects may still differ in key order, which templates and JSON show.
            #expect(Self.shape(encoded) == Self.shape(expected), "round \(round)")
            // Values alone, not only as members.
            #expect(try ViewValueEncoder().encode(value.flat.shape) == ReferenceViewValueEncoder().encode(value.flat.shape))
            #expect(try ViewValueEncoder().encode(value.grid) == ReferenceViewValueEncoder().encode(value.grid))
            // The members a model's values are merged by: the reference's object's, or none.
            #expect(try Self.members(ViewValueEncoder().encodeMembers(value)) == Self.members(of: ReferenceViewValueEncoder().encode(value)), "round \(round)")
            #expect(try Self.members(ViewValueEncoder().encodeMembers(value.custom)) == Self.members(of: ReferenceViewValueEncoder().encode(value.custom)), "round \(round)")
            #expect(try Self.members(ViewValueEncoder().encodeMembers(value.flat.view)) == Self.members(of: ReferenceViewValueEncoder().encode(value.flat.view)), "round \(round)")
            #expect(try Self.members(ViewValueEncoder().encodeMembers(value.flat.shape)) == Self.members(of: ReferenceViewValueEncoder().encode(value.flat.shape)), "round \(round)")
            #expect(try ViewValueEncoder().encode(value.custom) == ReferenceViewValueEncoder().encode(value.custom))
            #expect(try ViewValueEncoder().encode(value.flat.maybeNumbers) == ReferenceViewValueEncoder().encode(value.flat.maybeNumbers))
            #expect(try ViewValueEncoder().encode(value.flat.tone) == ReferenceViewValueEncoder().encode(value.flat.tone))
        }
    }

    @Test func aValueReadsTheCodingPathItDidBefore() throws {
        let value = Probed(here: PathProbe(), list: [PathProbe(), PathProbe()], nested: ["n": [PathProbe()]])
        let encoded = try ViewValueEncoder().encode(value)
        #expect(encoded == (try ReferenceViewValueEncoder().encode(value)))
        #expect(encoded["here"] == .string("here"))
        #expect(encoded["list"] == .list([.string("list"), .string("list")]))
    }

    /// Numbers of the standard library's other widths: the encoder before sent each back to
    /// itself until the stack ran out (`Int64` and `UInt8` crashed a build); now numbers, and
    /// null when an optional one is nil, as a `Double?` is.
    @Test func integersAndFloatsOfEveryWidthAreNumbers() throws {
        struct Widths: Encodable {
            var a: Int8 = -8, b: Int16 = 16, c: Int32 = -32, d: Int64 = 64, e: UInt = 1, f: UInt8 = 8, g: UInt16 = 16, h: UInt32 = 32, i: UInt64 = 64
            var j: Float16 = 0.5, k: [UInt8] = [1, 2], l: Int64? = nil, m: Data = Data([7]), n: Float? = nil
        }
        let value = try ViewValueEncoder().encode(Widths())
        #expect(value == .object([
            "a": .number(-8), "b": .number(16), "c": .number(-32), "d": .number(64), "e": .number(1), "f": .number(8), "g": .number(16),
            "h": .number(32), "i": .number(64), "j": .number(0.5), "k": .list([.number(1), .number(2)]), "l": .null, "m": .list([.number(7)]), "n": .null,
        ]))
    }

    /// Members as text, keys in order: nil for no members.
    static func members(_ pairs: [(String, ViewValue)]?) -> String? {
        pairs.map { $0.map { "\($0.0)=\(shape($0.1))" }.joined(separator: ";") }
    }

    static func members(of value: ViewValue) -> String? {
        if case .object(let object) = value { return members(object.pairs) }
        return nil
    }

    /// Keys in order, and each value's shape, as text: `==` on view objects ignores nothing, but
    /// this says where two differ.
    static func shape(_ value: ViewValue) -> String {
        switch value {
        case .object(let object): return "{" + object.pairs.map { "\($0.0):\(shape($0.1))" }.joined(separator: ",") + "}"
        case .formatted(let text, let object): return "f(\(text)){" + object.pairs.map { "\($0.0):\(shape($0.1))" }.joined(separator: ",") + "}"
        case .list(let items): return "[" + items.map(shape).joined(separator: ",") + "]"
        default: return "\(value)"
        }
    }
}

/// The encoder as it was before it wrote members in place (`git show 7d98cc0:Sources/TesseraKit/Components/ViewValueEncoder.swift`),
/// kept as the reference the new one must agree with. Changed: its name, and a nil `Float?`
/// is null here too (it was left out, by the standard library's `encodeIfPresent`, where a nil
/// `Double?` was null; the new encoder makes every nil optional null).
struct ReferenceViewValueEncoder {
    func encode(_ value: some Encodable) throws -> ViewValue {
        if let direct = value as? ViewValue { return direct }
        let box = Box()
        try value.encode(to: Encoder(box: box, codingPath: []))
        return box.value.resolved
    }

    /// A node under construction; containers write into it as the struct encodes.
    final class Box {
        enum Content {
            case empty
            case value(ViewValue)
            case keyed([(String, Box)])
            case unkeyed([Box])
        }
        var content: Content = .empty

        var value: Box { self }

        var resolved: ViewValue {
            switch content {
            case .empty: return .null
            case .value(let v): return v
            case .keyed(let pairs): return .object(ViewObject(pairs.map { ($0.0, $0.1.resolved) }))
            case .unkeyed(let boxes): return .list(boxes.map(\.resolved))
            }
        }
    }

    struct Encoder: Swift.Encoder {
        let box: Box
        let codingPath: [CodingKey]
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            if case .keyed = box.content {} else { box.content = .keyed([]) }
            return KeyedEncodingContainer(Keyed<Key>(box: box, codingPath: codingPath))
        }

        func unkeyedContainer() -> UnkeyedEncodingContainer {
            if case .unkeyed = box.content {} else { box.content = .unkeyed([]) }
            return Unkeyed(box: box, codingPath: codingPath)
        }

        func singleValueContainer() -> SingleValueEncodingContainer {
            Single(box: box, codingPath: codingPath)
        }
    }

    static func leaf(_ value: some Encodable, codingPath: [CodingKey]) throws -> Box {
        let box = Box()
        switch value {
        case let v as ViewValue: box.content = .value(v)
        case let v as String: box.content = .value(.string(v))
        case let v as Bool: box.content = .value(.bool(v))
        case let v as Int: box.content = .value(.number(Double(v)))
        case let v as Double: box.content = .value(.number(v))
        case let v as Float: box.content = .value(.number(Double(v)))
        case let v as URL: box.content = .value(.string(v.absoluteString))
        case let v as Date: box.content = .value(.string(FeedWriter.rfc3339(v)))
        default: try value.encode(to: Encoder(box: box, codingPath: codingPath))
        }
        return box
    }

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        let codingPath: [CodingKey]

        private func append(_ key: Key, _ child: Box) {
            guard case .keyed(var pairs) = box.content else { return }
            pairs.removeAll { $0.0 == key.stringValue }
            pairs.append((key.stringValue, child))
            box.content = .keyed(pairs)
        }

        mutating func encodeNil(forKey key: Key) throws {
            let child = Box()
            child.content = .value(.null)
            append(key, child)
        }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            append(key, try ReferenceViewValueEncoder.leaf(value, codingPath: codingPath + [key]))
        }

        mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws {
            if let value { try encode(value, forKey: key) } else { try encodeNil(forKey: key) }
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            let child = Box()
            append(key, child)
            return Encoder(box: child, codingPath: codingPath + [key]).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            let child = Box()
            append(key, child)
            return Encoder(box: child, codingPath: codingPath + [key]).unkeyedContainer()
        }

        mutating func superEncoder() -> Swift.Encoder { Encoder(box: box, codingPath: codingPath) }
        mutating func superEncoder(forKey key: Key) -> Swift.Encoder {
            let child = Box()
            append(key, child)
            return Encoder(box: child, codingPath: codingPath + [key])
        }
    }

    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        let codingPath: [CodingKey]
        var count: Int {
            if case .unkeyed(let items) = box.content { return items.count }
            return 0
        }

        private func append(_ child: Box) {
            guard case .unkeyed(var items) = box.content else { return }
            items.append(child)
            box.content = .unkeyed(items)
        }

        mutating func encodeNil() throws {
            let child = Box()
            child.content = .value(.null)
            append(child)
        }

        mutating func encode<T: Encodable>(_ value: T) throws {
            append(try ReferenceViewValueEncoder.leaf(value, codingPath: codingPath))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            let child = Box()
            append(child)
            return Encoder(box: child, codingPath: codingPath).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            let child = Box()
            append(child)
            return Encoder(box: child, codingPath: codingPath).unkeyedContainer()
        }

        mutating func superEncoder() -> Swift.Encoder {
            let child = Box()
            append(child)
            return Encoder(box: child, codingPath: codingPath)
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        let codingPath: [CodingKey]

        mutating func encodeNil() throws { box.content = .value(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            box.content = try ReferenceViewValueEncoder.leaf(value, codingPath: codingPath).content
        }
        mutating func encode(_ value: String) throws { box.content = .value(.string(value)) }
        mutating func encode(_ value: Bool) throws { box.content = .value(.bool(value)) }
        mutating func encode(_ value: Int) throws { box.content = .value(.number(Double(value))) }
        mutating func encode(_ value: Double) throws { box.content = .value(.number(value)) }
    }
}
