import CAllocation
import CCmarkGFM
import CMarkdownExtensions
import Foundation

/// Markdown to HTML through GitHub's libcmark-gfm: CommonMark with pipe tables, strikethrough,
/// autolinks, task lists and footnotes, each of which the site can turn off. The C library is
/// touched here and in the renderer's extensions (+Headings, +Hooks), `MarkdownComponents` and
/// ControlCharacters+Markdown.swift, which reads its nodes.
public struct MarkdownRenderer: Sendable {
    public var options: SiteConfiguration.MarkdownOptions
    /// The theme's render hooks; nil: every element as libcmark writes it.
    public var hooks: MarkdownHooks?
    /// What colours code blocks; nil: code is written plain.
    public var highlighter: CodeHighlighter?

    public init(options: SiteConfiguration.MarkdownOptions = .init(), hooks: MarkdownHooks? = nil, highlighter: CodeHighlighter? = nil) {
        self.options = options
        self.hooks = hooks
        self.highlighter = highlighter
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
        /// Where links to a page's ids (`#setup`, `@/guide.md#setup`) are recorded, placed in
        /// their file by `origin`, for `FragmentCheck`; and the text's warnings.
        var recorder: MarkdownRecorder?
        var origin: MarkdownRecorder.Origin?
        /// What makes the sizes of the text's images; nil: they are written as they are.
        var images: ImageProcessor?

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
        try document(markdown, links: links).html
    }

    /// The HTML and the headings, each with the id its element has: `{#custom-id}` written at
    /// its end, else GitHub's slug of its text, unique in the text. Throws `MarkdownURLError`
    /// for refused URLs, broken internal targets, broken `{#id}`s and two headings of one id.
    /// With `components`, fenced blocks of info string `component` are taken out of the text
    /// (`MarkdownComponents`); without, they are an error. With `components`, code blocks are
    /// taken out of the text too, each a marker of its own (`MarkdownDocument.code`).
    public func document(_ markdown: String, links: Links? = nil, components: Bool = false) throws -> MarkdownDocument {
        let rendering = render(markdown, links: links, components: components)
        if !rendering.problems.isEmpty { throw MarkdownURLError(problems: rendering.problems) }
        if let error = rendering.hookError { throw error }
        return MarkdownDocument(html: rendering.html, headings: rendering.headings, components: rendering.components, code: rendering.code)
    }

    /// Inline HTML: one paragraph without its `<p>`, for titles and one-line messages.
    /// Returns nil when the Markdown is more than one paragraph.
    public func inlineHTML(_ markdown: String, links: Links? = nil) throws -> String? {
        if let plain = plainInline(markdown) { return plain }
        // An image alone is inline here: its hook writes no block.
        let rendering = render(markdown, links: links, inline: true)
        if !rendering.problems.isEmpty { throw MarkdownURLError(problems: rendering.problems) }
        if let error = rendering.hookError { throw error }
        return Self.paragraphContent(rendering.html)
    }

    /// The content of `html` when it is one paragraph (`<p>…</p>`, line breaks around it), ""
    /// when it is empty, nil otherwise. By bytes: the tags are ASCII, and read as `Character`s a
    /// paragraph starting with a combining mark (`<p>\u{301}…`) had no `<p>` prefix.
    private static let paragraphClose = Array("</p>".utf8)

    static func paragraphContent(_ html: String) -> String? {
        let utf8 = html.utf8
        var start = utf8.startIndex, end = utf8.endIndex
        // Line breaks around it: `\n`, and at the end `\r\n` (a raw HTML block keeps its own).
        while start < end, utf8[utf8.index(before: end)] == 0x0A {
            end = utf8.index(before: end)
            if start < end, utf8[utf8.index(before: end)] == 0x0D { end = utf8.index(before: end) }
        }
        while start < end, utf8[start] == 0x0A { start = utf8.index(after: start) }
        if start == end { return "" }
        let block = utf8[start..<end]
        guard block.count >= 7, block.starts(with: "<p>".utf8), block.suffix(4).elementsEqual("</p>".utf8) else { return nil }
        let inner = block.dropFirst(3).dropLast(4)
        // One paragraph: no other `</p>` inside.
        let close = Self.paragraphClose
        var matched = 0
        for byte in inner {
            matched = byte == close[matched] ? matched + 1 : (byte == close[0] ? 1 : 0)
            if matched == close.count { return nil }
        }
        return String(Substring(inner))
    }

    /// Parses once, checks and resolves every link and image URL, gives headings their ids,
    /// takes out the components placed in the text (with `components`), writes the elements
    /// the theme has hooks for with them, renders.
    /// `inline`: the text is one paragraph's content (an `inline-markdown` field): no image
    /// is a block of its own.
    func render(_ markdown: String, links: Links? = nil, components: Bool = false, inline: Bool = false) -> Rendering {
        // Everything cmark allocates comes from this thread's arena and goes at once when the
        // render is done (a bump each instead of a malloc and a free per node and buffer), the
        // extensions' tables, cells and footnote lists included: they allocate through the
        // parser's allocator. Nothing cmark returned outlives this function: URLs and the HTML
        // are copied out.
        var result = Rendering()
        let triggers = MarkdownTriggers(markdown)
        let autolinks = options.autolinks && triggers.autolinks
        var flags = cmarkOptions
        if !triggers.footnotes { flags &= ~CMARK_OPT_FOOTNOTES }
        guard let parser = cmark_parser_new_with_mem(flags, tessera_markdown_allocator().assumingMemoryBound(to: cmark_mem.self)) else { return result }
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
        guard let document = finished else { return result }
        var problems: [LinkProblem] = []
        var lines: [Substring]?
        // A numeric character reference (`&#1;`) is the one way Markdown makes a control character
        // that its text does not hold; cmark decodes it into a text node.
        var references = triggers.walk && ByteSearch.contains("&#", in: markdown)
        var headingNodes: [OpaquePointer] = []
        // Images of a page's Markdown, in order, with their pixel size when their file tells it.
        var images: [(node: OpaquePointer, size: ImageSize?)] = []
        // Those Tessera made sizes of, written as `<picture>`s.
        var pictures: [OpaquePointer: ResponsiveImage] = [:]
        // Elements the theme's hooks write, inner ones first (each when the walk leaves it).
        var hooked: [(node: OpaquePointer, element: MarkdownHooks.Element)] = []
        var fences: [OpaquePointer] = []
        // Code blocks Tessera writes itself: highlighted, through the hook, or placed as blocks of the body.
        var codeNodes: [OpaquePointer] = []
        let hooks = self.hooks
        let writesCode = triggers.code && (highlighter != nil || components || hooks?.has(.codeblock) == true)
        // A hook's element may be in the text.
        let hooksWalk = hooks.map { hooks in
            (hooks.has(.blockquote) && triggers.quotes) || (hooks.has(.table) && triggers.pipes)
        } ?? false
        if triggers.walk || autolinks || triggers.headings || triggers.components || hooksWalk || writesCode, let iterator = cmark_iter_new(document) {
            defer { cmark_iter_free(iterator) }
            while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
                guard let node = cmark_iter_get_node(iterator) else { continue }
                let type = cmark_node_get_type(node)
                let leaving = cmark_iter_get_event_type(iterator) == CMARK_EVENT_EXIT
                if let hooks, let element = Self.hookedElement(type, node: node, leaving: leaving), hooks.has(element) {
                    hooked.append((node, element))
                }
                if type == CMARK_NODE_HEADING, leaving {
                    headingNodes.append(node)
                    continue
                }
                if type == CMARK_NODE_CODE_BLOCK {
                    if triggers.components, MarkdownComponents.isFence(node) {
                        fences.append(node)
                        continue
                    }
                    if writesCode { codeNodes.append(node) }
                }
                if references, type == CMARK_NODE_TEXT || type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE || type == CMARK_NODE_CODE_BLOCK,
                   let problem = ControlCharacters.decodedReference(in: node, markdown: markdown) {
                    problems.append(LinkProblem(url: "", line: problem.line, column: problem.column, message: problem.message, hint: "delete the reference"))
                    references = false
                }
                guard type == CMARK_NODE_LINK || type == CMARK_NODE_IMAGE, !leaving, let pointer = cmark_node_get_url(node) else { continue }
                let url = String(cString: pointer)
                let isImage = type == CMARK_NODE_IMAGE
                var problem: (message: String, hint: String?)?
                if let reason = URLSafety.problem(with: url, isImage: isImage) {
                    problem = ("refused URL in %@: \(reason)", "link to a page, a file or an http(s) address; `\(url.prefix(40))` is not allowed")
                } else if let links, url.hasPrefix("#") {
                    if let recorder = links.recorder, let origin = links.origin, let id = LinkResolver.fragment(of: url) {
                        if lines == nil { lines = markdown.split(separator: "\n", omittingEmptySubsequences: false) }
                        let (line, column) = Self.position(of: url, node: node, lines: lines ?? [])
                        recorder.record(.init(page: links.pageURL, id: id), at: origin.place(line: line, column: column))
                    }
                } else if let links, !url.isEmpty {
                    do {
                        let resolved = try links.resolver.resolve(url, from: links.pageURL, filesOnly: isImage)
                        if resolved.url != url { resolved.url.withCString { _ = cmark_node_set_url(node, $0) } }
                        if let target = resolved.fragmentTarget, let recorder = links.recorder, let origin = links.origin {
                            if lines == nil { lines = markdown.split(separator: "\n", omittingEmptySubsequences: false) }
                            let (line, column) = Self.position(of: url, node: node, lines: lines ?? [])
                            recorder.record(target, at: origin.place(line: line, column: column))
                        }
                        if isImage, let processor = links.images, let file = links.resolver.sourceFile(of: resolved.url), ImageFormat.isImagePath(file.relative) {
                            var reference: SourceLocation?
                            if let origin = links.origin {
                                if lines == nil { lines = markdown.split(separator: "\n", omittingEmptySubsequences: false) }
                                let (line, column) = Self.position(of: url, node: node, lines: lines ?? [])
                                reference = origin.place(line: line, column: column)
                            }
                            let image = try processor.image(
                                at: file.source, relative: file.relative, url: resolved.url, request: ImageRequest(sizes: processor.options.sizes), reference: reference)
                            links.recorder?.recordImage(image)
                            if image.fallback != nil { pictures[node] = image }
                            images.append((node, image.width > 0 && image.height > 0 ? ImageSize(width: image.width, height: image.height) : nil))
                        } else if isImage {
                            images.append((node, links.resolver.imageSize(of: resolved.url)))
                        }
                    } catch let failure as ImageCodec.Failure {
                        problem = ("broken image in %@: \(url): \(failure)", failure.hint)
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
        if !fences.isEmpty {
            if components {
                result.components = MarkdownComponents.takeOut(fences)
            } else {
                for fence in fences {
                    problems.append(LinkProblem(
                        url: "", line: Int(cmark_node_get_start_line(fence)), column: Int(cmark_node_get_start_column(fence)),
                        message: "a component is placed in %@, which is not a page's body",
                        hint: "place components in a page's Markdown body or in its sections; to show the fence as code, give it another info string"))
                }
            }
        }
        let hooksImages = hooks?.has(.image) == true
        // Every image but the text's first loads lazily.
        let lazy = Dictionary(uniqueKeysWithValues: images.enumerated().map { ($0.element.node, $0.offset > 0) })
        let imagesMarked = Self.mark(images.filter { pictures[$0.node] == nil }, lazy: lazy)
        let headings = headingNodes.isEmpty ? [] : identify(
            headingNodes, markdown: markdown, footnotes: triggers.footnotes && options.footnotes, markIDs: hooks?.has(.heading) != true, problems: &problems)
        var hookOutput = MarkdownHookOutput()
        if !hooksImages {
            for (node, image) in pictures {
                let html = image.pictureHTML(alt: Self.plainText(of: node), title: Self.titleText(of: node), lazy: lazy[node] ?? true, sizes: image.request.sizes ?? "100vw")
                Self.replace(node, with: hookOutput.add(html), block: false)
            }
        }
        if !codeNodes.isEmpty {
            do {
                try writeCode(codeNodes, markdown: markdown, inBody: components, output: &hookOutput, into: &result)
            } catch {
                result.hookError = error
            }
        }
        if let hooks, !hooked.isEmpty {
            var context = HookContext(flags: flags, extensions: cmark_parser_get_syntax_extensions(parser), inline: inline)
            context.headings = Dictionary(zip(headingNodes, headings), uniquingKeysWith: { first, _ in first })
            if hooksImages {
                for image in images { context.images[image.node] = (image.size, lazy[image.node] ?? true) }
                context.pictures = pictures
            }
            do {
                try apply(hooks, to: hooked, context: context, output: &hookOutput)
            } catch {
                result.hookError = error
            }
        }
        result.problems = problems
        result.headings = headings
        // The extensions' list: the tag filter, were it on, works at render time.
        guard let output = cmark_render_html(document, flags, cmark_parser_get_syntax_extensions(parser)) else { return result }
        // Hooks' HTML first: the ids and image attributes it holds are moved into place with the rest.
        var html = hookOutput.expanding(String(cString: output))
        if !headings.isEmpty && hooks?.has(.heading) != true { html = Self.insertingIDs(into: html, count: headings.count) }
        if imagesMarked { html = MarkdownImages.insertingAttributes(into: html) }
        result.html = html
        if let recorder = links?.recorder, let origin = links?.origin {
            for warning in result.warnings {
                recorder.warn(Diagnostic(.warning, warning.message, at: origin.place(line: warning.line, column: warning.column), hint: warning.hint))
            }
            if result.unhighlighted { recorder.markUnhighlighted() }
        }
        return result
    }

    /// What one render makes.
    struct Rendering {
        var html = ""
        var problems: [LinkProblem] = []
        var headings: [MarkdownHeading] = []
        /// Components placed in the text, in order; `MarkdownComponents.marker` stands for each in `html`.
        var components: [MarkdownComponents.Placed] = []
        /// A hook that failed to render (its template's error).
        var hookError: Error?
        /// Code blocks taken out of the text (with `components`), in order; a marker of
        /// `MarkdownComponents.codeMarker` stands for each in `html`.
        var code: [RenderedCode] = []
        /// What the text should say otherwise: an unknown language, an option the fence misspells.
        var warnings: [LinkProblem] = []
        /// A block had a language and no engine coloured it (the build says so once).
        var unhighlighted = false
    }

    /// Puts each image's extra attributes into its title, behind a marker (`\u{3}` spec `\u{4}`,
    /// bytes no content holds; the title is escaped by cmark, so the spec has no quotes), for
    /// `MarkdownImages.insertingAttributes` to move after it: its size, and `loading="lazy"`
    /// for every image but the text's first. Whether any was marked.
    private static func mark(_ images: [(node: OpaquePointer, size: ImageSize?)], lazy: [OpaquePointer: Bool]) -> Bool {
        for image in images {
            let title = cmark_node_get_title(image.node).map { String(cString: $0) } ?? ""
            let spec = MarkdownImages.spec(size: image.size, lazy: lazy[image.node] ?? true)
            ("\u{3}" + spec + "\u{4}" + title).withCString { _ = cmark_node_set_title(image.node, $0) }
        }
        return !images.isEmpty
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
