import CAllocation
import CCmarkGFM
import Foundation

/// Hooks' HTML, each standing in the tree for the element it writes as a marker (`\u{7}N\u{8}`,
/// bytes no content holds) until the document is rendered.
struct MarkdownHookOutput {
    private var outputs: [String] = []

    var isEmpty: Bool { outputs.isEmpty }

    /// Keeps `html` and returns its marker.
    mutating func add(_ html: String) -> String {
        outputs.append(html)
        return "\u{7}\(outputs.count - 1)\u{8}"
    }

    /// The HTML with each marker replaced by the HTML it stands for (whose own markers were
    /// replaced when it was made: inner elements are written first). Read as bytes: a page's
    /// HTML is long, and a marker's bytes are ASCII.
    func expanding(_ html: String) -> String {
        guard !outputs.isEmpty else { return html }
        var html = html
        return html.withUTF8 { bytes -> String? in
            guard var open = ByteSearch.firstIndex(of: 0x07, in: bytes) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + outputs.reduce(0) { $0 + $1.utf8.count })
            var start = 0
            while true {
                guard let close = ByteSearch.firstIndex(of: 0x08, in: bytes, from: open) else { break }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<open]))
                var index = 0
                for digit in bytes[(open + 1)..<close] { index = index &* 10 &+ Int(digit &- 0x30) }
                if outputs.indices.contains(index) { out.append(contentsOf: outputs[index].utf8) }
                start = close + 1
                guard let next = ByteSearch.firstIndex(of: 0x07, in: bytes, from: start) else { break }
                open = next
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
            return String(decoding: out, as: UTF8.self)
        } ?? html
    }
}

extension MarkdownRenderer {
    /// What the hooks need of a render besides the nodes.
    struct HookContext {
        var flags: Int32
        var extensions: UnsafeMutablePointer<cmark_llist>?
        /// The text is a paragraph's content: no image is a block.
        var inline = false
        var headings: [OpaquePointer: MarkdownHeading] = [:]
        /// Each image's pixel size and whether it loads lazily.
        var images: [OpaquePointer: (size: ImageSize?, lazy: Bool)] = [:]
        /// The images Tessera made sizes of.
        var pictures: [OpaquePointer: ResponsiveImage] = [:]
    }

    /// The element a hook may write for a node of `type`, when the walk meets it for the last
    /// time (leaving a container, or at a leaf). Code blocks are written apart (`writeCode`).
    static func hookedElement(_ type: cmark_node_type, node: OpaquePointer, leaving: Bool) -> MarkdownHooks.Element? {
        switch type {
        case CMARK_NODE_HEADING where leaving: return .heading
        case CMARK_NODE_LINK where leaving: return .link
        case CMARK_NODE_IMAGE where leaving: return .image
        case CMARK_NODE_BLOCK_QUOTE where leaving: return .blockquote
        default:
            guard leaving, type.rawValue & UInt32(CMARK_NODE_TYPE_MASK) == UInt32(CMARK_NODE_TYPE_BLOCK),
                  let name = cmark_node_get_type_string(node), strcmp(name, "table") == 0 else { return nil }
            return .table
        }
    }

    /// Writes each hooked element with its hook, inner ones first, and puts a marker of its
    /// HTML in its place.
    func apply(_ hooks: MarkdownHooks, to hooked: [(node: OpaquePointer, element: MarkdownHooks.Element)], context: HookContext, output: inout MarkdownHookOutput) throws {
        func render(_ node: OpaquePointer) -> String {
            guard let html = cmark_render_html(node, context.flags, context.extensions) else { return "" }
            return output.expanding(String(cString: html))
        }
        func inner(_ node: OpaquePointer) -> String {
            var html = ""
            var child = cmark_node_first_child(node)
            while let current = child {
                html += render(current)
                child = cmark_node_next(current)
            }
            return html
        }
        // Plain texts before any element is replaced: an image's alt inside a link is its text.
        let plain = hooked.map { $0.element == .link || $0.element == .image ? Self.plainText(of: $0.node) : "" }
        for (index, (node, element)) in hooked.enumerated() {
            var values: [(String, ViewValue)]
            var replaced = node, block = true
            switch element {
            case .heading:
                let heading = context.headings[node]
                values = [
                    ("level", .number(Double(cmark_node_get_heading_level(node)))), ("id", .string(heading?.id ?? "")),
                    ("text", .string(heading?.text ?? Self.plainText(of: node))), ("html", .string(inner(node))),
                ]
            case .link:
                let url = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                values = [
                    ("url", .string(url)), ("title", Self.title(of: node)), ("text", .string(plain[index])), ("html", .string(inner(node))), ("external", .bool(Self.isWeb(url))),
                ]
                block = false
            case .image:
                let src = cmark_node_get_url(node).map { String(cString: $0) } ?? ""
                let image = context.images[node]
                let parent = cmark_node_parent(node)
                // Alone in its paragraph, the image is the block: a hook may write a figure.
                let isBlock = !context.inline && parent.map { cmark_node_get_type($0) == CMARK_NODE_PARAGRAPH && cmark_node_first_child($0) == node && cmark_node_last_child($0) == node } ?? false
                values = [
                    ("src", .string(src)), ("alt", .string(plain[index])), ("html", .string(MarkdownImages.insertingAttributes(into: render(node)))),
                    ("title", Self.title(of: node)),
                    ("width", image?.size.map { .number(Double($0.width)) } ?? .null), ("height", image?.size.map { .number(Double($0.height)) } ?? .null),
                    ("lazy", .bool(image?.lazy ?? false)), ("isBlock", .bool(isBlock)), ("external", .bool(Self.isWeb(src))),
                ] + ResponsiveImage.unprocessedParts(url: src, sizes: nil)
                if let picture = context.pictures[node] {
                    // The `<picture>`, and the parts of an image field, in place of libcmark's `<img>`.
                    let html = picture.pictureHTML(alt: plain[index], title: Self.titleText(of: node), lazy: image?.lazy ?? true, sizes: picture.request.sizes ?? "100vw")
                    values = [("src", .string(picture.src)), ("alt", .string(plain[index])), ("html", .string(html)), ("title", Self.title(of: node)),
                              ("lazy", .bool(image?.lazy ?? false)), ("isBlock", .bool(isBlock)), ("external", .bool(false))]
                        + picture.viewParts
                }
                if isBlock, let parent { replaced = parent } else { block = false }
            case .codeblock:
                continue
            case .blockquote:
                let alert = Self.takeAlert(from: node)
                values = [
                    ("alert", alert.map { type in .object(ViewObject([("type", .string(type))] + MarkdownHooks.alerts.map { ($0, .bool($0 == type)) })) } ?? .null),
                    ("html", .string(inner(node))),
                ]
            case .table:
                values = [("html", .string(render(node))), ("columns", .number(Double(Self.columns(of: node))))]
            }
            var html = try hooks.render(element, values)
            // A hook ends where its template does, not at the file's last line break (libcmark
            // writes one after each block).
            if html.hasSuffix("\n") { html.removeLast() }
            Self.replace(replaced, with: output.add(html), block: block)
        }
    }

    /// The column of the first character after column `start` of line `line` that is not a
    /// space or a tab (columns count Unicode scalars from 1), read as bytes.
    static func column(after start: Int, onLine line: Int, of markdown: String) -> Int {
        var column = start
        var current = 1, scalar = 1
        for byte in markdown.utf8 {
            if current < line {
                if byte == 0x0A { current += 1 }
                continue
            }
            if byte == 0x0A || current > line { break }
            guard byte & 0xC0 != 0x80 else { continue }
            if scalar >= start {
                guard byte == 0x20 || byte == 0x09 else { break }
                column += 1
            }
            scalar += 1
        }
        return column
    }

    /// Puts `marker` in `node`'s place: a block of its own, or text in a paragraph.
    static func replace(_ node: OpaquePointer, with marker: String, block: Bool) {
        guard let standIn = cmark_node_new_with_mem(block ? CMARK_NODE_CUSTOM_BLOCK : CMARK_NODE_TEXT, tessera_markdown_allocator().assumingMemoryBound(to: cmark_mem.self)) else { return }
        marker.withCString { _ = block ? cmark_node_set_on_enter(standIn, $0) : cmark_node_set_literal(standIn, $0) }
        if cmark_node_insert_before(node, standIn) != 0 { cmark_node_unlink(node) }
    }

    /// Writes each code block: highlighted, through the `codeblock` hook when the theme has one,
    /// and in a page's body (`inBody`) taken out as a block of its own (`Rendering.code`, for the
    /// page JSON's `code` blocks) with a marker where it goes. The fence's problems and an
    /// unknown language are warnings at the fence's line.
    func writeCode(_ nodes: [OpaquePointer], markdown: String, inBody: Bool, output: inout MarkdownHookOutput, into result: inout Rendering) throws {
        for node in nodes {
            var length: Int32 = 0, offset: Int32 = 0, character: CChar = 0
            let fenced = cmark_node_get_fenced(node, &length, &offset, &character) != 0
            let info = fenced ? cmark_node_get_fence_info(node).map { String(cString: $0) } ?? "" : ""
            let code = cmark_node_get_literal(node).map { String(cString: $0) } ?? ""
            let line = Int(cmark_node_get_start_line(node))
            // The info string's column (after the fence's characters and the spaces that follow),
            // found only for a warning.
            let fenceEnd = Int(cmark_node_get_start_column(node)) + Int(length)
            let column = { Self.column(after: fenceEnd, onLine: line, of: markdown) }
            let block = highlight(code, info: CodeFenceInfo(info), line: line, column: column, into: &result)
            let codeHTML = block.codeHTML()
            var html = block.html(code: codeHTML)
            if let hooks, hooks.has(.codeblock) {
                let values = CodeBlockHook.values(of: block, info: info, html: html, codeHTML: codeHTML, lines: hooks.reads("lines", in: .codeblock), tokens: hooks.reads("tokens", in: .codeblock))
                html = try hooks.render(.codeblock, values)
            }
            // A block ends where its HTML does: its marker's line ends it as libcmark ends a block.
            if html.hasSuffix("\n") { html.removeLast() }
            if inBody {
                result.code.append(RenderedCode(block: block, html: html))
                Self.replace(node, with: MarkdownComponents.codeMarker(result.code.count - 1), block: true)
            } else {
                Self.replace(node, with: output.add(html), block: true)
            }
        }
    }

    /// A link's or image's title; null when it has none.
    /// An image's title holds its attributes' marker first (`MarkdownImages`): it is left out.
    private static func title(of node: OpaquePointer) -> ViewValue {
        .optional(titleText(of: node))
    }

    static func titleText(of node: OpaquePointer) -> String? {
        guard let pointer = cmark_node_get_title(node) else { return nil }
        var title = String(cString: pointer)
        if title.hasPrefix("\u{3}"), let end = title.firstIndex(of: "\u{4}") { title = String(title[title.index(after: end)...]) }
        return title.isEmpty ? nil : title
    }

    /// An address on the web, not on the site: `https://…`, `http://…`, `//…`.
    static func isWeb(_ url: String) -> Bool {
        url.hasPrefix("https://") || url.hasPrefix("http://") || url.hasPrefix("//")
    }

    /// The number of cells in a table's first row.
    private static func columns(of table: OpaquePointer) -> Int {
        var count = 0
        var cell = cmark_node_first_child(table).flatMap { cmark_node_first_child($0) }
        while let current = cell {
            count += 1
            cell = cmark_node_next(current)
        }
        return count
    }

    /// A GitHub alert's type when the blockquote's first line is `[!NOTE]` (or another), taken
    /// out of its text with the line break after it; nil, and the text as it was, otherwise.
    private static func takeAlert(from blockquote: OpaquePointer) -> String? {
        guard let paragraph = cmark_node_first_child(blockquote), cmark_node_get_type(paragraph) == CMARK_NODE_PARAGRAPH else { return nil }
        var line: [OpaquePointer] = []
        var written = ""
        var child = cmark_node_first_child(paragraph)
        while let current = child {
            let type = cmark_node_get_type(current)
            if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK { break }
            guard type == CMARK_NODE_TEXT, let literal = cmark_node_get_literal(current) else { return nil }
            written += String(cString: literal)
            line.append(current)
            child = cmark_node_next(current)
        }
        guard let alert = MarkdownHooks.alert(inFirstLine: written) else { return nil }
        if let lineBreak = child { line.append(lineBreak) }
        for node in line { cmark_node_unlink(node) }
        if cmark_node_first_child(paragraph) == nil { cmark_node_unlink(paragraph) }
        return alert
    }
}
