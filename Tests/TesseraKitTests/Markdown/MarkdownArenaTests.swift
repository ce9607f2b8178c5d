import CAllocation
import CCmarkGFM
import CMarkdownExtensions
import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// cmark-gfm allocates from a per-thread arena, its extensions' tables, cells and footnotes
/// included; the HTML must be what cmark-gfm makes with malloc and the same extensions.
@Suite struct MarkdownArenaTests {
    static func sample(_ seed: Int, paragraphs: Int) -> String {
        var text = "# Heading \(seed)\n\n"
        for index in 0..<paragraphs {
            switch (seed + index) % 9 {
            case 0: text += "Some *emphasis*, **strong**, `code` and [a link](https://example.com/\(index)) in paragraph \(index).\n\n"
            case 1: text += "- item \(index)\n- item with [ref][r\(index)]\n  - nested `x`\n\n[r\(index)]: /ref/\(index) \"Title\"\n\n"
            case 2: text += "```swift\nlet value = \(index)\nprint(value) // <&>\n```\n\n"
            case 3: text += "> quoted \(index)\n> > deeper \"text\" -- with ... dashes\n\n"
            case 4: text += "1. one\n2. two ![image](/img/\(index).png)\n\n| not | a table |\n\n"
            case 5: text += "| name | value \(index) |\n|:--|--:|\n| `a \\| b` | *x* |\n| www.example.com/\(index) | ~~old~~ |\n| short |\n\n"
            case 6: text += "Note[^n\(index)] and mail me@example.com or https://example.org/\(index).\n\n[^n\(index)]: A footnote with [a link](/x/\(index)).\n\n"
            case 7: text += "- [ ] open \(index)\n- [x] done ~struck~\n  - [ ] nested\n\n"
            default: text += String(repeating: "Word\(index) ", count: 200) + "\n\n"
            }
        }
        return text
    }

    /// What cmark-gfm makes with malloc: its own parser, the same options and extensions, all of
    /// them attached and stopping at every byte they read (`w` included), whatever the text.
    static func withMalloc(_ markdown: String, renderer: MarkdownRenderer) -> String {
        let flags = renderer.cmarkOptions
        guard let parser = cmark_parser_new(flags) else { return "" }
        defer { cmark_parser_free(parser) }
        for syntax in renderer.syntaxExtensions { cmark_parser_attach_syntax_extension(parser, syntax) }
        cmark_parser_feed(parser, markdown, markdown.utf8.count)
        tessera_markdown_inlines_begin(true)
        let finished = cmark_parser_finish(parser)
        tessera_markdown_inlines_end(true)
        guard let document = finished else { return "" }
        defer { cmark_node_free(document) }
        guard let output = cmark_render_html(document, flags, cmark_parser_get_syntax_extensions(parser)) else { return "" }
        defer { free(output) }
        return String(cString: output)
    }

    /// Tessera's HTML without the ids it gives headings, which cmark-gfm alone does not.
    static func withoutHeadingIDs(_ html: String) -> String {
        html.replacingOccurrences(of: #"<h([1-6]) id="[^"]*">"#, with: "<h$1>", options: .regularExpression)
    }

    @Test func htmlIsWhatCmarkMakesWithMallocOnEveryThread() throws {
        // Small texts, and large ones whose trees and HTML outgrow the first block many times.
        let texts = (0..<48).map { Self.sample($0, paragraphs: $0 % 8 == 0 ? 3_000 : 1 + $0 * 7) } + ["", "plain", "\n\n\n"]
        let renderer = MarkdownRenderer(options: .init(smart: true))
        let results = Mutex<[Int: String]>([:])
        DispatchQueue.concurrentPerform(iterations: texts.count) { index in
            let html = (try? renderer.html(texts[index])) ?? "<failed>"
            results.withLock { $0[index] = html }
        }
        let rendered = results.withLock { $0 }
        for (index, text) in texts.enumerated() {
            #expect(rendered[index].map(Self.withoutHeadingIDs) == Self.withMalloc(text, renderer: renderer), "text \(index) of \(text.utf8.count) bytes")
        }
        #expect(rendered[0]!.utf8.count > 500_000)
        #expect(rendered[5]!.contains("<table>") && rendered[6]!.contains("data-footnotes") && rendered[7]!.contains("type=\"checkbox\""))
    }

    @Test func aLargeTextsBlocksAreLetGoAfterItsRender() throws {
        let large = Self.sample(5, paragraphs: 4_000)
        #expect(large.utf8.count > 1_000_000)
        let html = try MarkdownRenderer().html(large)
        #expect(html.hasPrefix("<h1 id=\"heading-5\">Heading 5</h1>"))
        // Only the modest first block is kept for the next text on this thread.
        #expect(tessera_markdown_arena_capacity() <= 256 * 1024)
        #expect(try MarkdownRenderer().html("*again*") == "<p><em>again</em></p>\n")
    }
}
