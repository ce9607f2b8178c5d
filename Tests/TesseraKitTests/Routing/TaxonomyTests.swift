import Foundation
import Testing
@testable import TesseraKit

/// `/tags/` and `/tags/<term>/` through the real pipeline: term slugs, counts, per-language pages,
/// pagination and feeds of term pages, theme layouts, and the errors.
@Suite struct TaxonomyTests {
    static let thumb: [String: String] = [
        "themes/mini/components/thumb.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  link: { type: link }\n",
        "themes/mini/components/thumb.mustache": "<a class=\"thumb\" href=\"{{link}}\">{{title}}</a>",
    ]

    static func post(_ title: String, _ date: String, tags: String) -> String {
        "---\ntitle: \(title)\ndate: \(date)\ntags: \(tags)\n---\nBody of \(title).\n"
    }

    @Test func termsPageCountsEveryTermAndTermPagesListTheirPagesNewestFirst() throws {
        let site = try TemporarySite(Self.thumb.merging([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\ntaxonomies:\n  tags: { component: thumb }\n",
            "content/a.md": Self.post("Alpha", "2026-01-01", tags: "[swift, C++]"),
            "content/b.md": Self.post("Beta", "2026-03-01", tags: "[swift, Café]"),
            "content/c.md": Self.post("Gamma", "2026-02-01", tags: "[C#]"),
        ]) { _, new in new })
        try site.build()
        let terms = try site.read("tags/index.html")
        for (name, slug, count) in [("swift", "swift", 2), ("C++", "c-plus-plus", 1), ("Café", "café", 1), ("C#", "c-sharp", 1)] {
            #expect(terms.contains(">\(name)</a> (\(count))"), "\(name) listed with its count")
            #expect(site.exists("tags/\(slug)/index.html"), "\(name) has a page at /tags/\(slug)/")
        }
        let swift = try site.read("tags/swift/index.html")
        let beta = try #require(swift.range(of: ">Beta<")), alpha = try #require(swift.range(of: ">Alpha<"))
        #expect(beta.lowerBound < alpha.lowerBound, "newest first")
        #expect(!swift.contains("Gamma"))
        #expect(swift.contains("href=\"/b/\""))
    }

    @Test func slugsAreStableAndUnicodeSafe() {
        #expect(Taxonomy.slug("C++") == "c-plus-plus")
        #expect(Taxonomy.slug("C#") == "c-sharp")
        #expect(Taxonomy.slug("C") == "c")
        #expect(Taxonomy.slug("Café") == "café")
        // Decomposed é (e + U+0301) is the same term as the precomposed one.
        #expect(Taxonomy.slug("Cafe\u{301}") == "café")
        #expect(Taxonomy.slug("Swift UI") == "swift-ui")
        #expect(Taxonomy.slug("日本語") == "日本語")
        #expect(Taxonomy.slug("!!!") == "")
    }

    @Test func termsThatShareASlugAreAnErrorNamingBothFiles() throws {
        let site = try TemporarySite([
            "content/a.md": Self.post("A", "2026-01-01", tags: "[Swift UI]"),
            "content/b.md": Self.post("B", "2026-01-02", tags: "[swift-ui]"),
        ])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.contains { $0.contains("content/b.md:4:") && $0.contains("'Swift UI' and 'swift-ui' would share the URL /tags/swift-ui/") && $0.contains("content/a.md") }, "\(diagnostics)")
    }

    @Test func aTermWithoutLettersIsAnError() throws {
        let site = try TemporarySite(["content/a.md": Self.post("A", "2026-01-01", tags: "[\"!!\"]")])
        #expect(site.diagnostics().contains { $0.contains("content/a.md:4:") && $0.contains("'!!' has no letters or digits") })
    }

    @Test func eachLanguageHasItsOwnTermPages() throws {
        let site = try TemporarySite(Self.thumb.merging([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nlanguages:\n  en: {}\n  fr: {}\n",
            "content/a.md": Self.post("Hello", "2026-01-01", tags: "[news]"),
            "content/a.fr.md": Self.post("Bonjour", "2026-01-01", tags: "[actualités]"),
        ]) { _, new in new })
        try site.build()
        #expect(try site.read("tags/news/index.html").contains("Hello"))
        #expect(!site.exists("tags/actualités/index.html"))
        let french = try site.read("fr/tags/actualités/index.html")
        #expect(french.contains("Bonjour") && !french.contains("Hello"))
        // The Markdown list's links are percent-encoded by cmark: the same URL.
        #expect(try site.read("fr/tags/index.html").contains("href=\"/fr/tags/actualit%C3%A9s/\""))
    }

    @Test func termPagesPaginateAndPublishFeeds() throws {
        var files = Self.thumb
        files["site.yml"] = "title: T\ntheme: mini\nbaseURL: https://example.com/\nbuildDate: 2026-11-22T12:00:00Z\ntaxonomies:\n  tags: { component: thumb, paginate: 2, feeds: [rss, atom] }\n"
        for day in 1...5 { files["content/p\(day).md"] = Self.post("Post \(day)", "2026-01-0\(day)", tags: "[swift]") }
        let site = try TemporarySite(files)
        try site.build()
        #expect(try site.read("tags/swift/index.html").contains(">Post 5<"))
        #expect(try site.read("tags/swift/page/2/index.html").contains(">Post 3<"))
        #expect(try site.read("tags/swift/page/3/index.html").contains(">Post 1<"))
        #expect(!site.exists("tags/swift/page/4/index.html"))
        #expect(try site.read("tags/swift/index.xml").components(separatedBy: "<item>").count == 6, "the feed lists every page, not page 1's")
        #expect(site.exists("tags/swift/atom.xml"))
        #expect(!site.exists("tags/swift/page/2/index.xml"), "one set of feeds per list")
    }

    @Test func aSitesOwnTermLayoutAndPageAreUsed() throws {
        let site = try TemporarySite(Self.thumb.merging([
            "themes/mini/layouts/term.mustache": "<h1 class=\"term\">{{page.title}} in {{page.params.taxonomyTitle}}</h1>{{{sections}}}",
            "themes/mini/layouts/terms.mustache": "<ul class=\"terms\">{{#page.params.terms}}<li><a href=\"{{url}}\">{{name}}</a> {{count}}</li>{{/page.params.terms}}</ul>",
            "content/a.md": Self.post("A", "2026-01-01", tags: "[swift]"),
            "content/tags/ios.md": "---\ntitle: Written by hand\n---\nMine.\n",
            "content/b.md": Self.post("B", "2026-01-02", tags: "[ios]"),
        ]) { _, new in new })
        try site.build()
        #expect(try site.read("tags/swift/index.html").contains("<h1 class=\"term\">swift in Tags</h1>"))
        #expect(try site.read("tags/index.html").contains("<li><a href=\"/tags/swift/\">swift</a> 1</li>"))
        #expect(try site.read("tags/ios/index.html").contains("Written by hand"), "a content page at a term's URL wins")
    }

    @Test func otherTaxonomiesReadTheirFrontMatterKey() throws {
        let site = try TemporarySite(Self.thumb.merging([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\ntaxonomies: [tags, series]\n",
            "content/a.md": "---\ntitle: Part one\ndate: 2026-01-01\nseries: Concurrency\n---\n",
            "content/b.md": "---\ntitle: Part two\ndate: 2026-01-02\nseries: [Concurrency]\n---\n",
        ]) { _, new in new })
        try site.build()
        let page = try site.read("series/concurrency/index.html")
        #expect(page.contains("Part one") && page.contains("Part two"))
        #expect(try site.read("series/index.html").contains("(2)"))
    }

    @Test func badTaxonomyOptionsAreLocatedErrors() throws {
        for (yaml, message, line) in [
            ("taxonomies:\n  tags: { pagniate: 2 }\n", "unknown taxonomy option 'pagniate'", 5),
            ("taxonomies:\n  tags: { paginate: 0 }\n", "'paginate' must be a positive whole number", 5),
            ("taxonomies: [tags, \"my tags\"]\n", "'my tags' must be a word", 4),
            ("taxonomies:\n  tags: { feeds: [rss, atomic] }\n", "unknown feed format 'atomic'", 5),
        ] {
            let site = try TemporarySite(["site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\n" + yaml])
            let diagnostics = site.diagnostics()
            #expect(diagnostics.contains { $0.contains("site.yml:\(line):") && $0.contains(message) }, "\(yaml) → \(diagnostics)")
        }
    }

    @Test func queriesDoNotListGeneratedPages() throws {
        let site = try TemporarySite(Self.thumb.merging([
            "content/a.md": Self.post("A", "2026-01-01", tags: "[swift]"),
            "content/all.md": "---\ntitle: All\nsections:\n  - query: { sort: title, component: thumb }\n---\n",
        ]) { _, new in new })
        try site.build()
        let all = try site.read("all/index.html")
        #expect(all.contains(">A<"))
        #expect(!all.contains(">swift<") && !all.contains(">Tags<"), "tag pages are not content")
    }
}
