import Foundation
import Testing
@testable import TesseraKit

/// A page without `summary:` is summarized by the text before `<!--more-->`, or else its first
/// paragraph cut at a word boundary (`summaryLength:` characters): in lists, feeds, its JSON and
/// its description. The build cache treats that text like front matter.
@Suite struct SummaryTests {
    let parser = PageParser(timeZone: TimeZone(identifier: "UTC")!)

    func page(_ text: String, parser: PageParser? = nil) throws -> Page {
        try (parser ?? self.parser).parse(text: text, sourcePath: "/site/content/post.md", relativePath: "post.md")
    }

    @Test func theTextBeforeMoreIsTheSummaryAndTheMarkerLeavesTheBody() throws {
        let post = try page("---\ntitle: P\n---\n## Intro\n\nFirst *para*\nwith [a link](/x).\n\n- an item\n\n<!-- more -->\nThe rest, with a [broken link](/nowhere).\n")
        #expect(post.summary == "First para with a link. an item")
        #expect(post.body == "## Intro\n\nFirst *para*\nwith [a link](/x).\n\n- an item\n\n\nThe rest, with a [broken link](/nowhere).\n")
        // Lines keep their numbers: the body's seventh line is the blank one the marker left.
        #expect(post.body.split(separator: "\n", omittingEmptySubsequences: false)[8] == "The rest, with a [broken link](/nowhere).")
    }

    @Test func otherwiseTheFirstParagraphIsCutAtAWordBoundary() throws {
        let long = String(repeating: "words and more ", count: 20)
        let post = try page("---\ntitle: P\n---\n# Heading\n\n\(long)\n\nSecond paragraph.\n")
        let summary = try #require(post.summary)
        #expect(summary.hasSuffix("…") && summary.count <= MarkdownSummary.defaultLength + 1)
        #expect(summary.hasPrefix("words and more words"))
        var short = parser
        short.summaryLength = 20
        #expect(try page("---\ntitle: P\n---\nOne two three four five six seven.\n", parser: short).summary == "One two three four…")
    }

    @Test func frontMatterWinsAndMoreInCodeIsText() throws {
        #expect(try page("---\ntitle: P\nsummary: Mine.\n---\nBody.\n\n<!--more-->\n").summary == "Mine.")
        let fenced = try page("---\ntitle: P\n---\n```\n<!--more-->\n```\n\nAfter the code.\n")
        #expect(fenced.summary == "After the code.")
        #expect(fenced.body.contains("<!--more-->"))
        #expect(try page("---\ntitle: P\n---\n# Only a heading\n").summary == nil)
    }

    @Test func markdownPunctuationInASummaryReadsAsWritten() throws {
        #expect(MarkdownText.escaped("2 * 3 = 6, a_b <c> & [d]") == #"2 \* 3 = 6, a\_b \<c\> \& \[d\]"#)
        #expect(try MarkdownRenderer().inlineHTML(MarkdownText.escaped("2 * 3 * 4 _x_ <b> &amp; `c`")) == "2 * 3 * 4 _x_ &lt;b&gt; &amp;amp; `c`")
    }

    static let files = [
        "site.yml": "title: S\nbuildDate: 2026-11-22T12:00:00Z\ntheme: mini\nsummaryLength: 40\n",
        "themes/mini/components/thumb.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  summary: { type: inline-markdown }\n",
        "themes/mini/components/thumb.mustache": "<p class=\"thumb\">{{title}}: {{{summary}}}</p>",
        "themes/mini/layouts/page.mustache": "<meta name=\"description\" content=\"{{page.description}}\"><main>{{{content}}}{{{sections}}}</main>\n",
        "content/list.md": "---\ntitle: List\nsections:\n  - query: { under: posts, component: thumb }\n---\n",
        "content/posts/a.md": "---\ntitle: A\n---\nThe first words of post A, which go on for a while after forty characters.\n",
        "content/posts/b.md": "---\ntitle: B\n---\nShort *intro* of B, 2 * 3.\n<!--more-->\nThe rest of B.\n",
    ]

    @Test func listsTheJSONAndTheDescriptionShowIt() throws {
        let site = try TemporarySite(Self.files)
        try SiteBuilder(options: site.options()).build()
        let list = try String(contentsOfFile: site.output + "/list/index.html", encoding: .utf8)
        #expect(list.contains("<p class=\"thumb\">A: The first words of post A, which go on…</p>"))
        #expect(list.contains("<p class=\"thumb\">B: Short intro of B, 2 * 3.</p>"))
        let a = try String(contentsOfFile: site.output + "/posts/a/index.html", encoding: .utf8)
        #expect(a.contains("<meta name=\"description\" content=\"The first words of post A, which go on…\">"))
        let json = try String(contentsOfFile: site.output + "/posts/b/index.json", encoding: .utf8)
        #expect(json.contains("\"summary\":\"Short intro of B, 2 * 3.\""))
        let b = try String(contentsOfFile: site.output + "/posts/b/index.html", encoding: .utf8)
        #expect(!b.contains("more") && b.contains("The rest of B."))
    }

    @Test func aShortSummaryLengthIsALocatedError() throws {
        let site = try TemporarySite(["site.yml": "title: S\ntheme: mini\nsummaryLength: 5\n"])
        #expect {
            try SiteBuilder(options: site.options()).build()
        } throws: { error in
            (error as? TesseraError)?.diagnostics.map { $0.formatted(relativeTo: site.root) }.first?
                .hasPrefix("site.yml:3:16: error: 'summaryLength' must be a whole number of characters, at least 20") == true
        }
    }

    @Test func aCachedBuildAfterAnEditOfTheFirstParagraphIsAFullBuild() throws {
        let site = try TemporarySite(Self.files)
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: options).build()
        try site.write("content/posts/a.md", "---\ntitle: A\n---\nNew opening words of A.\n\nSecond paragraph.\n")
        // Past two seconds, files are trusted by their stat: the edit is seen by its content.
        try SiteBuilder(options: options).build()
        #expect(try String(contentsOfFile: site.output + "/list/index.html", encoding: .utf8).contains("A: New opening words of A."))
        #expect(try site.differencesFromAFullBuild() == [])
    }
}
