import Foundation

/// The one error type Tessera reports to users: one or more diagnostics.
///
/// Every stage throws this, so a build can gather the problems of every file and report them
/// together instead of stopping at the first.
public struct TesseraError: Error, Sendable, CustomStringConvertible {
    public var diagnostics: [Diagnostic]

    public init(diagnostics: [Diagnostic]) {
        self.diagnostics = diagnostics
    }

    public init(_ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        self.diagnostics = [Diagnostic(.error, message, at: location, hint: hint)]
    }

    public var description: String {
        diagnostics.map { $0.formatted() }.joined(separator: "\n")
    }

    /// Wraps any error: a `TesseraError` stays itself (its diagnostics without a place get
    /// `location`), anything else becomes a diagnostic at `location`.
    public static func wrapping(_ error: Error, at location: SourceLocation?) -> TesseraError {
        if var error = error as? TesseraError {
            if let location {
                for index in error.diagnostics.indices where error.diagnostics[index].location == nil { error.diagnostics[index].location = location }
            }
            return error
        }
        return TesseraError("\(error)", at: location)
    }
}
