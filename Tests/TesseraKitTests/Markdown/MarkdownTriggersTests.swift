import Foundation
import Testing
@testable import TesseraKit

/// A parse skips the extensions' work its text cannot need (autolinks without `www.`, `://` or
/// `@`, footnotes without `[^`, stopping at every `w` without a linkable `www.`); generated
/// Markdown must come out as cmark-gfm makes it with all of that work done.
@Suite struct MarkdownTriggersTests {
    static let pieces = ["www.a.co", "www.", "www", "Www.b.co", "WWW.c.co", " ", " ", "\n", "\n\n", "> ", "- ", "* ", "1. ", "| ", " |", "\n|---|\n",
                         "[^1]", "\n\n[^1]: ", "[^1]:", "https://x.yz/p", "http:", "//", ":", "a@b.co", "@", "&#65;", "&amp;", "[x](/y)", "<https://a.b>",
                         "~~", "~", "*", "_", "(", ")", "=", "/", ".", "-", "'", "\"", "word", "w", "ww", "é", "\\", "`", "#", "# ", "![i](/i.png)",
                         "\n===", "\n---", "\n -  ", "\n=\t", "\n> ---", "\n  - a\n  ---"]
    static let cases = ProcessInfo.processInfo.environment["TESSERA_MARKDOWN_TRIGGER_CASES"].flatMap(Int.init) ?? 3_000

    @Test func skippedWorkChangesNothing() {
        let renderers = [MarkdownRenderer(), MarkdownRenderer(options: .init(smart: false, unsafe: true)),
                         MarkdownRenderer(options: .init(autolinks: false, footnotes: false))]
        var random = SeededGenerator(seed: 9)
        var linked = 0, noted = 0, headed = 0
        for _ in 0..<Self.cases {
            var text = ""
            for _ in 0..<Int.random(in: 1...12, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            for renderer in renderers {
                let rendered = renderer.render(text).html
                // Every heading has its id: the walk that gives them never skipped one.
                if rendered.range(of: #"<h[1-6]>"#, options: .regularExpression) != nil {
                    Issue.record("\(text.debugDescription) with \(renderer.options): a heading without an id in \(rendered.debugDescription)")
                    return
                }
                if rendered.contains("<h") { headed += 1 }
                let html = MarkdownArenaTests.withoutHeadingIDs(rendered)
                if html.contains("href=\"http://www.") { linked += 1 }
                if html.contains("footnote-ref") { noted += 1 }
                let expected = MarkdownArenaTests.withMalloc(text, renderer: renderer)
                if html != expected {
                    Issue.record("\(text.debugDescription) with \(renderer.options): \(html.debugDescription), cmark-gfm \(expected.debugDescription)")
                    return
                }
            }
        }
        // The generator reaches what the skipped work makes.
        #expect(linked > Self.cases / 20 && noted > Self.cases / 50 && headed > Self.cases / 20, "\(linked) www links, \(noted) footnotes, \(headed) headings")
    }

    @Test func flags() {
        #expect(MarkdownTriggers("see www.a.b").linkableWWW && MarkdownTriggers("www.a.b").linkableWWW && MarkdownTriggers("|www.a.b|").linkableWWW)
        #expect(MarkdownTriggers("(*www.a.b*)").linkableWWW && MarkdownTriggers("[^1]:www.a.b").linkableWWW && MarkdownTriggers(">www.a.b").linkableWWW)
        let url = MarkdownTriggers("[a](https://www.a.b/x) and a.www.b")
        #expect(!url.linkableWWW && url.autolinks && url.walk && !url.footnotes)
        let plain = MarkdownTriggers("Plain *words* with w and ww and www, ~~struck~~ -- \"quoted\".")
        #expect(!plain.autolinks && !plain.linkableWWW && !plain.footnotes && !plain.walk)
        #expect(MarkdownTriggers("a@b").autolinks && MarkdownTriggers("x[^1]").footnotes && MarkdownTriggers("&#1;").walk && MarkdownTriggers("<b>").walk)
    }
}
