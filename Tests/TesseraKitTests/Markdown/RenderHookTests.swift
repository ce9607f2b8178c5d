import Foundation
import Testing
@testable import TesseraKit

/// Templates of `markdown/` write the Markdown's headings, links, images, code blocks,
/// blockquotes (GitHub's alerts among them) and tables; without them the HTML is libcmark's.
@Suite struct RenderHookTests {
    /// Hooks that print every value they get, so each test sees the view data itself.
    static let printing: [String: String] = [
        "themes/mini/markdown/heading.mustache": "<h{{level}} id=\"{{id}}\" data-text=\"{{text}}\">{{{html}}}</h{{level}}>\n",
        "themes/mini/markdown/link.mustache": "<a href=\"{{url}}\"{{#title}} title=\"{{title}}\"{{/title}} data-text=\"{{text}}\"{{#external}} rel=\"external\"{{/external}}>{{{html}}}</a>\n",
        "themes/mini/markdown/image.mustache": "[{{#isBlock}}block{{/isBlock}}{{^isBlock}}inline{{/isBlock}} src={{src}} alt={{alt}} title={{title}} size={{width}}x{{height}} lazy={{lazy}} external={{external}} html={{{html}}}]\n",
        "themes/mini/markdown/codeblock.mustache": "<div data-language=\"{{language}}\" data-info=\"{{info}}\" data-code=\"{{code}}\">{{{html}}}</div>\n",
        "themes/mini/markdown/blockquote.mustache": "{{#alert}}<aside class=\"{{type}}\"{{#note}} data-note{{/note}}{{#caution}} data-caution{{/caution}}>{{{html}}}</aside>{{/alert}}{{^alert}}<blockquote class=\"plain\">{{{html}}}</blockquote>{{/alert}}\n",
        "themes/mini/markdown/table.mustache": "<div class=\"scroll\" data-columns=\"{{columns}}\">{{{html}}}</div>\n",
    ]

    static func body(_ markdown: String, files: [String: String] = printing) throws -> String {
        // Images as they are (the processed ones' hook values: ImageProcessingTests).
        let site = try TemporarySite(files.merging(["content/index.md": "---\ntitle: Home\n---\n" + markdown, "static/a.png": "", "site.yml": MarkdownImageTests.unprocessed]) { _, new in new })
        try MarkdownImageTests.png.write(to: URL(fileURLWithPath: site.root + "/static/a.png"))
        try site.build()
        let html = try site.read("index.html")
        let start = try #require(html.range(of: "<main>")), end = try #require(html.range(of: "</main>"))
        return String(html[start.upperBound..<end.lowerBound])
    }

    @Test func withoutHooksTheHTMLIsLibcmarksWithIDs() throws {
        let html = try Self.body("## Hi *there*\n\n> [!NOTE]\n> Quoted [x](/ \"t\").\n\n| a |\n|---|\n| 1 |\n", files: [:])
        #expect(html == """
            <h2 id="hi-there">Hi <em>there</em></h2>
            <blockquote>
            <p>[!NOTE]
            Quoted <a href="/" title="t">x</a>.</p>
            </blockquote>
            <table>
            <thead>
            <tr>
            <th>a</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td>1</td>
            </tr>
            </tbody>
            </table>

            """)
    }

    @Test func theHeadingHookGetsLevelIDTextAndInnerHTML() throws {
        let html = try Self.body("## Hi *there* {#greeting}\n\n### Hi *there*\n\n#### `code` & more\n")
        #expect(html == """
            <h2 id="greeting" data-text="Hi there">Hi <em>there</em></h2>
            <h3 id="hi-there" data-text="Hi there">Hi <em>there</em></h3>
            <h4 id="code--more" data-text="code &amp; more"><code>code</code> &amp; more</h4>

            """)
    }

    @Test func theLinkHookGetsTheResolvedURLTitleTextAndWhetherItLeavesTheSite() throws {
        let site = try TemporarySite(Self.printing.merging([
            "content/index.md": "---\ntitle: Home\n---\nSee [the *post*](@/blog/post.md \"Read it\"), [away](https://example.com/x) and <https://swift.org>.\n",
            "content/blog/post.md": "---\ntitle: Post\n---\nBack [home](../../).\n",
        ]) { _, new in new })
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("""
            <p>See <a href="/blog/post/" title="Read it" data-text="the post">the <em>post</em></a>, \
            <a href="https://example.com/x" data-text="away" rel="external">away</a> and \
            <a href="https://swift.org" data-text="https://swift.org" rel="external">https://swift.org</a>.</p>
            """), "\(html)")
        #expect(try site.read("blog/post/index.html").contains("Back <a href=\"/\" data-text=\"home\">home</a>."))
    }

    @Test func theImageHookKnowsAnImageAloneInItsParagraphFromOneInText() throws {
        let html = try Self.body("![A *cat*](/a.png \"The cat\")\n\nText ![b](/a.png) and ![far](https://example.com/c.png).\n")
        #expect(html == """
            [block src=/a.png alt=A cat title=The cat size=3x2 lazy=false external=false html=<img src="/a.png" alt="A cat" title="The cat" width="3" height="2" />]
            <p>Text [inline src=/a.png alt=b title= size=3x2 lazy=true external=false html=<img src="/a.png" alt="b" width="3" height="2" loading="lazy" />] \
            and [inline src=https://example.com/c.png alt=far title= size=x lazy=true external=true html=<img src="https://example.com/c.png" alt="far" loading="lazy" />].</p>

            """)
    }

    @Test func theCodeBlockHookGetsLanguageInfoAndCode() throws {
        let html = try Self.body("```swift {.numbered}\nlet a = 1 < 2\n```\n\n    indented\n")
        #expect(html == """
            <div data-language="swift" data-info="swift {.numbered}" data-code="let a = 1 &lt; 2
            "><pre class="highlight" tabindex="0"><code class="language-swift"><span class="k">let</span> <span class="n">a</span> <span class="o">=</span> <span class="m">1</span> <span class="o">&lt;</span> <span class="m">2</span>
            </code></pre>
            </div>
            <div data-language="" data-info="" data-code="indented
            "><pre class="highlight" tabindex="0"><code>indented
            </code></pre>
            </div>

            """)
    }

    @Test func theBlockquoteHookGetsGitHubsAlertsWithTheirMarkerTakenOut() throws {
        var markdown = ""
        for type in ["NOTE", "tip", "Important", "WARNING", "CAUTION"] { markdown += "> [!\(type)]\n> Mind the *gap*.\n\n" }
        markdown += "> [!NOTE] Not alone on its line.\n\n> [!DANGER]\n> Not an alert.\n\n> [!NOTE]\n"
        let html = try Self.body(markdown)
        #expect(html == """
            <aside class="note" data-note><p>Mind the <em>gap</em>.</p>
            </aside>
            <aside class="tip"><p>Mind the <em>gap</em>.</p>
            </aside>
            <aside class="important"><p>Mind the <em>gap</em>.</p>
            </aside>
            <aside class="warning"><p>Mind the <em>gap</em>.</p>
            </aside>
            <aside class="caution" data-caution><p>Mind the <em>gap</em>.</p>
            </aside>
            <blockquote class="plain"><p>[!NOTE] Not alone on its line.</p>
            </blockquote>
            <blockquote class="plain"><p>[!DANGER]
            Not an alert.</p>
            </blockquote>
            <aside class="note" data-note></aside>

            """)
    }

    @Test func theTableHookWrapsTheTableAsLibcmarkWritesIt() throws {
        let html = try Self.body("| a | b |\n|:--|--:|\n| 1 | [x](/) |\n")
        #expect(html == """
            <div class="scroll" data-columns="2"><table>
            <thead>
            <tr>
            <th style="text-align: left">a</th>
            <th style="text-align: right">b</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td style="text-align: left">1</td>
            <td style="text-align: right"><a href="/" data-text="x">x</a></td>
            </tr>
            </tbody>
            </table>
            </div>

            """)
    }

    @Test func innerElementsAreWrittenByTheirHooksInsideOuterOnes() throws {
        let html = try Self.body("> [!TIP]\n> ## A [link](/) in a heading\n>\n> ```sh\n> echo hi\n> ```\n\n[![logo](/a.png)](/)\n")
        #expect(html == """
            <aside class="tip"><h2 id="a-link-in-a-heading" data-text="A link in a heading">A <a href="/" data-text="link">link</a> in a heading</h2>
            <div data-language="sh" data-info="sh" data-code="echo hi
            "><pre class="highlight" tabindex="0"><code class="language-sh"><span class="nb">echo</span> hi
            </code></pre>
            </div>
            </aside>
            <p><a href="/" data-text="logo">[inline src=/a.png alt=logo title= size=3x2 lazy=false external=false html=<img src="/a.png" alt="logo" width="3" height="2" />]</a></p>

            """)
    }

    @Test func hooksWriteMarkdownFieldsOfComponentsToo() throws {
        let site = try TemporarySite(Self.printing.merging([
            "content/index.md": "---\ntitle: Home\nsections:\n  - items:\n      - { component: note, message: \"See [home](/).\" }\n---\n",
        ]) { _, new in new })
        try site.build()
        #expect(try site.read("index.html").contains("<p>See <a href=\"/\" data-text=\"home\">home</a>.</p>"))
    }

    @Test func anImageAloneInAnInlineFieldStaysInline() throws {
        let site = try TemporarySite(Self.printing.merging([
            "content/index.md": "---\ntitle: Home\nsections:\n  - items:\n      - { component: note, message: \"![logo](https://example.com/a.png)\" }\n---\n",
        ]) { _, new in new })
        try site.build()
        #expect(try site.read("index.html").contains("<p>[inline src=https://example.com/a.png alt=logo title= size=x lazy=false external=true html=<img src=\"https://example.com/a.png\" alt=\"logo\" />]</p>"))
    }

    @Test func theSitesHookTakesThePlaceOfTheThemes() throws {
        let html = try Self.body("## Hi\n", files: Self.printing.merging(["markdown/heading.mustache": "<h{{level}} class=\"site\">{{text}}</h{{level}}>\n"]) { _, new in new })
        #expect(html == "<h2 class=\"site\">Hi</h2>\n")
    }

    @Test func hooksUseTheStringsOfThePagesLanguage() throws {
        let html = try Self.body("## Hi\n", files: [
            "themes/mini/markdown/heading.mustache": "<h{{level}} id=\"{{id}}\">{{{html}}} <a href=\"#{{id}}\" aria-label=\"{{#t}}anchor{{/t}}\">#</a></h{{level}}>\n",
            "themes/mini/i18n/en.yml": "anchor: Link to this section\n",
        ])
        #expect(html == "<h2 id=\"hi\">Hi <a href=\"#hi\" aria-label=\"Link to this section\">#</a></h2>\n")
    }

    @Test func aHookThatFailsAndAnUnknownHookAreErrorsAtTheirTemplates() throws {
        let site = try TemporarySite([
            "themes/mini/markdown/heading.mustache": "<h{{level}}>{{titel}}</h{{level}}>\n",
            "themes/mini/markdown/headings.mustache": "<h1></h1>\n",
            "content/index.md": "---\ntitle: Home\n---\n## Hi\n",
        ])
        #expect(site.diagnostics() == [
            "themes/mini/markdown/heading.mustache:1:13: error: 'titel' is not a value of the heading hook\n    hint: this template receives: html, id, level, t, text",
            "themes/mini/markdown/headings.mustache:1:1: error: 'headings' is not a Markdown element a render hook can write\n"
                + "    hint: did you mean 'heading'? the hooks are markdown/heading, markdown/link, markdown/image, markdown/codeblock, markdown/blockquote, markdown/table (.mustache)",
        ])
    }

    @Test func aCachedBuildAfterAHookChangesIsAFullBuild() throws {
        let site = try TemporarySite(Self.printing.merging(["content/index.md": "---\ntitle: Home\n---\n## Hi\n\nSee [x](/).\n", "static/keep.txt": "a file\n"]) { _, new in new })
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: options).build()
        try site.write("themes/mini/markdown/heading.mustache", "<h{{level}} class=\"changed\">{{{html}}}</h{{level}}>\n")
        try site.write("markdown/link.mustache", "<a class=\"site\" href=\"{{url}}\">{{{html}}}</a>")
        try SiteBuilder(options: options).build()
        let html = try site.read("index.html")
        #expect(html.contains("<h2 class=\"changed\">Hi</h2>") && html.contains("<a class=\"site\" href=\"/\">x</a>"), "\(html)")
        #expect(try site.differencesFromAFullBuild() == [])
    }
}
