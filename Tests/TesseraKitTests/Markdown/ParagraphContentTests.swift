import Foundation
import Testing
@testable import TesseraKit

/// An inline Markdown field's HTML is cmark's paragraph without its `<p>`: found by bytes.
@Suite struct ParagraphContentTests {
    /// What `inlineHTML` did before, by `Character`s: the reference wherever no character joins a
    /// tag's `<` or `>` (a combining mark after `<p>`, a prepended mark before `</p>`).
    static func byCharacters(_ html: String) -> String? {
        var block = html[...]
        while block.utf8.last == 0x0A { block = block.dropLast() }
        while block.utf8.first == 0x0A { block = block.dropFirst() }
        if block.isEmpty { return "" }
        guard block.hasPrefix("<p>"), block.hasSuffix("</p>") else { return nil }
        let inner = block.dropFirst(3).dropLast(4)
        let close = Array("</p>".utf8)
        var matched = 0
        for byte in inner.utf8 {
            matched = byte == close[matched] ? matched + 1 : (byte == close[0] ? 1 : 0)
            if matched == close.count { return nil }
        }
        return String(inner)
    }

    static let pieces = ["<p>", "</p>", "<", "/", "p", ">", "\n", "\r\n", "\r", "a", " ", "é", "e\u{301}", "日本", "👍🏽", "<em>", "</em>", "&amp;", "\"", "</", "p>"]

    @Test func generatedHTMLGivesWhatCharactersGave() {
        var generator = SystemRandomNumberGenerator()
        var compared = 0, paragraphs = 0
        for _ in 0..<20_000 {
            let count = Int.random(in: 0...8, using: &generator)
            var html = (0..<count).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            // Half of them shaped as cmark writes a paragraph.
            if Bool.random(using: &generator) { html = "<p>" + html + "</p>\n" }
            let expected = Self.byCharacters(html)
            #expect(MarkdownRenderer.paragraphContent(html) == expected, "\(html.debugDescription)")
            compared += 1
            if expected != nil { paragraphs += 1 }
        }
        #expect(compared == 20_000 && paragraphs > 2_000, "\(paragraphs) of \(compared) were one paragraph")
    }

    @Test func aParagraphStartingWithACombiningMarkIsInline() throws {
        // By `Character`s, `>` and the mark were one character, so `<p>` was not a prefix.
        #expect(Self.byCharacters("<p>\u{301}a</p>\n") == nil)
        #expect(MarkdownRenderer.paragraphContent("<p>\u{301}a</p>\n") == "\u{301}a")
        #expect(try MarkdownRenderer().inlineHTML("\u{301}*acute* first") == "\u{301}<em>acute</em> first")
        // A prepended mark before `</p>` joined its `<`.
        #expect(MarkdownRenderer.paragraphContent("<p>a\u{600}</p>\n") == "a\u{600}")
    }

    @Test func blocksAndSeveralParagraphsAreNotInline() {
        #expect(MarkdownRenderer.paragraphContent("<p>a</p>\n<p>b</p>\n") == nil)
        #expect(MarkdownRenderer.paragraphContent("<ul>\n<li>a</li>\n</ul>\n") == nil)
        #expect(MarkdownRenderer.paragraphContent("\n\n") == "")
        #expect(MarkdownRenderer.paragraphContent("<p>a</p>\r\n") == "a")
    }
}
