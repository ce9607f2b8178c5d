import Foundation
import Testing
@testable import TesseraKit

/// Future and expired pages, aliases and permalink patterns, through the real pipeline.
@Suite struct PublishingRulesTests {
    // The base site's build date is 2026-11-22T12:00:00Z.
    static let dated: [String: String] = [
        "content/past.md": "---\ntitle: Past\ndate: 2026-11-01\n---\n",
        "content/soon.md": "---\ntitle: Soon\ndate: 2026-12-24\n---\n",
        "content/gone.md": "---\ntitle: Gone\nexpires: 2026-11-20\n---\n",
        "content/later.md": "---\ntitle: Later\nexpires: 2027-01-01\n---\n",
    ]

    @Test func futureAndExpiredPagesAreLeftOutAndCounted() throws {
        let site = try TemporarySite(Self.dated)
        let report = try site.build()
        #expect(site.exists("past/index.html") && site.exists("later/index.html"))
        #expect(!site.exists("soon/index.html") && !site.exists("gone/index.html"))
        #expect(report.summary().contains("(1 future page left out; --future includes them; 1 expired page left out)"))
        #expect(try !site.read("sitemap.xml").contains("/soon/"))
    }

    @Test func futureIncludesThem() throws {
        let site = try TemporarySite(Self.dated)
        var options = site.options()
        options.includeFuture = true
        try SiteBuilder(options: options).build()
        #expect(site.exists("soon/index.html"))
        #expect(!site.exists("gone/index.html"), "an expired page stays out")
    }

    @Test func aliasesWriteRedirectPages() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/docs/\n",
            "content/guide.md": "---\ntitle: Guide\naliases: [/old/guide/, /guide.html, /legacy]\n---\n",
        ])
        try site.build()
        let redirect = try site.read("old/guide/index.html")
        #expect(redirect.contains("<meta http-equiv=\"refresh\" content=\"0; url=/docs/guide/\">"))
        #expect(redirect.contains("<link rel=\"canonical\" href=\"https://example.com/docs/guide/\">"))
        #expect(site.exists("guide.html") && site.exists("legacy/index.html"))
    }

    @Test func aliasMistakesAreLocatedErrors() throws {
        let clash = try TemporarySite(["content/a.md": "---\ntitle: A\naliases: [/b/]\n---\n", "content/b.md": "---\ntitle: B\n---\n"])
        #expect(clash.diagnostics() == ["content/a.md:3:11: error: the alias /b/ is already the page content/b.md\n    hint: remove the alias, or move what is at /b/"])
        let escape = try TemporarySite(["content/a.md": "---\ntitle: A\naliases: [/../../etc/]\n---\n"])
        #expect(escape.diagnostics().first?.hasPrefix("content/a.md:3:11: error: an alias must be a path of this site") == true)
    }

    @Test func permalinkPatternsPlaceAFoldersPages() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22\npermalinks:\n  blog: /:year/:month/:slug/\n",
            "content/blog/index.md": "---\ntitle: Blog\n---\n",
            "content/blog/hello.md": "---\ntitle: Hello\ndate: 2026-11-05\n---\n",
            "content/blog/named.md": "---\ntitle: Named\ndate: 2025-01-31\nslug: custom\n---\n",
            "content/notes/x.md": "---\ntitle: X\n---\n",
        ])
        try site.build()
        #expect(site.exists("blog/index.html"), "the folder's own page keeps its URL")
        #expect(site.exists("2026/11/hello/index.html"))
        #expect(site.exists("2025/01/custom/index.html"))
        #expect(site.exists("notes/x/index.html"), "other folders are untouched")
    }

    @Test func permalinkMistakesAreLocatedErrors() throws {
        let token = try TemporarySite(["site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22\npermalinks:\n  blog: /:yaer/:slug/\n"])
        #expect(token.diagnostics() == ["site.yml:5:9: error: unknown permalink token ':yaer' in '/:yaer/:slug/'\n    hint: did you mean ':year'?"])
        let undated = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22\npermalinks:\n  blog: /:year/:slug/\n",
            "content/blog/x.md": "---\ntitle: X\n---\n",
        ])
        #expect(undated.diagnostics().first?.hasPrefix("content/blog/x.md:1:1: error: this page needs a date") == true)
        let collision = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22\npermalinks:\n  blog: /:year/:slug/\n",
            "content/blog/a.md": "---\ntitle: A\ndate: 2026-01-01\nslug: same\n---\n",
            "content/blog/b.md": "---\ntitle: B\ndate: 2026-02-01\nslug: same\n---\n",
        ])
        #expect(collision.diagnostics() == ["content/blog/b.md:4:7: error: two pages have the URL /2026/same/: this one and content/blog/a.md:4:7\n    hint: rename one of the files or give one a different `slug:`"])
        let constant = try TemporarySite(["site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22\npermalinks:\n  blog: /posts/\n"])
        #expect(constant.diagnostics().first?.contains("gives every page of blog/ the same URL") == true)
    }
}
