import CCmark
import CAllocation
import Foundation

/// Markdown to HTML through libcmark; the only file that touches the C library.
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

    /// The inline HTML of text in which Markdown can find nothing to do: one line of letters,
    /// digits, spaces and plain punctuation, starting with a letter; cmark would print it as it
    /// is (a test compares both). Nil for anything else, which cmark renders. Titles, names and
    /// labels are mostly such text.
    func plainInline(_ text: String) -> String? {
        let utf8 = text.utf8
        guard let first = utf8.first, first | 0x20 >= 0x61, first | 0x20 <= 0x7A, utf8.last != 0x20 else { return nil }
        var previous: UInt8 = 0
        for byte in utf8 {
            switch byte {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x80...0xFF,
                 UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "/"), UInt8(ascii: "%"), UInt8(ascii: "$"), UInt8(ascii: "@"), UInt8(ascii: "+"),
                 UInt8(ascii: "="), UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"):
                break
            case UInt8(ascii: "."), UInt8(ascii: "-"):
                // "..." and "--" are typography with `smart`.
                if options.smart && previous == byte { return nil }
            default:
                return nil
            }
            previous = byte
        }
        return text
    }

    /// Parses once, checks and resolves every link and image URL, renders.
    func render(_ markdown: String, links: Links? = nil) -> (html: String, problems: [LinkProblem]) {
        var flags = CMARK_OPT_DEFAULT
        if options.smart { flags |= CMARK_OPT_SMART }
        if options.unsafe { flags |= CMARK_OPT_UNSAFE }
        // Everything cmark allocates comes from this thread's arena and goes at once when the
        // render is done (a bump each instead of a malloc and a free per node and buffer). Nothing
        // cmark returned outlives this function: URLs and the HTML are copied out.
        guard let parser = cmark_parser_new_with_mem(flags, tessera_markdown_allocator().assumingMemoryBound(to: cmark_mem.self)) else { return ("", []) }
        defer { tessera_markdown_arena_reset() }
        var text = markdown
        text.withUTF8 { bytes in
            guard !bytes.isEmpty else { return }
            bytes.withMemoryRebound(to: CChar.self) { cmark_parser_feed(parser, $0.baseAddress, $0.count) }
        }
        guard let document = cmark_parser_finish(parser) else { return ("", []) }
        var problems: [LinkProblem] = []
        var lines: [Substring]?
        // A numeric character reference (`&#1;`) is the one way Markdown makes a control character
        // that its text does not hold; cmark decodes it into a text node.
        var references = ByteSearch.contains("&#", in: markdown)
        if let iterator = cmark_iter_new(document) {
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
        guard let output = cmark_render_html(document, flags) else { return ("", problems) }
        return (String(cString: output), problems)
    }

    /// Where a link's URL is written. Inline nodes carry no position in cmark 0.30; their block
    /// does, so the URL is looked for in the block's lines (column 1 of the block's first line
    /// when it is written differently, with entities or escapes).
    static func position(of url: String, node: OpaquePointer, lines: [Substring]) -> (line: Int, column: Int) {
        var block: OpaquePointer? = node
        var first = 0, last = 0
        while let current = block, first == 0 {
            first = Int(cmark_node_get_start_line(current))
            last = Int(cmark_node_get_end_line(current))
            block = cmark_node_parent(current)
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

/// Links or images of a Markdown text that cannot be written; callers place them in their file.
public struct MarkdownURLError: Error, Sendable {
    public var problems: [MarkdownRenderer.LinkProblem]

    /// One diagnostic per link, with lines counted from `start` (the Markdown's first line in its
    /// file) and columns from the line's start (from `start`'s column on the first line).
    func diagnostics(from start: SourceLocation, what: String) -> TesseraError {
        diagnostics(what: what) { line, column in
            var location = start.offset(lines: line - 1)
            location.column = line == 1 ? start.column + column - 1 : column
            return location
        }
    }

    /// The same for Markdown held in a YAML value: placed inside its quotes or block.
    func diagnostics(in node: ContentNode, what: String) -> TesseraError {
        diagnostics(what: what) { node.place(ofTextLine: $0, column: $1) }
    }

    private func diagnostics(what: String, place: (Int, Int) -> SourceLocation) -> TesseraError {
        TesseraError(diagnostics: problems.map { problem in
            Diagnostic(.error, problem.message.replacingOccurrences(of: "%@", with: what), at: place(problem.line, problem.column), hint: problem.hint)
        })
    }
}
