import Foundation

/// Encodes a Swift view-data struct into `ViewValue`s without going through JSON.
///
/// Optional properties that are nil become explicit `null`s (synthesized `Encodable` calls
/// `encodeIfPresent`, which this encoder implements), so a template can test `{{#subtitle}}` for
/// every declared property and Tessera can report a misspelt key as missing.
///
/// Every component with a Swift model is encoded here, on every page. A property is written where
/// its container holds it: text, flags and numbers straight into the parent's list, nested values
/// into a box of their own, and the coding path only made when a nested value asks for it. Each
/// property once made a box, a coding path (an array and an existential key) and two copies of
/// the members written before it: 21,000 instructions to encode a `stat`'s five values.
struct ViewValueEncoder {
    func encode(_ value: some Encodable) throws -> ViewValue {
        if let direct = value as? ViewValue { return direct }
        let box = Box()
        try value.encode(to: Encoder(box: box, path: nil))
        return box.resolved
    }

    /// The members of the object `encode` makes of `value`, without making the object (a
    /// model's values are merged into its component's data, member by member); nil when
    /// `value` is not an object.
    func encodeMembers(_ value: some Encodable) throws -> [(String, ViewValue)]? {
        if let direct = value as? ViewValue {
            if case .object(let object) = direct { return object.pairs }
            return nil
        }
        let box = Box()
        try value.encode(to: Encoder(box: box, path: nil))
        return box.members
    }

    /// A node under construction; containers write into it as the struct encodes.
    final class Box {
        enum Kind { case empty, value, keyed, unkeyed }
        private(set) var kind = Kind.empty
        /// The value of a `.value` box.
        private var value = ViewValue.null
        /// A keyed box's keys, one for each of its children, in the order they were first written
        /// (a key written again takes the last value, at the end).
        private var keys: [String] = []
        /// A keyed or an unkeyed box's members.
        private var children: [Child] = []

        func set(_ value: ViewValue) {
            kind = .value
            self.value = value
            keys = []
            children = []
        }

        /// Takes `other`'s content, as a single-value container given a nested value does.
        func take(_ other: Child) {
            switch other {
            case .value(let value): set(value)
            case .box(let box):
                kind = box.kind
                value = box.value
                keys = box.keys
                children = box.children
            }
        }

        /// Becomes a keyed (or unkeyed) box, emptied unless it already is one.
        func becomeKeyed() { if kind != .keyed { reset(to: .keyed) } }
        func becomeUnkeyed() { if kind != .unkeyed { reset(to: .unkeyed) } }

        private func reset(to kind: Kind) {
            self.kind = kind
            value = .null
            keys = []
            children = []
        }

        /// Written by a keyed container; nothing once the box has become something else.
        func append(_ key: String, _ child: Child) {
            guard kind == .keyed else { return }
            if let position = keys.firstIndex(of: key) {
                keys.remove(at: position)
                children.remove(at: position)
            }
            keys.append(key)
            children.append(child)
        }

        /// Written by an unkeyed container; nothing once the box has become something else.
        func append(_ child: Child) {
            guard kind == .unkeyed else { return }
            children.append(child)
        }

        var count: Int { kind == .unkeyed ? children.count : 0 }

        var resolved: ViewValue {
            switch kind {
            case .empty: return .null
            case .value: return value
            case .keyed: return .object(ViewObject(keyedMembers))
            case .unkeyed: return .list(children.map(\.resolved))
            }
        }

        /// The members of the object this box resolves to, or nil when it is not one. A keyed
        /// box's keys are distinct (`append` replaces a key written again), so the object keeps
        /// them as they are.
        var members: [(String, ViewValue)]? {
            switch kind {
            case .keyed: return keyedMembers
            case .value:
                if case .object(let object) = value { return object.pairs }
                return nil
            case .empty, .unkeyed: return nil
            }
        }

        private var keyedMembers: [(String, ViewValue)] {
            var pairs: [(String, ViewValue)] = []
            pairs.reserveCapacity(keys.count)
            for (key, child) in zip(keys, children) { pairs.append((key, child.resolved)) }
            return pairs
        }
    }

    /// A member: a value already made, or a box a nested value writes into.
    enum Child {
        case value(ViewValue)
        case box(Box)

        var resolved: ViewValue {
            switch self {
            case .value(let value): return value
            case .box(let box): return box.resolved
            }
        }
    }

    /// The keys from the root to a nested value, made only when one is encoded: read as
    /// `codingPath` by an `encode(to:)` that asks.
    final class Path {
        let parent: Path?
        let key: CodingKey

        init(_ parent: Path?, _ key: CodingKey) {
            self.parent = parent
            self.key = key
        }

        static func keys(_ path: Path?) -> [CodingKey] {
            var keys: [CodingKey] = []
            var node = path
            while let current = node {
                keys.append(current.key)
                node = current.parent
            }
            return keys.reversed()
        }
    }

    struct Encoder: Swift.Encoder {
        let box: Box
        let path: Path?
        var codingPath: [CodingKey] { Path.keys(path) }
        var userInfo: [CodingUserInfoKey: Any] { [:] }

        func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
            box.becomeKeyed()
            return KeyedEncodingContainer(Keyed<Key>(box: box, path: path))
        }

        func unkeyedContainer() -> UnkeyedEncodingContainer {
            box.becomeUnkeyed()
            return Unkeyed(box: box, path: path)
        }

        func singleValueContainer() -> SingleValueEncodingContainer {
            Single(box: box, path: path)
        }
    }

    /// A value's member: text, flags, numbers, dates, URLs and view values as they are; anything
    /// else encoded into a box of its own, under `path`.
    static func child(_ value: some Encodable, path: @autoclosure () -> Path?) throws -> Child {
        if let scalar = scalar(value) { return .value(scalar) }
        let box = Box()
        try value.encode(to: Encoder(box: box, path: path()))
        return .box(box)
    }

    /// The value of a leaf type, or nil for a value that encodes itself.
    private static func scalar<T: Encodable>(_ value: T) -> ViewValue? {
        // The leaf types by their metadata first, a comparison each: a cast that fails is a call
        // into the runtime, and an enum's value went through eighteen (3,000 instructions).
        if T.self == String.self { return .string(unsafeBitCast(value, to: String.self)) }
        if T.self == Bool.self { return .bool(unsafeBitCast(value, to: Bool.self)) }
        if T.self == Int.self { return .number(Double(unsafeBitCast(value, to: Int.self))) }
        if T.self == Double.self { return .number(unsafeBitCast(value, to: Double.self)) }
        if T.self == ViewValue.self { return unsafeBitCast(value, to: ViewValue.self) }
        // Only an optional (holding one of them) or a class (bridged to one) can still be cast
        // to one of them: any other value encodes itself.
        guard _isOptional(T.self) || T.self is AnyClass || Self.otherLeaves.contains(ObjectIdentifier(T.self)) else { return nil }
        switch value {
        case let v as ViewValue: return v
        case let v as String: return .string(v)
        case let v as Bool: return .bool(v)
        case let v as Int: return .number(Double(v))
        case let v as Double: return .number(v)
        case let v as Float: return .number(Double(v))
        case let v as URL: return .string(v.absoluteString)
        case let v as Date: return .string(FeedWriter.rfc3339(v))
        // The standard library's other numbers encode themselves through a single-value
        // container, which would hand them back here, round and round: numbers, as `Int` and
        // `Double` are. (A type of its own that is a number, say one written as text, still
        // encodes itself.)
        case let v as Int8: return .number(Double(v))
        case let v as Int16: return .number(Double(v))
        case let v as Int32: return .number(Double(v))
        case let v as Int64: return .number(Double(v))
        case let v as UInt: return .number(Double(v))
        case let v as UInt8: return .number(Double(v))
        case let v as UInt16: return .number(Double(v))
        case let v as UInt32: return .number(Double(v))
        case let v as UInt64: return .number(Double(v))
        case let v as Float16: return .number(Double(v))
        default: return nil
        }
    }

    /// The leaf types not compared above.
    private static let otherLeaves: Set<ObjectIdentifier> = [
        ObjectIdentifier(Float.self), ObjectIdentifier(URL.self), ObjectIdentifier(Date.self),
        ObjectIdentifier(Int8.self), ObjectIdentifier(Int16.self), ObjectIdentifier(Int32.self), ObjectIdentifier(Int64.self),
        ObjectIdentifier(UInt.self), ObjectIdentifier(UInt8.self), ObjectIdentifier(UInt16.self), ObjectIdentifier(UInt32.self),
        ObjectIdentifier(UInt64.self), ObjectIdentifier(Float16.self),
    ]

    struct Keyed<Key: CodingKey>: KeyedEncodingContainerProtocol {
        let box: Box
        let path: Path?
        var codingPath: [CodingKey] { Path.keys(path) }

        mutating func encodeNil(forKey key: Key) throws { box.append(key.stringValue, .value(.null)) }
        mutating func encode(_ value: String, forKey key: Key) throws { box.append(key.stringValue, .value(.string(value))) }
        mutating func encode(_ value: Bool, forKey key: Key) throws { box.append(key.stringValue, .value(.bool(value))) }
        mutating func encode(_ value: Int, forKey key: Key) throws { box.append(key.stringValue, .value(.number(Double(value)))) }
        mutating func encode(_ value: Double, forKey key: Key) throws { box.append(key.stringValue, .value(.number(value))) }

        mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
            box.append(key.stringValue, try ViewValueEncoder.child(value, path: Path(path, key)))
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
        // The other widths too: the standard library's own versions of these leave a nil out,
        // so a `Float?` that was nil was missing where a `Double?` was null.
        mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }
        mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeIfPresent(value.map(Double.init), forKey: key) }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
            Encoder(box: nested(key), path: Path(path, key)).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer(forKey key: Key) -> UnkeyedEncodingContainer {
            Encoder(box: nested(key), path: Path(path, key)).unkeyedContainer()
        }

        mutating func superEncoder() -> Swift.Encoder { Encoder(box: box, path: path) }
        mutating func superEncoder(forKey key: Key) -> Swift.Encoder {
            Encoder(box: nested(key), path: Path(path, key))
        }

        private func nested(_ key: Key) -> Box {
            let child = Box()
            box.append(key.stringValue, .box(child))
            return child
        }
    }

    /// A list's items are encoded under the list's own path, as before: no index keys.
    struct Unkeyed: UnkeyedEncodingContainer {
        let box: Box
        let path: Path?
        var codingPath: [CodingKey] { Path.keys(path) }
        var count: Int { box.count }

        mutating func encodeNil() throws { box.append(.value(.null)) }
        mutating func encode(_ value: String) throws { box.append(.value(.string(value))) }
        mutating func encode(_ value: Bool) throws { box.append(.value(.bool(value))) }
        mutating func encode(_ value: Int) throws { box.append(.value(.number(Double(value)))) }
        mutating func encode(_ value: Double) throws { box.append(.value(.number(value))) }

        mutating func encode<T: Encodable>(_ value: T) throws {
            box.append(try ViewValueEncoder.child(value, path: path))
        }

        mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
            Encoder(box: nested(), path: path).container(keyedBy: keyType)
        }

        mutating func nestedUnkeyedContainer() -> UnkeyedEncodingContainer {
            Encoder(box: nested(), path: path).unkeyedContainer()
        }

        mutating func superEncoder() -> Swift.Encoder { Encoder(box: nested(), path: path) }

        private func nested() -> Box {
            let child = Box()
            box.append(.box(child))
            return child
        }
    }

    struct Single: SingleValueEncodingContainer {
        let box: Box
        let path: Path?
        var codingPath: [CodingKey] { Path.keys(path) }

        mutating func encodeNil() throws { box.set(.null) }
        mutating func encode<T: Encodable>(_ value: T) throws {
            box.take(try ViewValueEncoder.child(value, path: path))
        }
        mutating func encode(_ value: String) throws { box.set(.string(value)) }
        mutating func encode(_ value: Bool) throws { box.set(.bool(value)) }
        mutating func encode(_ value: Int) throws { box.set(.number(Double(value))) }
        mutating func encode(_ value: Double) throws { box.set(.number(value)) }
    }
}
