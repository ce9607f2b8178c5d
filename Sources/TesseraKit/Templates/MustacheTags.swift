import Foundation

/// The tags of a Mustache template with their positions.
///
/// A flat scan of the tags with their lines and columns, to check partial references before
/// rendering and to point a missing variable at the line that uses it; the parser keeps no
/// positions, so rendering stays lean.
struct MustacheTag: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case variable, section, invertedSection, closeSection, partial, parent, block, comment, other
    }
    var kind: Kind
    var name: String
    var line: Int
    var column: Int

    /// The first segment of a dotted name, which Mustache looks up through the context stack.
    var rootName: String {
        String(name.split(separator: ".", maxSplits: 1).first ?? Substring(name))
    }

    static func scan(_ text: String) -> [MustacheTag] {
        var tags: [MustacheTag] = []
        var open = Array("{{".utf8), close = Array("}}".utf8)
        let bytes = Array(text.utf8)
        var i = 0, line = 1, lineStart = 0
        func matches(_ pattern: [UInt8], at index: Int) -> Bool {
            guard index + pattern.count <= bytes.count else { return false }
            for k in 0..<pattern.count where bytes[index + k] != pattern[k] { return false }
            return true
        }
        while i < bytes.count {
            if bytes[i] == 10 { line += 1; lineStart = i + 1; i += 1; continue }
            guard matches(open, at: i) else { i += 1; continue }
            let tagLine = line, tagColumn = String(decoding: bytes[lineStart..<i], as: UTF8.self).count + 1
            var start = i + open.count
            var triple = false
            if open == Array("{{".utf8), start < bytes.count, bytes[start] == 123 { triple = true; start += 1 }
            var end = start
            while end < bytes.count, !matches(close, at: end) {
                if bytes[end] == 10 { line += 1; lineStart = end + 1 }
                end += 1
            }
            let inner = String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self).trimmingWhitespaces()
            i = min(end + close.count + (triple ? 1 : 0), bytes.count)
            guard let sigil = inner.first else { continue }
            let rest = { inner.dropFirst().trimmingWhitespaces() }
            switch sigil {
            case "!": tags.append(.init(kind: .comment, name: "", line: tagLine, column: tagColumn))
            case "#": tags.append(.init(kind: .section, name: rest(), line: tagLine, column: tagColumn))
            case "^": tags.append(.init(kind: .invertedSection, name: rest(), line: tagLine, column: tagColumn))
            case "/": tags.append(.init(kind: .closeSection, name: rest(), line: tagLine, column: tagColumn))
            case ">": tags.append(.init(kind: .partial, name: rest(), line: tagLine, column: tagColumn))
            case "<": tags.append(.init(kind: .parent, name: rest(), line: tagLine, column: tagColumn))
            case "$": tags.append(.init(kind: .block, name: rest(), line: tagLine, column: tagColumn))
            case "&": tags.append(.init(kind: .variable, name: rest(), line: tagLine, column: tagColumn))
            case "=":
                // {{=<% %>=}} changes the delimiters for the rest of the template.
                let parts = inner.dropFirst().dropLast().split(separator: " ", omittingEmptySubsequences: true)
                if parts.count == 2 { open = Array(parts[0].utf8); close = Array(parts[1].utf8) }
                tags.append(.init(kind: .other, name: "", line: tagLine, column: tagColumn))
            case "%": tags.append(.init(kind: .other, name: "", line: tagLine, column: tagColumn))
            default: tags.append(.init(kind: .variable, name: inner, line: tagLine, column: tagColumn))
            }
        }
        return tags
    }
}
