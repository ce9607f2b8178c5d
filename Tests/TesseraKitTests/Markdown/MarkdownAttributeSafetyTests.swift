import Testing
@testable import TesseraKit

/// What Markdown writes into attributes (a code fence's language, link and image titles,
/// footnote labels) is escaped there: no payload closes the attribute or opens a tag. Hugo's
/// advisory GHSA-q76j was script injection through the code-fence language.
@Suite struct MarkdownAttributeSafetyTests {
    let renderer = MarkdownRenderer()

    /// Neither a tag nor an event attribute of the payload got out of its attribute or text.
    func expectInert(_ html: String, _ comment: Comment? = nil) {
        #expect(!html.contains("<script") && !html.contains("<img src=x") && !html.contains("<svg"), comment)
        #expect(!html.contains("\" on") && !html.contains("\"on") && !html.contains("' on"), comment)
    }

    @Test func codeFenceLanguagesAreEscaped() throws {
        let script = try renderer.html("```\"><script>alert(1)</script>\nx\n```\n")
        #expect(script == "<pre><code class=\"language-&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;\">x\n</code></pre>\n")
        // The language is the info string's first word.
        let event = try renderer.html("```js\" onmouseover=\"x\ny\n```\n")
        #expect(event == "<pre><code class=\"language-js&quot;\">y\n</code></pre>\n")
        let quote = try renderer.html("~~~'><svg onload=alert(1)>\nz\n~~~\n")
        #expect(quote == "<pre><code class=\"language-'&gt;&lt;svg\">z\n</code></pre>\n")
        for html in [script, event, quote] { expectInert(html) }
    }

    @Test func linkAndImageTitlesAreEscaped() throws {
        let link = try renderer.html("[a](/u \"t\\\" onmouseover=\\\"x\")\n")
        #expect(link == "<p><a href=\"/u\" title=\"t&quot; onmouseover=&quot;x\">a</a></p>\n")
        let image = try renderer.html("![a](/i.png \"\\\"><img src=x onerror=alert(1)>\")\n")
        #expect(image == "<p><img src=\"/i.png\" alt=\"a\" title=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\" /></p>\n")
        let reference = try renderer.html("[r][ref]\n\n[ref]: /u 'x\" onclick=\"y'\n")
        #expect(reference == "<p><a href=\"/u\" title=\"x&quot; onclick=&quot;y\">r</a></p>\n")
        let alt = try renderer.html("![x\"onerror=\"y](/i.png)\n")
        #expect(alt == "<p><img src=\"/i.png\" alt=\"x”onerror=“y\" /></p>\n")
        for html in [link, image, reference, alt] { expectInert(html) }
    }

    /// Labels go into `href` and `id` percent- or entity-escaped.
    @Test func footnoteLabelsAreEscaped() throws {
        let script = try renderer.html("Note[^\"><script>].\n\n[^\"><script>]: body\n")
        #expect(script == """
            <p>Note<sup class="footnote-ref"><a href="#fn-%22%3E%3Cscript%3E" id="fnref-%22%3E%3Cscript%3E" data-footnote-ref>1</a></sup>.</p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-%22%3E%3Cscript%3E">
            <p>body <a href="#fnref-%22%3E%3Cscript%3E" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
            </li>
            </ol>
            </section>

            """)
        let event = try renderer.html("[^\"onmouseover=\"x]\n\n[^\"onmouseover=\"x]: z\n")
        #expect(event.hasPrefix("<p><sup class=\"footnote-ref\"><a href=\"#fn-%22onmouseover=%22x\" id=\"fnref-%22onmouseover=%22x\" data-footnote-ref>1</a></sup></p>\n"))
        let quote = try renderer.html("x[^a&b'c]\n\n[^a&b'c]: y\n")
        #expect(quote.hasPrefix("<p>x<sup class=\"footnote-ref\"><a href=\"#fn-a&amp;b&#x27;c\" id=\"fnref-a&amp;b&#x27;c\" data-footnote-ref>1</a></sup></p>\n"))
        for html in [script, event, quote] { expectInert(html) }
    }

    /// Raw HTML in a footnote or a table cell is omitted like anywhere else unless `unsafe`.
    @Test func rawHTMLInExtensionsIsOmitted() throws {
        let note = try renderer.html("x[^a]\n\n[^a]: <script>alert(1)</script>\n")
        #expect(note.contains("<li id=\"fn-a\">\n<!-- raw HTML omitted -->\n<a href=\"#fnref-a\""))
        let cell = try renderer.html("| a |\n|---|\n| <img src=x onerror=alert(1)> |\n")
        #expect(cell.contains("<td><!-- raw HTML omitted --></td>"))
        for html in [note, cell] { expectInert(html) }
        #expect(try MarkdownRenderer(options: .init(unsafe: true)).html("| a |\n|---|\n| <b>b</b> |\n").contains("<td><b>b</b></td>"))
    }
}
