import Foundation

/// A page's summary when its front matter gives none: the Markdown before a `<!--more-->` line,
/// or else the first paragraph cut at a word boundary. Plain text, like front matter's `summary`.
enum MarkdownSummary {
    /// Where a summary's default length, in characters, comes from: a `<meta name="description">`
    /// shows about this much.
    static let defaultLength = 160

    /// The summary of a Markdown body: the text before its `<!--more-->` line, whole (headings,
    /// images and code left out), or the first paragraph cut at a word boundary to `length`
    /// characters; nil when the body has neither. The Markdown is rendered by `renderer`, so the
    /// text reads as the page does (smart punctuation, entities, a `*` that is not emphasis).
    static func summary(of markdown: String, length: Int, renderer: MarkdownRenderer) -> String? {
        let source: String
        if let more = more(in: markdown) {
            source = prose(before: more.before)
        } else {
            source = MarkdownText.firstParagraphLines(markdown).joined(separator: "\n")
        }
        let text = HTMLText.words(HTMLText.plain(renderer.render(source).html))
        guard !text.isEmpty else { return nil }
        guard more(in: markdown) == nil, text.count > length else { return text }
        var cut = String(text.prefix(length))
        if let space = cut.lastIndex(of: " ") { cut = String(cut[..<space]) }
        while let last = cut.last, ",;:.-–—".contains(last) { cut.removeLast() }
        return cut + "…"
    }

    /// The lines of `text` a reader reads as prose: code blocks, headings and images left out.
    private static func prose(before text: Substring) -> String {
        var kept: [Substring] = []
        MarkdownText.forEachLine(text) { line in
            if case .text(let line, let trimmed) = line, !trimmed.hasPrefix("#"), !trimmed.hasPrefix("![") { kept.append(line) }
            return true
        }
        return kept.joined(separator: "\n")
    }

    /// The body without its `<!--more-->` line, blank in its place so every later line keeps its
    /// number (errors are placed by line); the body itself when it has none.
    static func removingMore(from markdown: String) -> String {
        guard let more = more(in: markdown) else { return markdown }
        return String(markdown[..<more.line.lowerBound]) + String(markdown[more.line.upperBound...])
    }

    /// What the summary is made from, for the build cache (other pages show a page's summary):
    /// the text before `<!--more-->`, else the first paragraph's lines.
    static func source(of markdown: String) -> String {
        if let more = more(in: markdown) { return String(more.before) }
        return MarkdownText.firstParagraphLines(markdown).joined(separator: "\n")
    }

    /// The first line outside code fences that is `<!--more-->` (any case, spaces inside and
    /// around it): the text before it, and the line's own text without its line break.
    static func more(in markdown: String) -> (before: Substring, line: Range<String.Index>)? {
        guard ByteSearch.contains("<!--", in: markdown) else { return nil }
        var found: (before: Substring, line: Range<String.Index>)?
        MarkdownText.forEachLine(markdown[...]) { line in
            guard case .text(let text, _) = line, text.lowercased().filter({ !$0.isWhitespace }) == "<!--more-->" else { return true }
            found = (markdown[..<text.startIndex], text.startIndex..<text.endIndex)
            return false
        }
        return found
    }
}
