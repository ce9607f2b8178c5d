import Foundation
import Testing
@testable import TesseraKit

/// What a reader and an author of a blog expect of the default theme: hooks for the site's own
/// head and footer, navigation that stays in the reader's language, feeds found from every page
/// and named after the site, a draft badge, and an article's structured data.
@Suite struct ThemeEssentialsTests {
    /// A site on the default theme.
    static func site(_ files: [String: String]) throws -> TemporarySite {
        try TemporarySite(files, base: ["site.yml": "title: Notes\nbaseURL: https://notes.example/\nbuildDate: 2026-11-22T12:00:00Z\n"], theme: nil)
    }

    @Test func theSitesHooksGoIntoEveryPageAndTheThemesAreEmpty() throws {
        let plain = try Self.site(["content/index.md": "---\ntitle: Home\n---\nHi.\n", "content/blog/a.md": "---\ntitle: A\ndate: 2026-11-01\n---\nText.\n"])
        try plain.build()
        let before = try plain.read("index.html")
        #expect(!before.contains("{{!") && !before.contains("hook"), "the theme's hooks print nothing")

        let hooked = try Self.site([
            "content/index.md": "---\ntitle: Home\n---\nHi.\n",
            "content/blog/a.md": "---\ntitle: A\ndate: 2026-11-01\n---\nText.\n",
            "content/blog/index.md": "---\ntitle: Blog\nsections:\n  - query: { under: blog, component: article-thumb }\n---\n",
            "partials/head-end.mustache": "<link rel=\"stylesheet\" href=\"/extra.css\">",
            "partials/body-end.mustache": "<script src=\"/analytics.js\" defer></script>",
            "partials/footer-extra.mustache": "<p class=\"licence\">CC BY 4.0</p>",
        ])
        try hooked.build()
        for page in ["index.html", "blog/a/index.html", "blog/index.html"] {
            let html = try hooked.read(page)
            let head = try #require(html.range(of: "</head>")).lowerBound
            let extra = try #require(html.range(of: "<link rel=\"stylesheet\" href=\"/extra.css\">"), "\(page)")
            #expect(extra.lowerBound < head, "\(page): the head hook is in the head")
            #expect(html.replacingOccurrences(of: "\n", with: "").contains("<script src=\"/analytics.js\" defer></script></body>"), "\(page): the body hook ends the body")
            #expect(html.contains("<p class=\"licence\">CC BY 4.0</p>") && html.range(of: "CC BY")!.lowerBound > html.range(of: "<footer class=\"site-footer\">")!.lowerBound, "\(page)")
        }
    }

    @Test func aTranslatedPageKeepsItsReaderInItsLanguage() throws {
        let output = ExampleSiteCrawlTests.output
        let french = try String(contentsOfFile: output + "/fr/index.html", encoding: .utf8)
        #expect(french.contains("<a class=\"site-title\" href=\"/fr/\""), "the logo leads to the French home")
        // The French menu's Blog is English only: kept, and said so.
        #expect(french.contains("hreflang=\"en\"><span class=\"icon icon--book\" aria-hidden=\"true\"></span><span class=\"main-menu-title\">Blog<span class=\"menu-language\" lang=\"en\" title=\"English\">"), "the English-only blog is marked")
        let english = try String(contentsOfFile: output + "/index.html", encoding: .utf8)
        #expect(!english.contains("menu-language"), "an English menu leads to English pages")
        // On a page with no French version, the switcher's French link leads home, and says so.
        let post = try String(contentsOfFile: output + "/blog/accessible-cards/index.html", encoding: .utf8)
        #expect(post.contains("<a href=\"/fr/\" hreflang=\"fr\" lang=\"fr\" class=\"language-home\">Français<span class=\"visually-hidden\"> (page d&#39;accueil : cette page n&#39;est pas traduite)</span>")
            || post.contains("<a href=\"/fr/\" hreflang=\"fr\" lang=\"fr\" class=\"language-home\">Français<span class=\"visually-hidden\"> (home page: this page is not translated)</span>"), "\(post.components(separatedBy: "language-list").dropFirst().first?.prefix(600) ?? "")")

        let built = try ExampleSite.built()
        let lines = built.menus.untranslatedEntries
        #expect(lines.contains("fr main: Blog → /blog/ (English)"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("en ") })
    }

    @Test func feedsAreNamedAfterTheSiteAndFoundFromEveryPage() throws {
        let output = ExampleSiteCrawlTests.output
        let rss = try String(contentsOfFile: output + "/blog/index.xml", encoding: .utf8)
        #expect(rss.contains("<title>Blog · Tessera Learning</title>"))
        #expect(rss.contains("<description>Release notes, guides and articles"), "the list's summary describes the feed")
        for page in ["index.html", "courses/index.html", "blog/accessible-cards/index.html"] {
            let html = try String(contentsOfFile: output + "/" + page, encoding: .utf8)
            #expect(html.contains("<link rel=\"alternate\" type=\"application/rss+xml\" title=\"Tessera Learning (RSS)\" href=\"/blog/index.xml\">"), "\(page) links the site's feed")
        }
        let blog = try String(contentsOfFile: output + "/blog/index.html", encoding: .utf8)
        #expect(blog.contains("title=\"Blog · Tessera Learning (RSS)\" href=\"/blog/index.xml\"") && !blog.contains("title=\"Tessera Learning (RSS)\""), "the blog links its feeds once")
    }

    @Test func aDraftShowsItsBadgeOnlyWhenDraftsAreBuilt() throws {
        let site = try Self.site(["content/index.md": "---\ntitle: Home\n---\n", "content/blog/wip.md": "---\ntitle: Work in progress\ndate: 2026-11-01\ndraft: true\n---\nSoon.\n"])
        try site.build(drafts: true)
        #expect(try site.read("blog/wip/index.html").contains("<p class=\"draft-badge\">Draft</p>"))
        try site.build()
        #expect(!site.exists("blog/wip/index.html"))
        #expect(!(try site.read("index.html")).contains("draft-badge"))
    }

    @Test func anArticleDescribesItselfAsABlogPosting() throws {
        let site = try Self.site([
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/blog/a.md": "---\ntitle: \"</script><script>alert(1)</script>\"\ndate: 2026-11-01\nsummary: A & B\nauthor: Ada\ntags: [swift]\n---\nText.\n",
        ])
        try site.build()
        let html = try site.read("blog/a/index.html")
        let start = try #require(html.range(of: "<script type=\"application/ld+json\">")).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        let json = String(html[start..<end])
        #expect(!json.contains("<"), "no text of the page can close the script")
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        #expect(graph["@context"] as? String == "https://schema.org")
        let object = try #require((graph["@graph"] as? [[String: Any]])?.first)
        #expect(object["@type"] as? String == "BlogPosting" && object["headline"] as? String == "</script><script>alert(1)</script>")
        #expect(object["datePublished"] as? String == "2026-11-01T00:00:00Z" && object["description"] as? String == "A & B")
        #expect((object["author"] as? [String: String])?["name"] == "Ada" && object["url"] as? String == "https://notes.example/blog/a/")
        #expect(!(try site.read("index.html")).contains("ld+json"), "an undated page is not an article")
    }

    @Test func aPostLinksItsNeighboursAndShowsItsAuthorAndUpdate() throws {
        let site = try Self.site([
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/blog/one.md": "---\ntitle: One\ndate: 2026-10-01\n---\nA.\n",
            "content/blog/two.md": "---\ntitle: Two\ndate: 2026-10-02\nauthor: Ada\nupdated: 2026-11-03\n---\nB.\n",
            "content/blog/three.md": "---\ntitle: Three\ndate: 2026-10-03\n---\nC.\n",
            "content/guides/other.md": "---\ntitle: Other section\ndate: 2026-10-02\n---\nD.\n",
        ])
        try site.build()
        let two = try site.read("blog/two/index.html")
        #expect(two.contains("href=\"/blog/one/\" rel=\"prev\"><span class=\"post-neighbour-label\">Previous</span> <span class=\"post-neighbour-title\">One</span>"))
        #expect(two.contains("href=\"/blog/three/\" rel=\"next\"><span class=\"post-neighbour-label\">Next</span> <span class=\"post-neighbour-title\">Three</span>"))
        #expect(two.contains("<span class=\"article-author\">By Ada</span>"))
        #expect(two.contains("Updated <time datetime=\"2026-11-03\">November 3, 2026</time>"), "\(two.components(separatedBy: "article-meta").dropFirst().first?.prefix(500) ?? "")")
        let one = try site.read("blog/one/index.html")
        #expect(!one.contains("rel=\"prev\"") && one.contains("rel=\"next\""), "the oldest post has no previous one")
        #expect(!(try site.read("guides/other/index.html")).contains("post-neighbours"), "a post alone in its section has no neighbours")

        try site.write("content/blog/two.md", "---\ntitle: Two\ndate: 2026-10-02\nupdated: someday\n---\nB.\n")
        #expect(site.diagnostics().contains { $0.hasPrefix("content/blog/two.md:4:10: error: 'someday' in 'updated' is not a date") }, "\(site.diagnostics())")
    }

    /// The script's JSON-LD objects by `@type`.
    static func structuredData(_ html: String) throws -> [String: [String: Any]] {
        let start = try #require(html.range(of: "<script type=\"application/ld+json\">")).upperBound
        let end = try #require(html.range(of: "</script>", range: start..<html.endIndex)).lowerBound
        let graph = try #require(try JSONSerialization.jsonObject(with: Data(html[start..<end].utf8)) as? [String: Any])
        let objects = try #require(graph["@graph"] as? [[String: Any]])
        return Dictionary(objects.map { ($0["@type"] as? String ?? "", $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// Home, then each folder above the article that is a page, then the article; in a
    /// translation, from the language's home.
    @Test func anArticlesBreadcrumbsLeadFromItsLanguagesHomeThroughItsFolders() throws {
        let site = try Self.site([
            "site.yml": "title: Notes\nbaseURL: https://notes.example/\nbuildDate: 2026-11-22T12:00:00Z\nlanguages:\n  en: { title: Notes }\n  fr: { title: Carnet }\n",
            "content/index.md": "---\ntitle: Welcome\n---\n",
            "content/blog/index.md": "---\ntitle: The Blog\n---\n",
            "content/blog/2026/deep.md": "---\ntitle: Deep\ndate: 2026-11-01\n---\nText.\n",
            "content/blog/top.fr.md": "---\ntitle: Haut\ndate: 2026-11-02\n---\nTexte.\n",
        ])
        try site.build()
        func trail(_ page: String) throws -> [String] {
            let list = try #require(try Self.structuredData(site.read(page))["BreadcrumbList"]?["itemListElement"] as? [[String: Any]], "\(page)")
            #expect(list.map { $0["position"] as? Int } == Array(1...list.count), "\(page)")
            return list.map { "\($0["name"] ?? "") <\($0["item"] ?? "")>" }
        }
        // /blog/2026/ is no page: it is left out.
        #expect(try trail("blog/2026/deep/index.html") == ["Notes <https://notes.example/>", "The Blog <https://notes.example/blog/>", "Deep <https://notes.example/blog/2026/deep/>"])
        // No French blog page: from the French home straight to the article.
        #expect(try trail("fr/blog/top/index.html") == ["Carnet <https://notes.example/fr/>", "Haut <https://notes.example/fr/blog/top/>"])
    }

    /// A site of one language, whose languages have no titles of their own: the home crumb and
    /// the publisher are the site's title, as its header shows it, never the article's.
    @Test func aSiteOfOneLanguageNamesItsHomeCrumbAndPublisherAfterItsTitle() throws {
        let site = try Self.site([
            "content/index.md": "---\ntitle: Welcome\n---\n",
            "content/blog/post.md": "---\ntitle: A <post>\ndate: 2026-11-01\nauthor: Ada\nupdated: 2026-11-03\ntags: [swift, b]\n---\nText.\n",
        ])
        try site.build()
        let page = try site.read("blog/post/index.html")
        let data = try Self.structuredData(page)
        let list = try #require(data["BreadcrumbList"]?["itemListElement"] as? [[String: Any]])
        #expect(list.map { "\($0["name"] ?? "")" } == ["Notes", "A <post>"])
        let posting = try #require(data["BlogPosting"])
        #expect((posting["publisher"] as? [String: Any])?["name"] as? String == "Notes")
        #expect((posting["author"] as? [String: Any])?["name"] as? String == "Ada" && posting["dateModified"] as? String == "2026-11-03")
        #expect(posting["keywords"] as? [String] == ["swift", "b"] && posting["headline"] as? String == "A <post>")
        #expect(page.contains(#""headline":"A \u003cpost>""#), "no text can close the script")
        let script = try #require(page.components(separatedBy: "application/ld+json\">").dropFirst().first?.components(separatedBy: "</script>").first)
        #expect(PageJSONTests.keyOrderProblem(Array(script.utf8)) == nil, "its keys in order, as every JSON Tessera writes")
        #expect(page.contains("class=\"site-title\" href=\"/\"><span class=\"site-logo\" aria-hidden=\"true\"></span>Notes</a>"), "the header names the site the same way")
    }

    /// Each blog essential is a theme option (theme.yml `params:`) on by default, and a site's
    /// `params:` turns it off.
    @Test func aSiteTurnsTheThemesOptionsOffInItsParams() throws {
        let files = [
            "content/index.md": "---\ntitle: Home\nfeeds: [rss]\nsections:\n  - query: { under: blog, component: article-thumb }\n---\n",
            "content/blog/one.md": "---\ntitle: One\ndate: 2026-10-01\n---\nA.\n",
            "content/blog/two.md": "---\ntitle: Two\ndate: 2026-10-02\nauthor: Ada\nupdated: 2026-11-03\n---\nB.\n",
        ]
        let marks = [
            "colorSchemeToggle": "color-scheme.", "postNeighbours": "class=\"post-neighbours\"", "byline": "class=\"article-author\"",
            "structuredData": "application/ld+json", "feedLinks": "<link rel=\"alternate\" type=\"application/rss+xml\"",
        ]
        let on = try Self.site(files)
        try on.build()
        let page = try on.read("blog/two/index.html")
        for (option, mark) in marks { #expect(page.contains(mark), "\(option) is on by default") }
        #expect(page.contains("<script src=\"/assets/color-scheme."), "a remembered scheme is applied in the head, before the first paint")

        var off = files
        off["site.yml"] = "title: Notes\nbaseURL: https://notes.example/\nbuildDate: 2026-11-22T12:00:00Z\nparams:\n  "
            + marks.keys.sorted().map { "\($0): false" }.joined(separator: "\n  ") + "\n"
        let without = try Self.site(off)
        try without.build()
        let plain = try without.read("blog/two/index.html")
        for (option, mark) in marks { #expect(!plain.contains(mark), "\(option): false turns it off") }
        #expect(!plain.contains("Updated "), "the byline option also covers the updated date")
        #expect(page.contains("data-color-scheme-toggle") && !plain.contains("data-color-scheme-toggle"), "the toggle goes with its script")
    }

    @Test func aThemesParamsMustBeAMapping() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mine\n", "content/index.md": "---\ntitle: Home\n---\n",
            "themes/mine/theme.yml": "name: Mine\nparams: [a, b]\n", "themes/mine/layouts/page.mustache": "{{page.title}}",
        ])
        #expect(site.diagnostics().contains { $0.hasPrefix("themes/mine/theme.yml:2:9: error: 'params' must be a mapping, found a list") }, "\(site.diagnostics())")
    }

    /// A list page's title is in the breadcrumbs of the articles below it, a post's title and
    /// date in its neighbours' links: the preview makes those pages again when one changes.
    @Test func renamingAListOrAPostRewritesThePagesThatShowItInAPreview() throws {
        let site = try Self.site([
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/blog/index.md": "---\ntitle: Blog\n---\nPosts.\n",
            "content/blog/a.md": "---\ntitle: A\ndate: 2026-11-01\n---\nText.\n",
            "content/blog/b.md": "---\ntitle: B\ndate: 2026-11-02\n---\nText.\n",
            "content/blog/c.md": "---\ntitle: C\ndate: 2026-11-03\n---\nText.\n",
        ])
        let preview = IncrementalBuildTests.Preview(site: site)
        try preview.rebuild()
        try site.write("content/blog/index.md", "---\ntitle: Journal\n---\nPosts.\n")
        let written = try preview.rebuild(changes: ["content/blog/index.md"])
        #expect(written.contains("blog/a/index.html"), "\(written)")
        let article = try String(contentsOfFile: preview.output + "/blog/a/index.html", encoding: .utf8)
        #expect(try Self.structuredData(article)["BreadcrumbList"].map { "\($0)" }?.contains("Journal") == true)
        try preview.expectSameAsFullBuild()

        try site.write("content/blog/b.md", "---\ntitle: Bee\ndate: 2026-11-02\n---\nText.\n")
        try preview.rebuild(changes: ["content/blog/b.md"])
        #expect(try String(contentsOfFile: preview.output + "/blog/a/index.html", encoding: .utf8).contains("<span class=\"post-neighbour-title\">Bee</span>"))
        try preview.expectSameAsFullBuild()

        // C moves before A: A is now between C and B.
        try site.write("content/blog/c.md", "---\ntitle: C\ndate: 2026-10-01\n---\nText.\n")
        try preview.rebuild(changes: ["content/blog/c.md"])
        #expect(try String(contentsOfFile: preview.output + "/blog/a/index.html", encoding: .utf8).contains("href=\"/blog/c/\" rel=\"prev\""))
        try preview.expectSameAsFullBuild()
    }

    /// The first three items of a page load their pictures at once (they are on the screen when
    /// it opens); the rest wait until they near it. A post listed first on one page and last on
    /// another is early on the one only.
    @Test func theFirstItemsOfAPageLoadTheirPicturesAtOnce() throws {
        var files = [
            "content/index.md": "---\ntitle: Home\nsections:\n  - query: { under: blog, sort: date desc, component: article-thumb }\n---\n",
            "content/oldest.md": "---\ntitle: Oldest first\nsections:\n  - query: { under: blog, sort: date asc, component: article-thumb }\n---\n",
        ]
        for day in 1...5 { files["content/blog/p\(day).md"] = "---\ntitle: P\(day)\ndate: 2026-11-0\(day)\nimage: /assets/samples/cover-swift.svg\n---\nText.\n" }
        let site = try Self.site(files)
        try site.build()
        func loading(_ page: String) throws -> [String] {
            try site.read(page).matches(of: /<a class="card-link" href="\/blog\/(p\d)\/"/).map { String($0.output.1) }.map { post in
                let html = try site.read(page)
                let card = html[html.range(of: "href=\"/blog/\(post)/\"")!.lowerBound...]
                let image = try #require(html[..<card.startIndex].ranges(of: "<img ").last.map { html[$0.lowerBound...].prefix { $0 != ">" } })
                return post + (image.contains("loading=\"lazy\"") ? " lazy" : " eager")
            }
        }
        #expect(try loading("index.html") == ["p5 eager", "p4 eager", "p3 eager", "p2 lazy", "p1 lazy"])
        #expect(try loading("oldest/index.html") == ["p1 eager", "p2 eager", "p3 eager", "p4 lazy", "p5 lazy"])
    }

    /// `group: year` splits a list into runs of one year; the default theme's `archive` layout
    /// heads each run, and the page JSON says where each starts. Months are named in the page's
    /// language; pages without a date are left out.
    @Test func anArchiveGroupsPostsByYearOrMonth() throws {
        let site = try Self.site([
            "site.yml": "title: Notes\nbaseURL: https://notes.example/\nbuildDate: 2026-11-22T12:00:00Z\nlanguages: [en, fr]\n",
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/archive.md": "---\ntitle: Archive\nsections:\n  - layout: archive\n    query: { under: blog, component: article-thumb, group: year }\n---\n",
            "content/archive.fr.md": "---\ntitle: Archives\nsections:\n  - layout: archive\n    query: { under: blog, lang: all, component: article-thumb, group: month }\n---\n",
            "content/blog/a.md": "---\ntitle: A\ndate: 2026-11-01\n---\n",
            "content/blog/b.md": "---\ntitle: B\ndate: 2026-02-01\n---\n",
            "content/blog/c.md": "---\ntitle: C\ndate: 2025-12-31\n---\n",
            "content/blog/undated.md": "---\ntitle: Undated\n---\n",
        ])
        try site.build()
        let html = try site.read("archive/index.html")
        let headings = html.matches(of: /<h2 class="archive-heading">([^<]*)<\/h2>/).map { String($0.output.1) }
        #expect(headings == ["2026", "2025"], "\(html)")
        let titles = html.matches(of: /class="card-link" href="\/blog\/([a-z]+)\/"/).map { String($0.output.1) }
        #expect(titles == ["a", "b", "c"], "newest first, the undated page left out")
        #expect(html.components(separatedBy: "<ul class=\"feed-items\">").count == 3, "a list per year")
        let json = try site.read("archive/index.json")
        #expect(json.contains(#""groups":[{"count":2,"title":"2026"},{"count":1,"title":"2025"}]"#), "\(json)")

        let french = try site.read("fr/archive/index.html")
        let months = french.matches(of: /<h2 class="archive-heading">([^<]*)<\/h2>/).map { String($0.output.1) }
        #expect(months == ["novembre 2026", "février 2026", "décembre 2025"], "\(months)")

        try site.write("content/archive.md", "---\ntitle: Archive\nsections:\n  - query: { under: blog, component: article-thumb, group: week, paginate: 5 }\n---\n")
        #expect(site.diagnostics().contains { $0.hasPrefix("content/archive.md:4:") && $0.contains("'group' must be year or month, found 'week'") }, "\(site.diagnostics())")
        try site.write("content/archive.md", "---\ntitle: Archive\nsections:\n  - query: { under: blog, component: article-thumb, group: year, paginate: 5 }\n---\n")
        #expect(site.diagnostics().contains { $0.contains("'group' and 'paginate' cannot go together") }, "\(site.diagnostics())")
    }
}
