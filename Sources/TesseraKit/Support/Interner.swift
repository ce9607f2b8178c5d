import Synchronization

/// Equal values made apart, kept as one: `intern` gives the first value equal to the one given,
/// so that every copy shares its storage. A build keeps what each page's rendering found until
/// every page is made, and most pages use the same templates and link the same assets: 100,000
/// pages held 100,000 equal sets and dictionaries.
final class Interner<Value: Hashable & Sendable>: Sendable {
    private let values = Mutex<Set<Value>>([])

    func intern(_ value: Value) -> Value {
        values.withLock { $0.insert(value).memberAfterInsert }
    }
}
