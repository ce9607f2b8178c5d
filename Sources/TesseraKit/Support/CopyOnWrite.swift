/// The stored properties of a value type that is copied far more often than it is changed (a
/// page, a schema and its fields, a component's definition, a page's transform context, a
/// compiled template), held once and shared by every copy until one copy changes a property.
///
/// A copy of a struct retains each reference it holds: a schema of a dozen strings, arrays and
/// optionals took a dozen retains and as many releases each time a component was mapped,
/// rendered, written as JSON or indexed, and the copies of schemas, definitions, contexts and
/// templates were 3% of a feed build's samples. Boxed, a copy is one retain. A type exposes each
/// property as `get { stored.read.x } _modify { yield &stored.write.x }`, so a change in place
/// (`page.tags.append(…)`) changes the box's own value without a copy of it.
///
/// Safe to share between threads as the value types that use it are: a box is changed only
/// through `CopyOnWrite.write`, which first copies a box any other value also holds.
final class CopyOnWriteBox<Fields> {
    /// Without Swift's run-time exclusivity check, a `swift_beginAccess` on every read of a
    /// field through every box (1.2 million in a feed build of 1,000 pages, 1.3% of its
    /// instructions). The check could never fire: a box is changed only through `write`, when
    /// the one value holding it is itself being changed, which the compiler already keeps
    /// exclusive; every other box is only read.
    @exclusivity(unchecked) var fields: Fields
    init(_ fields: Fields) { self.fields = fields }
}

/// A value type's fields in a `CopyOnWriteBox`: read through `read`, changed through `write`.
struct CopyOnWrite<Fields> {
    private var box: CopyOnWriteBox<Fields>

    init(_ fields: Fields) { box = CopyOnWriteBox(fields) }

    var read: Fields {
        @inline(__always) _read { yield box.fields }
    }

    var write: Fields {
        @inline(__always) _read { yield box.fields }
        @inline(__always) _modify {
            if !isKnownUniquelyReferenced(&box) { box = CopyOnWriteBox(box.fields) }
            yield &box.fields
        }
    }

    /// Whether both hold the same box: equal without comparing a field.
    func shares(_ other: CopyOnWrite) -> Bool { box === other.box }
}

extension CopyOnWriteBox: @unchecked Sendable where Fields: Sendable {}
extension CopyOnWrite: @unchecked Sendable where Fields: Sendable {}
