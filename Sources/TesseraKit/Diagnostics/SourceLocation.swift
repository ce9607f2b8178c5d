import Foundation

/// A position in a source file, 1-based like compilers and editors count.
public struct SourceLocation: Hashable, Sendable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int

    public init(file: String, line: Int = 1, column: Int = 1) {
        self.file = file
        self.line = max(line, 1)
        self.column = max(column, 1)
    }

    /// The location moved down by `lines`, for documents embedded in a larger file (front matter).
    /// `content/about.md:3:7`, the file relative to `site`, for naming another place in a message.
    public func described(relativeTo site: String) -> String {
        let relative = file.hasPrefix(site + "/") ? String(file.dropFirst(site.count + 1)) : file
        return "\(relative):\(line):\(column)"
    }

    public func offset(lines: Int) -> SourceLocation {
        SourceLocation(file: file, line: line + lines, column: column)
    }

    public var description: String { "\(file):\(line):\(column)" }
}
