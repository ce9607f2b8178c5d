import Foundation

/// Gathers diagnostics from stages that keep going after a problem, possibly from many threads.
public final class DiagnosticCollector: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [Diagnostic] = []

    public init() {}

    public func report(_ diagnostic: Diagnostic) {
        lock.lock(); defer { lock.unlock() }
        items.append(diagnostic)
    }

    public func report(_ error: Error, at location: SourceLocation? = nil) {
        let diagnostics = TesseraError.wrapping(error, at: location).diagnostics
        lock.lock(); defer { lock.unlock() }
        items.append(contentsOf: diagnostics)
    }

    /// Runs `body`, recording what it throws; returns nil when it threw.
    public func attempt<T>(at location: SourceLocation? = nil, _ body: () throws -> T) -> T? {
        do { return try body() } catch {
            report(error, at: location)
            return nil
        }
    }

    public var diagnostics: [Diagnostic] {
        lock.lock(); defer { lock.unlock() }
        return Array(Set(items)).sorted()
    }

    public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

    /// Throws every error gathered so far, sorted, if there is at least one.
    public func throwIfErrors() throws {
        let all = diagnostics
        if all.contains(where: { $0.severity == .error }) { throw TesseraError(diagnostics: all) }
    }
}
