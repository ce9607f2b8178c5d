import Foundation
import Testing
@testable import TesseraKit

/// Sections whose items are pages of the site, through the real pipeline.
@Suite struct QuerySectionTests {
    static let theme: [String: String] = [
        "themes/mini/components/thumb.yml": """
            shell: none
            fields:
              title: { type: text, required: true }
              summary: { type: inline-markdown }
              date: { type: date, format: yyyy-MM-dd }
              kicker: { type: text }
              link: { type: link }
            """,
        "themes/mini/components/thumb.mustache": "<a class=\"thumb\" href=\"{{link}}\">{{#kicker}}[{{kicker}}] {{/kicker}}{{title}}{{#date}} {{date}}{{/date}}</a>",
    ]

    static func post(_ title: String, date: String?, tags: [String] = [], extra: String = "") -> String {
        "---\ntitle: \(title)\n" + (date.map { "date: \($0)\n" } ?? "") + (tags.isEmpty ? "" : "tags: [\(tags.joined(separator: ", "))]\n") + extra + "---\nBody of \(title).\n"
    }

    static func site(query: String, pages: [String: String] = [:], site: String? = nil) throws -> TemporarySite {
        var files = theme
        files["content/blog/index.md"] = "---\ntitle: Blog\nsections:\n  - query: \(query)\n---\n"
        files["content/blog/first.md"] = post("First", date: "2026-01-10", tags: ["swift"], extra: "summary: The *first* one.\ncategory: News\nweight: 3\n")
        files["content/blog/second.md"] = post("Second", date: "2026-03-02", tags: ["web"], extra: "weight: 1\n")
        files["content/blog/third.md"] = post("Third", date: "2026-02-20", tags: ["swift", "web"], extra: "weight: 2\n")
        files["content/blog/2025/old.md"] = post("Old", date: "2025-06-01", tags: ["swift"])
        files["content/about.md"] = post("About", date: "2026-05-05")
        if let site { files["site.yml"] = site }
        for (path, text) in pages { files[path] = text }
        return try TemporarySite(files)
    }

    /// The thumbs of the blog page, in order.
    static func thumbs(_ site: TemporarySite, page: String = "blog/index.html") throws -> [String] {
        let html = try site.read(page)
        return html.components(separatedBy: "<a class=\"thumb\" ").dropFirst().map { String($0.prefix { $0 != "<" }) }
    }

    @Test func listsThePagesOfAFolderNewestFirstWithTheirFrontMatter() throws {
        let site = try Self.site(query: "{ under: blog, component: thumb }")
        try site.build()
        #expect(try Self.thumbs(site) == [
            "href=\"/blog/second/\">Second 2026-03-02",
            "href=\"/blog/third/\">Third 2026-02-20",
            "href=\"/blog/first/\">First 2026-01-10",
            "href=\"/blog/2025/old/\">Old 2025-06-01",
        ], "the folder's own index and pages outside it are not listed")
    }

    @Test func filtersByTagsLimitsAndStaysInItsFolderWhenNotRecursive() throws {
        let tagged = try Self.site(query: "{ under: blog, tags: [swift], limit: 2, component: thumb }")
        try tagged.build()
        #expect(try Self.thumbs(tagged).map { $0.components(separatedBy: ">")[1] } == ["Third 2026-02-20", "First 2026-01-10"])
        let flat = try Self.site(query: "{ under: blog, recursive: false, sort: date asc, component: thumb }")
        try flat.build()
        #expect(try Self.thumbs(flat).map { $0.components(separatedBy: ">")[1] } == ["First 2026-01-10", "Third 2026-02-20", "Second 2026-03-02"])
    }

    @Test(arguments: [
        ("title", ["First", "Old", "Second", "Third"]),
        ("title desc", ["Third", "Second", "Old", "First"]),
        ("weight", ["Second", "Third", "First", "Old"]),
        ("weight desc", ["First", "Third", "Second", "Old"]),
        ("date asc", ["Old", "First", "Third", "Second"]),
        ("path", ["Old", "First", "Second", "Third"]),
        ("path desc", ["Third", "Second", "First", "Old"]),
        // Only First has a category: the others follow, by path.
        ("category", ["First", "Old", "Second", "Third"]),
        ("category desc", ["First", "Old", "Second", "Third"]),
    ])
    func sortsByAnyKeyWithPagesLackingItLast(_ sort: String, _ titles: [String]) throws {
        let site = try Self.site(query: "{ under: blog, sort: \(sort), component: thumb }")
        try site.build()
        #expect(try Self.thumbs(site).map { String($0.components(separatedBy: ">")[1].prefix { $0 != " " }) } == titles)
    }

    @Test func mapsFrontMatterKeysOntoOtherFieldNames() throws {
        let site = try Self.site(query: "{ under: blog, tags: [swift], sort: title, component: thumb, fields: { kicker: category } }")
        try site.build()
        #expect(try Self.thumbs(site).first == "href=\"/blog/first/\">[News] First 2026-01-10")
    }

    /// A page listed by many queries is mapped once per query shape and language: each list
    /// still shows the fields its own query maps, in its own language.
    @Test func aPageListedByManyQueriesShowsWhatEachAsksForInItsLanguage() throws {
        let list = { (fields: String) in "---\ntitle: L\nsections:\n  - query: { under: blog, lang: all, tags: [swift], sort: title, component: thumb\(fields) }\n---\n" }
        let pages = [
            "content/kicked.md": list(", fields: { kicker: category }"),
            "content/summed.md": list(", fields: { kicker: summary }"),
            "content/plain.fr.md": list(""),
            "themes/mini/components/thumb.yml": Self.theme["themes/mini/components/thumb.yml"]!.replacingOccurrences(of: "yyyy-MM-dd", with: "MMMM"),
        ]
        let site = try Self.site(query: "{ under: blog, lang: all, tags: [swift], sort: title, component: thumb }", pages: pages, site: "title: T\ntheme: mini\nlanguages: [en, fr]\n")
        try site.build()
        #expect(try Self.thumbs(site).first == "href=\"/blog/first/\">First January")
        #expect(try Self.thumbs(site, page: "kicked/index.html").first == "href=\"/blog/first/\">[News] First January")
        #expect(try Self.thumbs(site, page: "summed/index.html").first == "href=\"/blog/first/\">[The *first* one.] First January")
        #expect(try Self.thumbs(site, page: "fr/plain/index.html").first == "href=\"/blog/first/\">First janvier")
    }

    /// A listed page's item is rendered once and shared by the lists that show it the same way,
    /// unless its template prints something of the page it is on.
    @Test func listItemsThatPrintTheirListPageAreRenderedPerList() throws {
        let list = { (title: String, component: String) in "---\ntitle: \(title)\nsections:\n  - query: { under: blog, tags: [swift], sort: title, component: \(component) }\n---\n" }
        let pages = [
            "content/one.md": list("One", "onpage"), "content/two.md": list("Two", "onpage"),
            "content/three.md": list("Three", "thumb"), "content/four.md": list("Four", "thumb"),
            "themes/mini/components/onpage.yml": Self.theme["themes/mini/components/thumb.yml"]!,
            "themes/mini/components/onpage.mustache": "<a class=\"thumb\" href=\"{{link}}\">{{title}} on {{page.title}}</a>",
        ]
        let site = try Self.site(query: "{ under: blog, tags: [swift], sort: title, component: thumb }", pages: pages)
        try site.build()
        #expect(try Self.thumbs(site, page: "one/index.html").first == "href=\"/blog/first/\">First on One")
        #expect(try Self.thumbs(site, page: "two/index.html").first == "href=\"/blog/first/\">First on Two")
        #expect(try Self.thumbs(site, page: "three/index.html") == Self.thumbs(site, page: "four/index.html"))
        #expect(try Self.thumbs(site, page: "four/index.html").first == "href=\"/blog/first/\">First 2026-01-10")
    }

    @Test func listsThePagesOfItsOwnLanguageUnlessAskedForAll() throws {
        let pages = ["content/blog/first.fr.md": Self.post("Premier", date: "2026-01-11"), "content/blog/index.fr.md": "---\ntitle: Blog\nsections:\n  - query: { under: blog, component: thumb }\n---\n"]
        let site = try Self.site(query: "{ under: blog, lang: all, sort: title, component: thumb }", pages: pages, site: "title: T\ntheme: mini\nlanguages: [en, fr]\n")
        try site.build()
        #expect(try Self.thumbs(site, page: "fr/blog/index.html") == ["href=\"/fr/blog/first/\">Premier 2026-01-11"])
        #expect(try Self.thumbs(site).map { String($0.components(separatedBy: ">")[1].prefix { $0 != " " }) } == ["First", "Old", "Premier", "Second", "Third"])
    }

    @Test func mistakesAreLocatedErrors() throws {
        let unknownKey = try Self.site(query: "{ undr: blog, component: thumb }")
        #expect(unknownKey.diagnostics() == ["content/blog/index.md:4:14: error: unknown query key 'undr'\n    hint: did you mean 'under'?"])

        let unknownField = try Self.site(query: "{ under: blog, component: thumb, fields: { kiker: category } }")
        #expect(unknownField.diagnostics() == ["content/blog/index.md:4:55: error: component 'thumb' has no field 'kiker'\n    hint: did you mean 'kicker'?"])

        let unknownComponent = try Self.site(query: "{ under: blog, component: thum }")
        #expect(unknownComponent.diagnostics() == ["content/blog/index.md:4:38: error: unknown component 'thum' in query\n    hint: did you mean 'thumb'? `tessera components` lists them all"])

        let both = try TemporarySite(Self.theme.merging(["content/blog/index.md": "---\ntitle: B\nsections:\n  - items: []\n    query: { component: thumb }\n---\n"]) { $1 })
        #expect(both.diagnostics().first?.contains("from 'items' or from 'query', not both") == true)
    }

    @Test func aPageThatCannotFillTheComponentIsAnErrorInItsFileNamingTheQuery() throws {
        let site = try Self.site(query: "{ under: blog, component: thumb }", pages: ["content/blog/untitled.md": "---\ndate: 2026-04-01\n---\n"])
        #expect(site.diagnostics() == [
            "content/blog/untitled.md:1:1: error: component 'thumb' needs field 'title' (this page is listed by the query of content/blog/index.md, line 4)\n    hint: add `title:` (text)",
        ])
    }

    @Test func aListingPageIsRebuiltWhenAListedPageChanges() throws {
        let site = try Self.site(query: "{ under: blog, component: thumb }")
        let cache = BuildCache()
        var options = site.options()
        options.updatesInPlace = true
        try SiteBuilder(options: options, cache: cache).build()
        try site.write("content/blog/first.md", Self.post("First, renamed", date: "2026-01-10"))
        let changed = try SiteBuilder(options: options, cache: cache).run().site.changedOutputs.filter { !$0.hasPrefix("search/") }
        #expect(changed == [
            "api/index.json", "blog/first/index.html", "blog/first/index.json", "blog/index.html", "blog/index.json",
            "tags/index.html", "tags/index.json", "tags/swift/index.html", "tags/swift/index.json",
        ], "the edit also dropped the page's tag")
        #expect(try site.read("blog/index.html").contains("First, renamed"))
    }
}
