import Foundation
import Synchronization

/// View data: what transformers make of content and the only thing templates see.
///
/// A closed set of cases keeps rendering fast (no `Mirror`), makes every value encodable to JSON
/// for the per-page view-data documents, and lets an absent optional field be an explicit `null`
/// so that Mustache never falls through to a same-named value of an outer context.
public enum ViewValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case string(String)
    case number(Double)
    case list([ViewValue])
    case object(ViewObject)
    /// A value that renders as `text` and also has parts: a date renders "3 days ago" and has `iso`.
    ///
    /// Boxed (`indirect`): inline, its three words fill the enum and the case tag goes into the
    /// spare high bits of the `ViewObject` reference, so no plain pointer to the parts remains.
    /// Leak checkers (LeakSanitizer under `make fuzz`, heap profilers) then find no reference to
    /// parts held in a long-lived table, such as the formatted numbers every build shares, and
    /// report them as leaked. The box is one plain pointer, and a value still takes 24 bytes.
    indirect case formatted(String, ViewObject)
    /// A component's children, mapped but not yet rendered; the renderer turns them into HTML.
    case components([ComponentView])

    public static func object(_ pairs: KeyValuePairs<String, ViewValue>) -> ViewValue {
        .object(ViewObject(pairs.map { ($0.key, $0.value) }))
    }

    public static func formatted(_ text: String, _ pairs: KeyValuePairs<String, ViewValue>) -> ViewValue {
        .formatted(text, ViewObject(pairs.map { ($0.key, $0.value) }))
    }

    public static func optional(_ string: String?) -> ViewValue {
        string.map(ViewValue.string) ?? .null
    }

    /// A scalar of content as it is: a number stays a number, true stays true.
    static func scalar(_ node: ContentNode) -> ViewValue {
        switch node.value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .number(Double(number))
        case .double(let number): return .number(number)
        default: return .optional(node.scalarText)
        }
    }

    /// The text this value renders as in `{{value}}`.
    public var text: String? {
        switch self {
        case .string(let s), .formatted(let s, _): return s
        case .number(let n): return n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
        case .bool(let b): return b ? "true" : "false"
        default: return nil
        }
    }

    public subscript(key: String) -> ViewValue? {
        switch self {
        case .object(let object), .formatted(_, let object): return object[key]
        default: return nil
        }
    }
}

/// An ordered set of named view values; immutable, shared between threads.
///
/// Some values are costly and rarely shown (a date's eight formatted forms, of which a template
/// uses one or two): an object can name them up front and compute each on first use, once.
public final class ViewObject: @unchecked Sendable, Equatable {
    public let keys: [String]
    /// Values in the order of `keys` (`.null` where a deferred value is not computed yet: see
    /// `Deferred.stored`). Small objects, which almost all are, find a key by scanning `keys`;
    /// large ones through `index`. Not optionals: an array of them was destroyed through the
    /// generic `Optional`'s witness, 220 instructions a value, when the object went (a feed
    /// page's view objects, 2,400 instructions each).
    private let values: [ViewValue]
    private let index: [String: Int]?
    static let indexedCount = 12
    private let deferred: Deferred?
    /// True for free-form data (front matter `params`, site.yml `params`, data files): a template
    /// may ask for a key that this object lacks. Other objects, whose keys are the parts of a value
    /// (`date.iso`, `tone.warning`, `page.title`), make a missing sub-key an error.
    public let isOpen: Bool

    /// Values computed on first use. `identity` stands for everything they are computed from,
    /// so two objects with equal identities are equal without computing anything.
    final class Deferred: @unchecked Sendable {
        let identity: AnyHashable
        private let compute: @Sendable (String) -> ViewValue?
        /// By the key's position: a template reads the same form on every page, and a position
        /// is found without hashing the key again.
        private let computed: Mutex<[ViewValue?]>
        /// The positions whose value the object holds (given eagerly), by position.
        let stored: [Bool]

        init(identity: AnyHashable, stored: [Bool], compute: @escaping @Sendable (String) -> ViewValue?) {
            self.identity = identity
            self.compute = compute
            self.stored = stored
            computed = Mutex(Array(repeating: nil, count: stored.count))
        }

        /// The value if it was computed already; nil without computing it.
        func computed(at position: Int) -> ViewValue? { computed.withLock { $0[position] } }

        func value(_ key: String, at position: Int) -> ViewValue? {
            if let known = computed.withLock({ $0[position] }) { return known }
            guard let value = compute(key) else { return nil }
            computed.withLock { $0[position] = value }
            return value
        }
    }

    public init(_ pairs: [(String, ViewValue)], isOpen: Bool = false) {
        self.isOpen = isOpen
        var keys: [String] = []
        var values: [ViewValue] = []
        keys.reserveCapacity(pairs.count)
        values.reserveCapacity(pairs.count)
        if pairs.count > Self.indexedCount {
            var index: [String: Int] = [:]
            index.reserveCapacity(pairs.count)
            for (key, value) in pairs {
                // A repeated key keeps its first place and takes the last value.
                if let position = index[key] { values[position] = value; continue }
                index[key] = keys.count
                keys.append(key)
                values.append(value)
            }
            self.index = index
        } else {
            for (key, value) in pairs {
                if let position = keys.firstIndex(where: { $0.isKey(key) }) { values[position] = value; continue }
                keys.append(key)
                values.append(value)
            }
            self.index = nil
        }
        self.keys = keys
        self.values = values
        self.deferred = nil
    }

    /// The keys of objects that all have the same ones, in the same order (a page's `page`
    /// value): their index is made once and shared, not hashed again for every object.
    struct Layout: Sendable {
        let keys: [String]
        fileprivate let index: [String: Int]?

        init(_ keys: [String]) {
            precondition(Set(keys).count == keys.count, "a layout's keys are unique")
            self.keys = keys
            index = ViewObject.index(of: keys)
        }
    }

    /// Key → position for objects large enough to look keys up by hash; the first place of a
    /// repeated key.
    fileprivate static func index(of keys: [String]) -> [String: Int]? {
        keys.count > indexedCount ? Dictionary(keys.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first }) : nil
    }

    /// An object of `layout`'s keys with `values` in their order.
    init(_ layout: Layout, values: [ViewValue]) {
        precondition(values.count == layout.keys.count, "one value per key of the layout")
        keys = layout.keys
        index = layout.index
        self.values = values
        deferred = nil
        isOpen = false
    }

    /// An object whose `keys` not in `eager` are computed by `compute` when first read.
    init(keys: [String], eager: [String: ViewValue], identity: AnyHashable, compute: @escaping @Sendable (String) -> ViewValue?) {
        self.keys = keys
        self.values = keys.map { eager[$0] ?? .null }
        self.index = Self.index(of: keys)
        self.deferred = Deferred(identity: identity, stored: keys.map { eager[$0] != nil }, compute: compute)
        self.isOpen = false
    }

    @inline(__always)
    private func position(of key: String) -> Int? {
        if let index { return index[key] }
        return keys.firstIndex { $0.isKey(key) }
    }

    public subscript(key: String) -> ViewValue? {
        guard let position = position(of: key) else { return nil }
        guard let deferred, !deferred.stored[position] else { return values[position] }
        return deferred.value(key, at: position)
    }

    /// The value of `key` if it is stored or was computed already; never computes it.
    func valueIfComputed(_ key: String) -> ViewValue? {
        guard let position = position(of: key) else { return nil }
        guard let deferred, !deferred.stored[position] else { return values[position] }
        return deferred.computed(at: position)
    }

    public var pairs: [(String, ViewValue)] {
        deferred == nil ? Array(zip(keys, values)) : keys.map { ($0, self[$0] ?? .null) }
    }

    /// Whether any value is components still to render (without listing them).
    var hasComponentLists: Bool {
        values.contains { if case .components = $0 { return true } else { return false } }
    }

    /// The values that are components still to render, in key order.
    var componentLists: [(String, [ComponentView])] {
        var lists: [(String, [ComponentView])] = []
        for (key, value) in zip(keys, values) {
            if case .components(let children) = value { lists.append((key, children)) }
        }
        return lists
    }

    /// The object with `other`'s values after its own: a key it has keeps its place and takes
    /// the last value given, as `ViewObject(pairs + other)` does. A component's model and its
    /// accessibility labels are merged into every component's data: only `other`'s keys are
    /// looked up, and nothing is made of the values this object has. Keys other than ASCII
    /// (which a small object and a large one may compare differently) take the long way.
    public func merging(_ other: [(String, ViewValue)]) -> ViewObject {
        // Read in place: `utf8.allSatisfy` went through the view a byte at a time (250
        // instructions a key, the merge of every component's model and labels).
        let ascii = { (key: String) in key.withUTF8Bytes { !$0.contains { $0 >= 0x80 } } }
        guard deferred == nil, keys.allSatisfy(ascii), other.allSatisfy({ ascii($0.0) }) else { return ViewObject(pairs + other, isOpen: isOpen) }
        var keys = self.keys, values = self.values, index = self.index
        keys.reserveCapacity(keys.count + other.count)
        values.reserveCapacity(keys.count + other.count)
        for (key, value) in other {
            let position = index.map { $0[key] } ?? keys.firstIndex { $0.isKey(key) }
            if let position {
                values[position] = value
                continue
            }
            index?[key] = keys.count
            keys.append(key)
            values.append(value)
            if index == nil, keys.count > Self.indexedCount { index = Self.index(of: keys) }
        }
        return ViewObject(keys: keys, values: values, index: index, isOpen: isOpen)
    }

    private init(keys: [String], values: [ViewValue], index: [String: Int]?, isOpen: Bool) {
        self.keys = keys
        self.values = values
        self.index = index
        self.deferred = nil
        self.isOpen = isOpen
    }

    public static func == (lhs: ViewObject, rhs: ViewObject) -> Bool {
        if lhs === rhs { return true }
        guard lhs.keys == rhs.keys else { return false }
        switch (lhs.deferred, rhs.deferred) {
        case (nil, nil): return lhs.values == rhs.values
        case let (left?, right?) where left.identity == right.identity: return true
        default: return lhs.pairs.elementsEqual(rhs.pairs) { $0.0 == $1.0 && $0.1 == $1.1 }
        }
    }
}

/// A component of a page after mapping: its code, its view data, its shell, and its children.
public struct ComponentView: Sendable, Equatable {
    /// Shared by the view's copies (`CopyOnWrite`): a view is copied as its page is mapped,
    /// rendered, written as JSON, indexed for search and checked for repeated ids, and a copy of
    /// its nine fields retained seven strings and the view data each time: 1.15M of the 14.3M
    /// string retains of 1,000 feed pages.
    private struct Stored: Sendable, Equatable {
        var code: String
        var id: String?
        var listedID: String?
        var action: ComponentAction?
        var data: ViewObject
        var shell: String?
        var location: SourceLocation
        var source: String?
        var sharedKey: String?
    }

    private var stored: CopyOnWrite<Stored>

    public var code: String {
        get { stored.read.code }
        _modify { yield &stored.write.code }
    }
    /// `id:` as written: the component's id in the page's JSON, unique on the page.
    public var id: String? {
        get { stored.read.id }
        _modify { yield &stored.write.id }
    }
    /// For an item a query lists: `page:<id>` or `data:<file>/<id>`, its id within its section.
    public var listedID: String? {
        get { stored.read.listedID }
        _modify { yield &stored.write.listedID }
    }
    /// `action:` as written, resolved; nil takes the action of the first `link` field.
    public var action: ComponentAction? {
        get { stored.read.action }
        _modify { yield &stored.write.action }
    }
    public var data: ViewObject {
        get { stored.read.data }
        _modify { yield &stored.write.data }
    }
    /// Nil renders the body bare.
    public var shell: String? {
        get { stored.read.shell }
        _modify { yield &stored.write.shell }
    }
    public var location: SourceLocation {
        get { stored.read.location }
        _modify { yield &stored.write.location }
    }
    /// The YAML that made this component, for galleries (`{{source}}` of a section item); set for
    /// the items of `examples:` sections.
    public var source: String? {
        get { stored.read.source }
        _modify { yield &stored.write.source }
    }
    /// Set on a page listed by a query: views with the same key are the same view (one page
    /// shown by one query shape in one language), so a render of one may stand for the others.
    public var sharedKey: String? {
        get { stored.read.sharedKey }
        _modify { yield &stored.write.sharedKey }
    }

    public init(code: String, data: ViewObject, shell: String?, location: SourceLocation) {
        stored = CopyOnWrite(Stored(code: code, data: data, shell: shell, location: location))
    }

    public static func == (a: ComponentView, b: ComponentView) -> Bool {
        a.stored.shares(b.stored) || a.stored.read == b.stored.read
    }
}

extension String {
    /// `self == key`, lengths first: most keys of an object or scope differ in length, and two
    /// lengths compare faster than two strings (this runs for every name a build looks up).
    @inline(__always)
    func isKey(_ key: String) -> Bool {
        utf8.count == key.utf8.count && self == key
    }
}
