import CAllocation
import CCmarkGFM
import CMarkdownExtensions
import Foundation

/// Markdown to HTML through GitHub's libcmark-gfm: CommonMark with pipe tables, strikethrough,
/// autolinks, task lists and footnotes, each of which the site can turn off. The only file that
/// touches the C library (with ControlCharacters+Markdown.swift, which reads its nodes).
public struct MarkdownRenderer: Sendable {
    public var options: SiteConfiguration.MarkdownOptions

    public init(options: SiteConfiguration.MarkdownOptions = .init()) {
        self.options = options
    }

    /// A link or image of the Markdown that cannot be written: a refused URL (`URLSafety`) or an
    /// internal target the site does not have. Lines and columns count from the Markdown's start.
    public struct LinkProblem: Sendable, Equatable {
        public var url: String
        public var line: Int
        public var column: Int
        public var message: String
        public var hint: String?
    }

    /// Where the Markdown's links lead: resolved like `link` fields, relative to `pageURL`.
    public struct Links: Sendable {
        public var resolver: LinkResolver
        public var pageURL: String

        public init(resolver: LinkResolver, pageURL: String) {
            self.resolver = resolver
            self.pageURL = pageURL
        }
    }

    /// Block HTML: paragraphs, lists, headings. Raw HTML becomes `<!-- raw HTML omitted -->` unless
    /// the site sets `markdown.unsafe: true`. With `links`, internal link and image targets
    /// (`@/page.md`, `../other/`, `/file.pdf`) are resolved like `link` fields and get the base
    /// path. Throws `MarkdownURLError` for refused URLs and broken internal targets.
    public func html(_ markdown: String, links: Links? = nil) throws -> String {
        let (html, problems) = render(markdown, links: links)
        if !problems.isEmpty { throw MarkdownURLError(problems: problems) }
        return html
    }

    /// Inline HTML: one paragraph without its `<p>`, for titles and one-line messages.
    /// Returns nil when the Markdown is more than one paragraph.
    public func inlineHTML(_ markdown: String, links: Links? = nil) throws -> String? {
        if let plain = plainInline(markdown) { return plain }
        var block = try html(markdown, links: links)[...]
        while block.utf8.last == 0x0A { block = block.dropLast() }
        while block.utf8.first == 0x0A { block = block.dropFirst() }
        if block.isEmpty { return "" }
        guard block.hasPrefix("<p>"), block.hasSuffix("</p>") else { return nil }
        let inner = block.dropFirst(3).dropLast(4)
        // One paragraph: no other `</p>` inside.
        let close = Array("</p>".utf8)
        var matched = 0
        for byte in inner.utf8 {
            matched = byte == close[matched] ? matched + 1 : (byte == close[0] ? 1 : 0)
            if matched == close.count { return nil }
        }
        return String(inner)
    }

    /// Parses once, checks and resolves every link and image URL, renders.
    func render(_ markdown: String, links: Links? = nil) -> (html: String, problems: [LinkProblem]) {
        // Everything cmark allocates comes from this thread's arena and goes at once when the
        // render is done (a bump each instead of a malloc and a free per node and buffer), the
        // extensions' tables, cells and footnote lists included: they allocate through the
        // parser's allocator. Nothing cmark returned outlives this function: URLs and the HTML
        // are copied out.
        let triggers = MarkdownTriggers(markdown)
        let autolinks = options.autolinks && triggers.autolinks
        var flags = cmarkOptions
        if !triggers.footnotes { flags &= ~CMARK_OPT_FOOTNOTES }
        guard let parser = cmark_parser_new_with_mem(flags, tessera_markdown_allocator().assumingMemoryBound(to: cmark_mem.self)) else { return ("", []) }
        defer { tessera_markdown_arena_reset() }
        for extensionPointer in syntaxExtensions where autolinks || extensionPointer != Self.extensions.autolink {
            cmark_parser_attach_syntax_extension(parser, extensionPointer)
        }
        var text = markdown
        text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return }
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        // Inlines are parsed here; see `tessera_markdown_inlines_begin`.
        let www = autolinks && triggers.linkableWWW
        tessera_markdown_inlines_begin(www)
        let finished = cmark_parser_finish(parser)
        tessera_markdown_inlines_end(www)
        guard let document = finished else { return ("", []) }
        var problems: [LinkProblem] = []
        var lines: [Substring]?
        // A numeric character reference (`&#1;`) is the one way Markdown makes a control character
        // that its text does not hold; cmark decodes it into a text node.
        var references = triggers.walk && ByteSearch.contains("&#", in: markdown)
        if triggers.walk || autolinks, let iterator = cmark_iter_new(document) {
            defer { cmark_iter_free(iterator) }
            while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                if references, type == CMARK_NODE_TEXT || type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE || type == CMARK_NODE_CODE_BLOCK,
                   let problem = ControlCharacters.decodedReference(in: node, markdown: markdown) {
                    problems.append(LinkProblem(url: "", line: problem.line, column: problem.column, message: problem.message, hint: "delete the reference"))
                    references = false
                }
                guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE,
                      cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER,
                      let pointer = cmark_node_get_url(node) else { continue }
                let url = String(cString: pointer)
                let isImage = type == CMARK_NODE_IMAGE
                var problem: (message: String, hint: String?)?
                if let reason = URLSafety.problem(with: url, isImage: isImage) {
                    problem = ("refused URL in %@: \(reason)", "link to a page, a file or an http(s) address; `\(url.prefix(40))` is not allowed")
                } else if let links, !url.hasPrefix("#"), !url.isEmpty {
                    do {
                        let resolved = try links.resolver.resolve(url, from: links.pageURL, filesOnly: isImage)
                        if resolved.url != url { resolved.url.withCString { _ = cmark_node_set_url(node, $0) } }
                    } catch let error as TesseraError {
                        let first = error.diagnostics.first
                        problem = ((isImage ? "broken image" : "broken link") + " in %@: " + (first?.message ?? "no such target"), first?.hint)
                    } catch {
                        problem = ("broken link in %@: \(error)", nil)
                    }
                }
                guard let problem else { continue }
                if lines == nil { lines = markdown.split(separator: "\n", omittingEmptySubsequences: false) }
                let (line, column) = Self.position(of: url, node: node, lines: lines ?? [])
                problems.append(LinkProblem(url: url, line: line, column: column, message: problem.message, hint: problem.hint))
            }
        }
        // The extensions' list: the tag filter, were it on, works at render time.
        guard let output = cmark_render_html(document, flags, cmark_parser_get_syntax_extensions(parser)) else { return ("", problems) }
        return (String(cString: output), problems)
    }

    /// Where a link's URL is written. cmark-gfm places an inline link on the line of its closing
    /// bracket (autolinks on none); the URL is on that line or a later one of its block (a table
    /// cell's is its row), and looked for there (column 1 of the first line when it is written
    /// differently, with entities or escapes).
    static func position(of url: String, node: OpaquePointer, lines: [Substring]) -> (line: Int, column: Int) {
        var current: OpaquePointer? = node
        var first = 0, last = 0
        while let inner = current {
            let start = Int(cmark_node_get_start_line(inner))
            if first == 0 { first = start }
            if start != 0, cmark_node_get_type(inner).rawValue & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_BLOCK) {
                last = Int(cmark_node_get_end_line(inner))
                break
            }
            current = cmark_node_parent(inner)
        }
        first = max(first, 1)
        for number in first...max(first, min(last, lines.count)) where number <= lines.count {
            let text = lines[number - 1]
            if let range = text.range(of: url) {
                return (number, text.distance(from: text.startIndex, to: range.lowerBound) + 1)
            }
        }
        return (first, 1)
    }
}

extension MarkdownRenderer {
    /// cmark's options for the site's. Table cells are aligned with `style` (the `align`
    /// attribute is obsolete in HTML5, which the HTML checker would refuse).
    var cmarkOptions: Int32 {
        var flags = CMARK_OPT_DEFAULT | CMARK_OPT_TABLE_PREFER_STYLE_ATTRIBUTES
        if options.smart { flags |= CMARK_OPT_SMART }
        if options.unsafe { flags |= CMARK_OPT_UNSAFE }
        if options.footnotes { flags |= CMARK_OPT_FOOTNOTES }
        return flags
    }

    /// The syntax extensions the options turn on (footnotes are an option of the core parser).
    var syntaxExtensions: [OpaquePointer] {
        let all = Self.extensions
        return [options.tables ? all.table : nil, options.strikethrough ? all.strikethrough : nil,
                options.autolinks ? all.autolink : nil, options.tasklists ? all.tasklist : nil].compactMap { $0 }
    }

    /// GitHub's extensions, registered once for the process.
    struct Extensions {
        var table, strikethrough, autolink, tasklist: OpaquePointer?
    }

    /// Looked up once; `tessera_markdown_extensions_setup` registers them and makes them safe
    /// to use on every thread at once (libcmark-gfm is not, as it comes), with
    /// `tessera_markdown_inlines_begin` and `_end` around each parse's inlines.
    nonisolated(unsafe) static let extensions: Extensions = {
        tessera_markdown_extensions_setup()
        return Extensions(
            table: cmark_find_syntax_extension("table"), strikethrough: cmark_find_syntax_extension("strikethrough"),
            autolink: cmark_find_syntax_extension("autolink"), tasklist: cmark_find_syntax_extension("tasklist"))
    }()
}
