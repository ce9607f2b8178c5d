import CAllocation
import CCmarkGFM
import Foundation

/// Heading ids: each heading's `{#custom-id}` or slug, checked and moved into its tag.
extension MarkdownRenderer {
    /// Each heading's id and text: a `{#custom-id}` at its end is taken out of its text, and a
    /// marker (`\u{1}id\u{2}`, bytes no rendered text holds: control characters are refused in
    /// content) is put first in it, for `insertingIDs` to move into the element's tag.
    func identify(_ nodes: [OpaquePointer], markdown: String, footnotes: Bool, markIDs: Bool, problems: inout [LinkProblem]) -> [MarkdownHeading] {
        var customs: [String?] = [], slugs: [String] = [], texts: [String] = [], levels: [Int] = []
        var customAt: [String: Int] = [:]
        for node in nodes {
            var custom: String?
            if let id = Self.takeCustomID(from: node) {
                let line = Int(cmark_node_get_end_line(node)), start = Int(cmark_node_get_start_line(node))
                let column = Self.column(of: "{#", onLinesFrom: start, to: line, in: markdown)
                switch id {
                case .success(let id) where customAt[id] != nil:
                    problems.append(LinkProblem(url: "", line: column.line, column: column.column,
                                                message: "two headings of %@ have the id '\(id)'", hint: "give one of them another {#id}; the other is at line \(customAt[id] ?? 0)"))
                case .success(let id):
                    custom = id
                    customAt[id] = column.line
                case .failure(let problem):
                    problems.append(LinkProblem(url: "", line: column.line, column: column.column,
                                                message: "broken heading id {#\(problem.id)} in %@: \(problem.reason)", hint: "write {#an-id}: letters, digits, '-', '_', ':' or '.'"))
                }
            }
            let text = Self.plainText(of: node)
            customs.append(custom)
            slugs.append(custom == nil ? HeadingIDs.slug(text) : "")
            texts.append(text)
            levels.append(Int(cmark_node_get_heading_level(node)))
        }
        let ids = HeadingIDs.assign(slugs: slugs, custom: customs, reservingFootnotes: footnotes)
        for (node, id) in zip(nodes, ids) where markIDs {
            guard let marker = cmark_node_new_with_mem(CMARK_NODE_CUSTOM_INLINE, tessera_markdown_allocator().assumingMemoryBound(to: cmark_mem.self)) else { continue }
            ("\u{1}" + id + "\u{2}").withCString { _ = cmark_node_set_on_enter(marker, $0) }
            cmark_node_prepend_child(node, marker)
        }
        return nodes.indices.map { MarkdownHeading(level: levels[$0], text: texts[$0], id: ids[$0], line: Int(cmark_node_get_start_line(nodes[$0]))) }
    }

    /// A `{#custom-id}` ending the heading's text, taken out of it: the text nodes it spans
    /// (smart punctuation and autolinks split text at `-`, `.` and `:`) are joined and cut.
    private static func takeCustomID(from heading: OpaquePointer) -> Result<String, HeadingIDs.IDProblem>? {
        var run: [OpaquePointer] = []
        var current = cmark_node_last_child(heading)
        while let node = current, cmark_node_get_type(node) == CMARK_NODE_TEXT {
            run.insert(node, at: 0)
            current = cmark_node_previous(node)
        }
        guard let first = run.first else { return nil }
        let joined = run.map { cmark_node_get_literal($0).map { String(cString: $0) } ?? "" }.joined()
        guard let (rest, id) = HeadingIDs.custom(in: joined) else { return nil }
        rest.withCString { _ = cmark_node_set_literal(first, $0) }
        for node in run.dropFirst() { cmark_node_free(node) }
        return id
    }

    /// A heading's text as plain text: its text and code, a space for each line break.
    static func plainText(of heading: OpaquePointer) -> String {
        var text = ""
        guard let iterator = cmark_iter_new(heading) else { return text }
        defer { cmark_iter_free(iterator) }
        while cmark_iter_next(iterator) != CMARK_EVENT_DONE {
            guard let node = cmark_iter_get_node(iterator), cmark_iter_get_event_type(iterator) == CMARK_EVENT_ENTER else { continue }
            let type = cmark_node_get_type(node)
            if type == CMARK_NODE_TEXT || type == CMARK_NODE_CODE, let literal = cmark_node_get_literal(node) {
                text += String(cString: literal)
            } else if type == CMARK_NODE_SOFTBREAK || type == CMARK_NODE_LINEBREAK {
                text += " "
            }
        }
        return text.trimmingWhitespaces()
    }

    /// Where `needle` is last written on lines `first`…`last` of the text (1-based), or the
    /// start of `first`.
    private static func column(of needle: String, onLinesFrom first: Int, to last: Int, in markdown: String) -> (line: Int, column: Int) {
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false)
        for number in stride(from: min(max(last, first), lines.count), through: max(first, 1), by: -1) {
            let text = lines[number - 1]
            if let range = text.range(of: needle, options: .backwards) {
                return (number, text.distance(from: text.startIndex, to: range.lowerBound) + 1)
            }
        }
        return (max(first, 1), 1)
    }

    /// The HTML with each heading's marker moved into its tag: `<h2>\u{1}setup\u{2}Setup` →
    /// `<h2 id="setup">Setup`.
    static func insertingIDs(into html: String, count: Int) -> String {
        var html = html
        return html.withUTF8 { bytes -> String in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + count * 8)
            var start = 0
            while let marker = ByteSearch.firstIndex(of: 0x01, in: bytes, from: start), let end = ByteSearch.firstIndex(of: 0x02, in: bytes, from: marker) {
                // The marker is the heading's first child: right after its tag's `>`.
                let tagEnd = marker > start && bytes[marker - 1] == UInt8(ascii: ">") ? marker - 1 : marker
                out.append(contentsOf: bytes[start..<tagEnd])
                if tagEnd < marker {
                    out.append(contentsOf: Array(" id=\"".utf8))
                    out.append(contentsOf: bytes[(marker + 1)..<end])
                    out.append(contentsOf: Array("\">".utf8))
                }
                start = end + 1
            }
            out.append(contentsOf: bytes[start...])
            return String(decoding: out, as: UTF8.self)
        }
    }
}
