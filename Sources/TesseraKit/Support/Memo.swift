import Foundation

/// Values computed once per key and shared between threads: formatted numbers, relative
/// wordings, resolved links, parsed translations. Bounded by `limit`: past it the memo starts
/// again rather than grow without end in a long preview session.
class Memo<Key: Hashable, Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [Key: Value] = [:]
    private let limit: Int

    init(limit: Int = 100_000) {
        self.limit = limit
    }

    func value(_ key: Key, make: () throws -> Value) rethrows -> Value {
        if let known = lock.withLock({ values[key] }) { return known }
        let made = try make()
        lock.withLock {
            if values.count >= limit { values.removeAll(keepingCapacity: true) }
            values[key] = made
        }
        return made
    }
}
