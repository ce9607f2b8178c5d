import Foundation

/// The source line a diagnostic points at, for an excerpt with a caret under the column, as
/// compilers print: the terminal and the preview's error overlay show the same.
public struct SourceExcerpt: Sendable, Equatable {
    public var lineNumber: Int
    /// The line as written, without its line break.
    public var text: String
    /// What goes before the caret: the line's own tabs kept, everything else a space, so the caret
    /// lands under the column whatever the tab width.
    public var caretIndent: String

    /// Files larger than this are not read for an excerpt.
    static let maximumFileSize = 8 << 20

    /// The excerpt for `location`, or nil when its file cannot be read, is not text, or has no such line.
    public static func at(_ location: SourceLocation, contents: Data? = nil) -> SourceExcerpt? {
        guard location.line >= 1 else { return nil }
        guard let data = contents ?? Self.contents(of: location.file), let text = String(data: data, encoding: .utf8) else { return nil }
        var number = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            number += 1
            guard number == location.line else { continue }
            var line = String(line)
            if line.hasSuffix("\r") { line.removeLast() }
            if number == 1, line.hasPrefix("\u{FEFF}") { line.removeFirst() }
            let column = max(1, min(location.column, line.count + 1))
            let indent = String(line.prefix(column - 1).map { $0 == "\t" ? "\t" : " " })
            return SourceExcerpt(lineNumber: number, text: line, caretIndent: indent)
        }
        return nil
    }

    /// A regular file's bytes when it is small enough to show from.
    public static func contents(of path: String) -> Data? {
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
              (attributes[.type] as? FileAttributeType) == .typeRegular,
              let size = attributes[.size] as? Int, size <= maximumFileSize else { return nil }
        return FileManager.default.contents(atPath: path)
    }

    /// Two lines with a gutter: the source line, then the caret.
    ///
    ///     12 |     - component: notce
    ///        |                  ^
    public func formatted(gutterWidth: Int? = nil, style: (_ part: Part, _ text: String) -> String = { $1 }) -> String {
        let number = String(lineNumber)
        let width = max(gutterWidth ?? 0, number.count)
        let pad = String(repeating: " ", count: width - number.count)
        let blank = String(repeating: " ", count: width)
        return "  " + style(.gutter, pad + number + " |") + " " + text + "\n"
            + "  " + style(.gutter, blank + " |") + " " + caretIndent + style(.caret, "^")
    }

    public enum Part: Sendable { case gutter, caret }
}
