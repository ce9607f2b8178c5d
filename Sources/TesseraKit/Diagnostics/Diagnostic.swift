import Foundation

/// One problem found in a site: where it is, what is wrong, and how to fix it.
public struct Diagnostic: Hashable, Sendable, CustomStringConvertible {
    public enum Severity: String, Sendable, Comparable {
        case warning, error

        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .warning && rhs == .error }
    }

    public var severity: Severity
    public var location: SourceLocation?
    public var message: String
    public var hint: String?

    public init(_ severity: Severity = .error, _ message: String, at location: SourceLocation? = nil, hint: String? = nil) {
        self.severity = severity
        self.message = message
        self.location = location
        self.hint = hint
    }

    /// Formats like the Swift compiler so editors and CI annotate it:
    /// `path:line:column: error: message`, then the hint indented on the next line.
    public func formatted(relativeTo base: String? = nil) -> String {
        var text = ""
        if let location {
            text += "\(Self.displayPath(location.file, relativeTo: base)):\(location.line):\(location.column): "
        }
        text += "\(severity.rawValue): \(message)"
        if let hint, !hint.isEmpty {
            text += "\n    hint: " + hint.replacingOccurrences(of: "\n", with: "\n          ")
        }
        return text
    }

    public var description: String { formatted() }

    /// `path` relative to `base` when it lies below it.
    public static func displayPath(_ path: String, relativeTo base: String?) -> String {
        guard let base, !base.isEmpty else { return path }
        let prefix = base.hasSuffix("/") ? base : base + "/"
        return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
    }
}

extension Diagnostic: Comparable {
    /// Orders by file, then position, so a build reports problems in reading order whatever the
    /// order the parallel stages found them in.
    public static func < (lhs: Diagnostic, rhs: Diagnostic) -> Bool {
        let l = lhs.location, r = rhs.location
        if l?.file != r?.file { return (l?.file ?? "") < (r?.file ?? "") }
        if l?.line != r?.line { return (l?.line ?? 0) < (r?.line ?? 0) }
        if l?.column != r?.column { return (l?.column ?? 0) < (r?.column ?? 0) }
        return lhs.message < rhs.message
    }
}
