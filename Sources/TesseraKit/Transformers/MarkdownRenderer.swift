import CCmark
import Foundation

/// Markdown to HTML through libcmark; the only file that touches the C library.
public struct MarkdownRenderer: Sendable {
    public var options: SiteConfiguration.MarkdownOptions

    public init(options: SiteConfiguration.MarkdownOptions = .init()) {
        self.options = options
    }

    /// A link or image URL that `URLSafety` refuses, with its line counted from the Markdown's first.
    public struct RefusedURL: Sendable, Equatable {
        public var url: String
        public var line: Int
        public var reason: String
    }

    /// Block HTML: paragraphs, lists, headings. Raw HTML becomes `<!-- raw HTML omitted -->` unless
    /// the site sets `markdown.unsafe: true`. Throws when a link or image has a refused URL.
    public func html(_ markdown: String) throws -> String {
        let (html, refused) = render(markdown)
        if !refused.isEmpty { throw MarkdownURLError(refused: refused) }
        return html
    }

    /// Inline HTML: one paragraph without its `<p>`, for titles and one-line messages.
    /// Returns nil when the Markdown is more than one paragraph.
    public func inlineHTML(_ markdown: String) throws -> String? {
        let block = try html(markdown).trimmingCharacters(in: .newlines)
        if block.isEmpty { return "" }
        guard block.hasPrefix("<p>"), block.hasSuffix("</p>") else { return nil }
        let inner = block.dropFirst(3).dropLast(4)
        guard !inner.contains("</p>") else { return nil }
        return String(inner)
    }

    /// Parses once, checks every link and image URL, renders.
    func render(_ markdown: String) -> (html: String, refused: [RefusedURL]) {
        var flags = CMARK_OPT_DEFAULT
        if options.smart { flags |= CMARK_OPT_SMART }
        if options.unsafe { flags |= CMARK_OPT_UNSAFE }
        let length = markdown.utf8.count
        guard let document = markdown.withCString({ cmark_parse_document($0, length, flags) }) else { return ("", []) }
        defer { cmark_node_free(document) }
        var refused: [RefusedURL] = []
        if let iterator = cmark_iter_new(document) {
            defer { cmark_iter_free(iterator) }
            while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE,
                      cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER,
                      let pointer = cmark_node_get_url(node) else { continue }
                let url = String(cString: pointer)
                guard let reason = URLSafety.problem(with: url, isImage: type == CMARK_NODE_IMAGE) else { continue }
                // Inline nodes carry no position in cmark 0.30; their block does.
                var line = Int(cmark_node_get_start_line(node))
                var parent = cmark_node_parent(node)
                while line == 0, let block = parent {
                    line = Int(cmark_node_get_start_line(block))
                    parent = cmark_node_parent(block)
                }
                refused.append(RefusedURL(url: url, line: max(line, 1), reason: reason))
            }
        }
        guard let output = cmark_render_html(document, flags) else { return ("", refused) }
        defer { free(output) }
        return (String(cString: output), refused)
    }
}

/// Links or images of a Markdown text whose URLs are refused; callers place them in their file.
public struct MarkdownURLError: Error, Sendable {
    public var refused: [MarkdownRenderer.RefusedURL]

    /// One diagnostic per URL, with lines counted from `start` (the Markdown's first line in its file).
    func diagnostics(from start: SourceLocation, what: String) -> TesseraError {
        TesseraError(diagnostics: refused.map { url in
            Diagnostic(
                .error, "refused URL in \(what): \(url.reason)", at: start.offset(lines: url.line - 1),
                hint: "link to a page, a file or an http(s) address; `\(url.url.prefix(40))` is not allowed")
        })
    }
}
