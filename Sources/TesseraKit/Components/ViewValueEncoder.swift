import Foundation

/// Encodes a Swift view-data struct into `ViewValue`s without going through JSON.
///
/// Optional properties that are nil become explicit `null`s (synthesized `Encodable` calls
/// `encodeIfPresent`, which this encoder implements), so a template can test `{{#subtitle}}` for
/// every declared property and Tessera can report a misspelt key as missing.
struct ViewValueEncoder {
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
            append(key, try ViewValueEncoder.leaf(value, codingPath: codingPath + [key]))
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
            append(try ViewValueEncoder.leaf(value, codingPath: codingPath))
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
            box.content = try ViewValueEncoder.leaf(value, codingPath: codingPath).content
        }
        mutating func encode(_ value: String) throws { box.content = .value(.string(value)) }
        mutating func encode(_ value: Bool) throws { box.content = .value(.bool(value)) }
        mutating func encode(_ value: Int) throws { box.content = .value(.number(Double(value))) }
        mutating func encode(_ value: Double) throws { box.content = .value(.number(value)) }
    }
}
