import CCmark
import Foundation

/// Markdown to HTML through libcmark; the only file that touches the C library.
public struct MarkdownRenderer: Sendable {
    public var options: SiteConfiguration.MarkdownOptions

    public init(options: SiteConfiguration.MarkdownOptions = .init()) {
        self.options = options
    }

    /// Block HTML: paragraphs, lists, headings. Raw HTML becomes `<!-- raw HTML omitted -->` unless
    /// the site sets `markdown.unsafe: true`.
    public func html(_ markdown: String) -> String {
        var flags = CMARK_OPT_DEFAULT
        if options.smart { flags |= CMARK_OPT_SMART }
        if options.unsafe { flags |= CMARK_OPT_UNSAFE }
        let length = markdown.utf8.count
        guard let output = markdown.withCString({ cmark_markdown_to_html($0, length, flags) }) else { return "" }
        defer { free(output) }
        return String(cString: output)
    }

    /// Inline HTML: one paragraph without its `<p>`, for titles and one-line messages.
    /// Returns nil when the Markdown is more than one paragraph.
    public func inlineHTML(_ markdown: String) -> String? {
        let block = html(markdown).trimmingCharacters(in: .newlines)
        if block.isEmpty { return "" }
        guard block.hasPrefix("<p>"), block.hasSuffix("</p>") else { return nil }
        let inner = block.dropFirst(3).dropLast(4)
        guard !inner.contains("</p>") else { return nil }
        return String(inner)
    }
}
