import Foundation
import Testing
@testable import TesseraKit

/// A page dated 1000-01-01 (before Foundation's calendar turns Gregorian), built by SiteBuilder:
/// the page, its permalink, the sitemap, the JSON and the feeds all say the same day.
@Suite struct EarlyDateSiteTests {
    @Test func aPageOfTheYear1000() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/\nbuildDate: 2026-11-22T12:00:00Z\npermalinks: { annals: /:year/:month/:day/:slug/ }\n",
            "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title>{{#page.date}}<time datetime=\"{{page.date.iso}}\">{{page.date}}</time> {{page.date.full}} | {{page.date.year}}{{/page.date}}<main>{{{sections}}}</main>\n",
            "content/annals/index.md": """
                ---
                title: Annals
                feeds: [rss, atom, json]
                sections:
                  - query: { under: annals, component: heading }
                ---

                """,
            "content/annals/millennium.md": """
                ---
                title: Millennium
                date: 1000-01-01
                components:
                  - { component: course, title: A, progress: 0.5, updated: 0999-12-31T23:30:00-01:00 }
                ---

                """,
        ])
        try site.build()
        // The permalink is the day as written, not the Julian 0999-12-27.
        let html = try site.read("1000/01/01/millennium/index.html")
        #expect(html.contains("<time datetime=\"1000-01-01\">Jan 1, 1000</time> Wednesday, January 1, 1000 | 1000"))
        // 0999-12-31T23:30:00-01:00 is 1000-01-01T00:30:00Z; Python: 375,064 days before the build date.
        #expect(html.contains("<time datetime=\"1000-01-01T00:30:00Z\">1,027 years ago</time>"))
        let entry = SitemapTests.Reader.read(try site.read("sitemap.xml")).entries.first { $0.loc == "https://example.com/1000/01/01/millennium/" }
        #expect(entry?.lastmod == "1000-01-01T00:00:00Z")
        #expect(try site.read("1000/01/01/millennium/index.json").contains("\"date\":\"1000-01-01T00:00:00Z\""))
        #expect(try site.read("annals/index.xml").contains("<pubDate>Wed, 01 Jan 1000 00:00:00 +0000</pubDate>"))
        #expect(try site.read("annals/atom.xml").contains("<published>1000-01-01T00:00:00Z</published>"))
    }
}
