import Testing
@testable import TesseraKit

/// `markdown:` in site.yml turns each of GitHub's extensions off through the real build, and
/// links inside tables and footnotes resolve and report like any other.
@Suite struct MarkdownSiteOptionsTests {
    /// A post that uses every extension.
    static let post = "---\ntitle: Post\n---\n| a | b |\n|---|---|\n| 1 | ~~x~~ |\n\nwww.example.com and me@example.com\n\n- [x] done\n\nNote[^1].\n\n[^1]: The note.\n"

    /// The `<main>` of the built post.
    static func main(site extra: String) throws -> String {
        let site = try TemporarySite(["site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\n" + extra, "content/post.md": post])
        try site.build()
        let page = try site.read("post/index.html")
        guard let start = page.range(of: "<main>"), let end = page.range(of: "</main>") else { return page }
        return String(page[start.upperBound..<end.lowerBound])
    }

    @Test func everyExtensionIsOnByDefault() throws {
        #expect(try Self.main(site: "") == """
            <table>
            <thead>
            <tr>
            <th>a</th>
            <th>b</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td>1</td>
            <td><del>x</del></td>
            </tr>
            </tbody>
            </table>
            <p><a href="http://www.example.com">www.example.com</a> and <a href="mailto:me@example.com">me@example.com</a></p>
            <ul>
            <li><input type="checkbox" checked="" disabled="" /> done</li>
            </ul>
            <p>Note<sup class="footnote-ref"><a href="#fn-1" id="fnref-1" data-footnote-ref>1</a></sup>.</p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-1">
            <p>The note. <a href="#fnref-1" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
            </li>
            </ol>
            </section>

            """)
    }

    /// Each option alone: what its extension makes is gone, the Markdown is text as CommonMark
    /// reads it, and the other extensions still work.
    @Test(arguments: [
        ("tables", "<table>", "<p>| a | b |\n|—|—|\n| 1 | <del>x</del> |</p>"),
        ("strikethrough", "<del>", "<td>~~x~~</td>"),
        ("autolinks", "<a href=\"http://www.example.com\">", "<p>www.example.com and me@example.com</p>"),
        ("tasklists", "<input", "<li>[x] done</li>"),
        ("footnotes", "<section class=\"footnotes\"", "<p>Note[^1].</p>\n<p>[^1]: The note.</p>"),
    ])
    func eachOptionTurnsItsExtensionOff(option: String, made: String, instead: String) throws {
        let html = try Self.main(site: "markdown: { \(option): false }\n")
        #expect(!html.contains(made))
        #expect(html.contains(instead))
        let others = ["<table>", "<del>", "<a href=\"http://www.example.com\">", "<input", "<section class=\"footnotes\""].filter { $0 != made }
        for other in others {
            #expect(html.contains(other), "\(other) with \(option): false")
        }
    }

    @Test func anUnknownOptionListsThemAll() throws {
        let site = try TemporarySite(["site.yml": "title: T\ntheme: mini\nmarkdown:\n  smart: true\n  table: false\n  emoji: true\n"])
        #expect(site.diagnostics() == [
            "site.yml:5:3: error: unknown markdown option 'table'\n    hint: did you mean 'tables'?",
        ])
        let other = try TemporarySite(["site.yml": "title: T\ntheme: mini\nmarkdown: { emoji: true }\n"])
        #expect(other.diagnostics() == [
            "site.yml:3:13: error: unknown markdown option 'emoji'\n    hint: the options are 'smart', 'unsafe', 'tables', 'strikethrough', 'autolinks', 'tasklists', 'footnotes' and 'highlight'",
        ])
    }

    @Test func linksInTableCellsAndFootnotesResolveAndReportTheirPlace() throws {
        let body = "---\ntitle: Post\n---\nIntro line.\n\n| page | link |\n|------|------|\n| ok | [home](@/index.md) |\n| bad | see [gone](../nowhere/) |\n\nNote[^n].\n\n[^n]: In a note, [home](@/index.md) and [also gone](@/missing.md).\n"
        let good = try TemporarySite(["content/post.md": body.replacingOccurrences(of: "[gone](../nowhere/)", with: "[intro](../)")
            .replacingOccurrences(of: "[also gone](@/missing.md)", with: "[post](@/post.md)")])
        try good.build()
        let html = try good.read("post/index.html")
        #expect(html.contains("<td><a href=\"/\">home</a></td>") && html.contains("<td>see <a href=\"/\">intro</a></td>"))
        #expect(html.contains("<p>In a note, <a href=\"/\">home</a> and <a href=\"/post/\">post</a>. <a href=\"#fnref-n\""))
        let bad = try TemporarySite(["content/post.md": body])
        // Lines count from the file's first; columns are where the URL is written.
        #expect(bad.diagnostics() == [
            "content/post.md:9:20: error: broken link in the page's Markdown: no page or file at /nowhere/\n    hint: link to a page of content/ or a file of static/",
            "content/post.md:13:53: error: broken link in the page's Markdown: no page is written in content/missing.md\n    hint: link to a file of content/, for example @/index.md",
        ])
    }
}
