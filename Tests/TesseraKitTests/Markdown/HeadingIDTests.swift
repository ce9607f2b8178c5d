import Foundation
import Testing
@testable import TesseraKit

/// Every heading of Markdown gets an id a link's `#fragment` can name: GitHub's slug of its text,
/// unique in the text, or the `{#custom-id}` written at its end; the headings come back in order
/// for `page.toc`.
@Suite struct HeadingIDTests {
    let renderer = MarkdownRenderer()

    @Test func atxAndSetextHeadingsGetTheSlugOfTheirText() throws {
        let document = try renderer.document("# Hello *world*\n\nSetext two\n----------\n\n### The `x` flag\n")
        #expect(document.html == "<h1 id=\"hello-world\">Hello <em>world</em></h1>\n<h2 id=\"setext-two\">Setext two</h2>\n<h3 id=\"the-x-flag\">The <code>x</code> flag</h3>\n")
        #expect(document.headings == [
            MarkdownHeading(level: 1, text: "Hello world", id: "hello-world", line: 1),
            MarkdownHeading(level: 2, text: "Setext two", id: "setext-two", line: 3),
            MarkdownHeading(level: 3, text: "The x flag", id: "the-x-flag", line: 6),
        ])
    }

    @Test func slugsKeepLettersAndDigitsOfEveryScriptAndDropPunctuation() {
        #expect(HeadingIDs.slug("Héllo, Wörld!") == "héllo-wörld")
        #expect(HeadingIDs.slug("Swift 6: what’s new?") == "swift-6-whats-new")
        #expect(HeadingIDs.slug("日本語の 見出し") == "日本語の-見出し")
        #expect(HeadingIDs.slug("مرحبا بالعالم") == "مرحبا-بالعالم")
        #expect(HeadingIDs.slug("snake_case and kebab-case") == "snake_case-and-kebab-case")
        #expect(HeadingIDs.slug("Ünïcödé  two  spaces") == "ünïcödé--two--spaces")
        #expect(HeadingIDs.slug("?!") == "")
    }

    /// The ASCII slug by bytes and the trim of a heading's text (or a tag's) by bytes are fast paths: on
    /// generated text (every ASCII character, letters that lowercase to ASCII or to two scalars,
    /// marks, digits of other scripts, Unicode's other spaces at either end) each gives exactly
    /// what the general version gives.
    @Test func theFastSlugAndTrimAreTheGeneralOnes() {
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let others = [
            "é", "e\u{301}", "Ü", "\u{212A}", "İ", "ß", "日本", "٣", "Ⅻ", "²", "\u{A0}", "\u{3000}", "\u{2003}", "\u{202F}", "\u{1680}",
            "\u{85}", "\u{2028}", "👩‍💻", "’", "—", "‿", "ǅ", "ʰ",
        ]
        var random = SeededGenerator(seed: 61)
        var slugMisses: [String] = [], trimMisses: [String] = []
        for round in 0..<20_000 {
            let pieces = round % 2 == 0 ? ascii : ascii + others
            let text = (0..<Int.random(in: 0...12, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            if HeadingIDs.slug(text) != HeadingIDs.slugByScalars(text) { slugMisses.append(text) }
            if text.trimmingWhitespaces() != text.trimmingCharacters(in: .whitespaces) { trimMisses.append(text) }
            let inner = text.dropFirst().dropLast()
            if inner.trimmingWhitespaces() != inner.trimmingCharacters(in: .whitespaces) { trimMisses.append("slice of " + text) }
        }
        #expect(slugMisses.isEmpty, "\(slugMisses.prefix(5).map(\.debugDescription))")
        #expect(trimMisses.isEmpty, "\(trimMisses.prefix(5).map(\.debugDescription))")
        // Both paths ran: ASCII text takes the bytes, other text the scalars.
        #expect(HeadingIDs.asciiSlug("Swift 6: What's New?") == "swift-6-whats-new" && HeadingIDs.asciiSlug("Héllo") == nil)
    }

    @Test func repeatedHeadingsAreNumberedAsOnGitHub() throws {
        let document = try renderer.document("## Setup\n\n## Setup\n\n## Setup\n\n## ?!\n")
        #expect(document.headings.map(\.id) == ["setup", "setup-1", "setup-2", "section"])
    }

    @Test func aCustomIDIsTakenOutOfTheTextAndReservedBeforeSlugs() throws {
        let document = try renderer.document("## Install first\n\n## Getting started {#setup}\n\n## Setup\n\n## Dashed {#my-id.v2}\n")
        #expect(document.headings.map(\.id) == ["install-first", "setup", "setup-1", "my-id.v2"])
        #expect(document.headings.map(\.text) == ["Install first", "Getting started", "Setup", "Dashed"])
        #expect(document.html.contains("<h2 id=\"setup\">Getting started</h2>"))
        #expect(document.html.contains("<h2 id=\"my-id.v2\">Dashed</h2>"))
    }

    @Test func brokenAndRepeatedCustomIDsAreErrorsAtTheirPlace() {
        let text = "Intro.\n\n## Empty {#}\n\n## Spaced {#a b}\n\n## One {#same}\n\n## Two {#same}\n"
        let problems = renderer.render(text).problems
        #expect(problems.map { "\($0.line):\($0.column) \($0.message)" } == [
            "3:10 broken heading id {#} in %@: it is empty",
            "5:11 broken heading id {#a b} in %@: an id cannot hold a space",
            "9:8 two headings of %@ have the id 'same'",
        ])
        #expect(problems.last?.hint == "give one of them another {#id}; the other is at line 7")
    }

    @Test func headingIDsDoNotTakeFootnotesIDs() throws {
        let document = try renderer.document("## Fn 1\n\nText.[^1]\n\n[^1]: A note.\n")
        #expect(document.headings.map(\.id) == ["section-fn-1"])
        #expect(document.html.contains("id=\"fn-1\""))
    }

    @Test func headingMarkupCannotReachTheIDAttribute() throws {
        let document = try renderer.document("## <img src=x onerror=alert(1)> \"Quoted\" & <b>bold</b>\n")
        #expect(document.html == "<h2 id=\"quoted--bold\"><!-- raw HTML omitted --> “Quoted” &amp; <!-- raw HTML omitted -->bold<!-- raw HTML omitted --></h2>\n")
    }

    @Test func theTableOfContentsNestsDeeperHeadingsUnderTheOneBefore() {
        let headings = [(2, "a"), (3, "a1"), (3, "a2"), (4, "a2x"), (2, "b"), (4, "b1")].map { MarkdownHeading(level: $0, text: $1, id: $1) }
        let json = JSONValue.array(TableOfContents.json(headings)).text
        #expect(json == #"[{"children":[{"children":[],"id":"a1","level":3,"text":"a1"},{"children":[{"children":[],"id":"a2x","level":4,"text":"a2x"}],"id":"a2","level":3,"text":"a2"}],"id":"a","level":2,"text":"a"},{"children":[{"children":[],"id":"b1","level":4,"text":"b1"}],"id":"b","level":2,"text":"b"}]"# + "\n")
    }
}
