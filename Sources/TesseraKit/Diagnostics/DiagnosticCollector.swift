import Foundation
import Synchronization

/// Gathers diagnostics from stages that keep going after a problem, possibly from many threads.
public final class DiagnosticCollector: Sendable {
    // A mutex held inline, not a lock object: a collector is made for every component mapped.
    private let items = Mutex<[Diagnostic]>([])

    public init() {}

    public func report(_ diagnostic: Diagnostic) {
        items.withLock { $0.append(diagnostic) }
    }

    public func report(_ error: Error, at location: SourceLocation? = nil) {
        let diagnostics = TesseraError.wrapping(error, at: location).diagnostics
        items.withLock { $0.append(contentsOf: diagnostics) }
    }

    /// Runs `body`, recording what it throws; returns nil when it threw.
    public func attempt<T>(at location: SourceLocation? = nil, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            report(error, at: location)
            return nil
        }
    }

    public var diagnostics: [Diagnostic] {
        let all = items.withLock { $0 }
        return all.isEmpty ? [] : Array(Set(all)).sorted()
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Throws every error gathered so far, sorted, if there is at least one.
    public func throwIfErrors() throws {
        guard !items.withLock({ $0.isEmpty }) else { return }
        let all = diagnostics
        if all.contains(where: { $0.severity == .error }) { throw TesseraError(diagnostics: all) }
    }
}
