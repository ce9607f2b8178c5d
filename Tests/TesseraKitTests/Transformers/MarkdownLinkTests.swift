import Foundation
import Testing
@testable import TesseraKit

/// Links and images in Markdown resolve exactly like `link` fields, and a broken internal target
/// is an error at its file, line and column.
@Suite struct MarkdownLinkTests {
    static let pages: [String: String] = [
        "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/docs/\n",
        "content/guides/feeds.md": "---\ntitle: Feeds\n---\nSee [the intro](../../intro/), [home](@/index.md), [top](#top) and [Swift](https://swift.org).\n\n![cover](../cover.svg)\n\n## Why\n",
        "content/guides/cover.svg": "<svg/>",
        "content/intro.md": "---\ntitle: Intro\ncomponents:\n  - { component: note, message: \"Read [feeds](@/guides/feeds.md#why)\" }\n---\n",
    ]

    @Test func internalTargetsGetTheirURLWithTheBasePath() throws {
        let site = try TemporarySite(Self.pages)
        try site.build()
        let feeds = try site.read("guides/feeds/index.html")
        #expect(feeds.contains("<a href=\"/docs/intro/\">the intro</a>"))
        #expect(feeds.contains("<a href=\"/docs/\">home</a>"))
        #expect(feeds.contains("<a href=\"#top\">top</a>"), "a fragment stays on the page")
        #expect(feeds.contains("<a href=\"https://swift.org\">Swift</a>"))
        #expect(feeds.contains("<img src=\"/docs/guides/cover.svg\" alt=\"cover\" />"), "relative to the page's URL, as a browser reads it")
        #expect(try site.read("intro/index.html").contains("<a href=\"/docs/guides/feeds/#why\">feeds</a>"))
    }

    @Test func brokenTargetsAreErrorsAtTheirLineAndColumn() throws {
        var files = Self.pages
        files["content/guides/feeds.md"] = "---\ntitle: Feeds\n---\nFirst line.\n\nSee [gone](../nowhere/) and ![x](missing.png).\n"
        files["content/intro.md"] = "---\ntitle: Intro\ncomponents:\n  - component: note\n    message: |\n      Read [feeds](@/guides/feds.md)\n---\n"
        let site = try TemporarySite(files)
        #expect(site.diagnostics() == [
            "content/guides/feeds.md:6:12: error: broken link in the page's Markdown: no page or file at /guides/nowhere/\n    hint: link to a page of content/ or a file of static/",
            "content/guides/feeds.md:6:34: error: broken image in the page's Markdown: no file /guides/feeds/missing.png in static/ or content/\n    hint: put the file in static/ or beside the page in content/",
            "content/intro.md:6:20: error: broken link in field 'message': no page is written in content/guides/feds.md\n    hint: did you mean 'guides/feeds.md'?",
        ])
    }
}
