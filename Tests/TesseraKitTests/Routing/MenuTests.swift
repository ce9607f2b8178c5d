import Foundation
import Testing
@testable import TesseraKit

/// `menus:` in site.yml and `menu:` in front matter, through the real pipeline.
@Suite struct MenuTests {
    static let layout = """
        <nav>{{#page.menus.main}}{{#items}}<a href="{{url}}"{{#current}} data-current{{/current}}{{#ancestor}} data-ancestor{{/ancestor}}{{#icon}} data-icon="{{icon}}"{{/icon}}>{{title}}</a>{{#hasChildren}}[{{#children}}<a href="{{url}}"{{#current}} data-current{{/current}}>{{title}}</a>{{/children}}]{{/hasChildren}}{{/items}}{{/page.menus.main}}</nav><main>{{{content}}}</main>
        """

    static func site(_ menus: String, files: [String: String] = [:]) throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/base/\nbuildDate: 2026-11-22T12:00:00Z\nlanguages:\n  en: {}\n  fr: {}\n" + menus,
            "themes/mini/layouts/page.mustache": layout,
            "content/blog/index.md": "---\ntitle: Blog\n---\n",
            "content/blog/index.fr.md": "---\ntitle: Journal\n---\n",
            "content/blog/post.md": "---\ntitle: A post\n---\n",
            "content/about.md": "---\ntitle: About us\nmenu: { main: { weight: 3 } }\n---\n",
            "content/about.fr.md": "---\ntitle: À propos\nmenu: main\n---\n",
            "content/index.fr.md": "---\ntitle: Accueil\n---\n",
        ].merging(files) { _, new in new })
    }

    static func nav(_ html: String) -> String {
        html.components(separatedBy: "<nav>").dropFirst().first?.components(separatedBy: "</nav>").first ?? ""
    }

    static let main = """
        menus:
          main:
            - { title: { en: Home, fr: Accueil }, page: index.md, weight: 1, icon: home }
            - { title: Blog, page: blog/index.md, weight: 2 }
            - { title: Docs, link: "https://docs.example.com/", weight: 9 }

        """

    @Test func entriesAreOrderedByWeightWithResolvedLinksAndTheCurrentPageMarked() throws {
        let site = try Self.site(Self.main)
        try site.build()
        let home = Self.nav(try site.read("index.html"))
        #expect(home == "<a href=\"/base/\" data-current data-icon=\"home\">Home</a><a href=\"/base/blog/\">Blog</a><a href=\"/base/about/\">About us</a><a href=\"https://docs.example.com/\">Docs</a>")
        let about = Self.nav(try site.read("about/index.html"))
        #expect(about.contains("<a href=\"/base/about/\" data-current>About us</a>"))
        #expect(!about.contains("<a href=\"/base/\" data-current"))
    }

    @Test func aPageBelowAnEntryMarksItAsAncestor() throws {
        let site = try Self.site(Self.main)
        try site.build()
        let post = Self.nav(try site.read("blog/post/index.html"))
        #expect(post.contains("<a href=\"/base/blog/\" data-ancestor>Blog</a>"))
        #expect(!post.contains("<a href=\"/base/\" data-ancestor"), "the home page is not everyone's ancestor")
    }

    @Test func eachLanguageGetsItsTitlesAndItsVersionOfReferencedPages() throws {
        let site = try Self.site(Self.main)
        try site.build()
        let french = Self.nav(try site.read("fr/blog/index.html"))
        #expect(french.contains("<a href=\"/base/fr/\" data-icon=\"home\">Accueil</a>"))
        #expect(french.contains("<a href=\"/base/fr/blog/\" data-current>Blog</a>"))
        #expect(french.contains("<a href=\"/base/fr/about/\">À propos</a>"), "front matter entries stay in their language")
        #expect(!french.contains("About us"))
    }

    @Test func entriesNestUnderTheirParent() throws {
        let site = try Self.site("""
            menus:
              main:
                - { title: Learn, id: learn, children: [ { title: Blog, page: blog/index.md, weight: 2 } ] }

            """, files: ["content/about.md": "---\ntitle: About us\nmenu: { main: { parent: learn, weight: 1 } }\n---\n"])
        try site.build()
        let nav = Self.nav(try site.read("blog/index.html"))
        #expect(nav == "<a href=\"\" data-ancestor>Learn</a>[<a href=\"/base/about/\">About us</a><a href=\"/base/blog/\" data-current>Blog</a>]")
    }

    @Test func brokenMenusAreLocatedErrors() throws {
        for (menus, message, line) in [
            ("menus:\n  main:\n    - { title: Gone, link: /nowhere/ }\n", "no page or file at /nowhere/", 10),
            ("menus:\n  main:\n    - { title: Gone, page: missing.md }\n", "no page is written in content/missing.md", 10),
            ("menus:\n  main:\n    - { titel: Blog, link: /blog/ }\n", "unknown menu key 'titel'", 10),
            ("menus:\n  main:\n    - { title: Blog }\n", "needs a 'link' or a 'page'", 10),
            ("menus:\n  main:\n    - { title: Blog, link: /blog/, weight: heavy }\n", "'weight' must be a whole number", 10),
            ("menus:\n  main: { title: Blog }\n", "the menu 'main' must be a list", 9),
            ("menus:\n  main:\n    - { title: Blog, link: \"javascript:alert(1)\" }\n", "refused URL", 10),
        ] {
            let site = try Self.site(menus)
            let diagnostics = site.diagnostics()
            #expect(diagnostics.contains { $0.contains("site.yml:\(line):") && $0.contains(message) }, "\(menus) → \(diagnostics)")
        }
        let orphan = try Self.site(Self.main, files: ["content/about.md": "---\ntitle: About us\nmenu: { main: { parent: Nowhere } }\n---\n"])
        #expect(orphan.diagnostics().contains { $0.contains("content/about.md:3:") && $0.contains("has no entry 'Nowhere'") })
    }

    @Test func aNewMenuEntryInOnePageReachesEveryCachedPage() throws {
        let site = try Self.site(Self.main)
        let cache = BuildCache()
        var options = site.options()
        options.updatesInPlace = true
        _ = try SiteBuilder(options: options, cache: cache).build()
        #expect(!Self.nav(try site.read("blog/post/index.html")).contains("Contact"))
        try site.write("content/contact.md", "---\ntitle: Contact\nmenu: main\n---\n")
        _ = try SiteBuilder(options: options, cache: cache).build()
        #expect(Self.nav(try site.read("blog/post/index.html")).contains("<a href=\"/base/contact/\">Contact</a>"))
    }

    /// A page in site.yml's menu and in its own `menu:` is one entry, with a warning naming both
    /// places; before, the menu showed it twice, both marked current.
    @Test func aPageInAMenuTwiceIsOneEntryAndAWarningNamingBothPlaces() throws {
        let site = try Self.site(Self.main + "    - { title: About, page: about.md, weight: 1 }\n")
        let report = try site.build()
        let warnings = report.warnings.map { $0.formatted(relativeTo: site.root) }
        // In English site.yml's entry comes first (weight 1 against the page's 3); in French the
        // page's own (weight 0).
        #expect(warnings.map { String($0.prefix { $0 != "\n" }) } == [
            "content/about.md:3:15: warning: this menu entry links /base/about/, as the entry at site.yml:13:7 does: it is left out",
            "site.yml:13:7: warning: this menu entry links /base/fr/about/, as the entry at content/about.fr.md:3:7 does: it is left out",
        ], "\(warnings.joined(separator: "\n"))")
        let about = Self.nav(try site.read("about/index.html"))
        #expect(about.components(separatedBy: "/base/about/").count == 2, "one link to the page: \(about)")
        #expect(about.components(separatedBy: "data-current").count == 2, "one entry marked current: \(about)")
    }
}
