import Foundation
import Testing
@testable import TesseraKit

/// A rebuild with the previous build's cache must write exactly what a full build writes, and
/// redo only what its change affects.
@Suite struct IncrementalBuildTests {
    struct Preview {
        let site: TemporarySite
        let cache = BuildCache()
        let output: String

        /// These tests count the files each rebuild writes: without the search index, whose
        /// files change with every text (SearchIndexTests and the serve differential tests
        /// check it through rebuilds).
        init(_ files: [String: String]) throws {
            site = try TemporarySite(files, base: TemporarySite.baseFiles.merging(["site.yml": TemporarySite.baseFiles["site.yml"]! + "search: false\n"]) { _, new in new })
            output = site.root + "/preview"
        }

        /// A site of its own (`site`'s files, its theme), previewed the same way.
        init(site: TemporarySite) {
            self.site = site
            output = site.root + "/preview"
        }

        /// Rebuilds in place with the cache; returns the output paths it touched. `changes`
        /// (relative to the site) are what a watcher reported since the last build.
        @discardableResult
        func rebuild(changes: [String]? = nil) throws -> [String] {
            try run(changes: changes).site.changedOutputs
        }

        func run(changes: [String]? = nil) throws -> (site: BuiltSite, report: BuildReport) {
            var options = site.options()
            options.outputDirectory = output
            options.updatesInPlace = true
            cache.expectChanges(changes.map { Set($0.map { site.root + "/" + $0 }) })
            return try SiteBuilder(options: options, cache: cache).run()
        }

        /// A full build from nothing, compared file by file with the incremental output.
        func expectSameAsFullBuild(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            var options = site.options()
            let full = site.root + "/full"
            options.outputDirectory = full
            try SiteBuilder(options: options).build()
            let incremental = FileTree.files(in: output, boundary: nil, problems: DiagnosticCollector()), expected = FileTree.files(in: full, boundary: nil, problems: DiagnosticCollector())
            #expect(incremental == expected, sourceLocation: sourceLocation)
            for path in expected where incremental.contains(path) {
                #expect(FileManager.default.contents(atPath: output + "/" + path) == FileManager.default.contents(atPath: full + "/" + path), "\(path)", sourceLocation: sourceLocation)
            }
        }
    }

    static let site: [String: String] = [
        "content/index.md": "---\ntitle: Home\ncomponents:\n  - { component: course, title: A, progress: 0.5, link: /b/ }\n---\n",
        "content/b.md": "---\ntitle: B\ncomponents:\n  - { component: note, message: Hi }\n---\n",
        "content/c.md": "---\ntitle: C\ncomponents:\n  - { component: heading, title: C }\n---\n",
        "static/site.css": "body{}",
    ]

    @Test func firstBuildWritesEverythingSecondNothing() throws {
        let preview = try Preview(Self.site)
        #expect(try preview.rebuild() == [
            "api/index.json", "api/schema.json", "api/site.json", "b/index.html", "b/index.json", "c/index.html", "c/index.json", "index.html", "index.json", "robots.txt", "site.css", "sitemap.xml",
        ])
        #expect(try preview.rebuild() == [])
        #expect(preview.cache.statistics == .init(parsed: 0, parseReused: 3, mapped: 0, mapReused: 3, rendered: 0, renderReused: 3))
        try preview.expectSameAsFullBuild()
    }

    @Test func editingOneContentFileRebuildsThatPageOnly() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("content/b.md", "---\ntitle: B2\ncomponents:\n  - { component: note, message: Changed }\n---\n")
        #expect(try preview.rebuild() == ["api/index.json", "b/index.html", "b/index.json"], "the index lists the new title")
        #expect(preview.cache.statistics.parsed == 1)
        #expect(preview.cache.statistics.rendered == 1)
        try preview.expectSameAsFullBuild()
    }

    @Test func editingAComponentTemplateRebuildsThePagesThatUseIt() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("themes/mini/components/note.mustache", "<p class=\"new\">{{{message}}}</p>")
        #expect(try preview.rebuild() == ["b/index.html"])
        #expect(preview.cache.statistics.rendered == 1)
        try preview.expectSameAsFullBuild()
    }

    @Test func editingAShellOrLayoutRebuildsThePagesThatUseIt() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("themes/mini/shells/card.mustache", "<div>{{{body}}}</div>")
        #expect(try preview.rebuild() == ["b/index.html", "index.html"], "c uses only a bare component")
        try preview.site.write("themes/mini/layouts/page.mustache", "<main>{{{sections}}}</main>")
        #expect(try preview.rebuild() == ["b/index.html", "c/index.html", "index.html"])
        try preview.expectSameAsFullBuild()
    }

    @Test func editingASchemaRemapsAndRerendersWhatChanged() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("themes/mini/components/heading.yml", "shell: card\nfields:\n  title: { type: text, required: true }\n")
        #expect(try preview.rebuild() == ["c/index.html"])
        try preview.expectSameAsFullBuild()
    }

    /// A dated post's title is its neighbours' "previous / next" link: retitling it makes the
    /// post and its neighbours again (with the search index and the JSON index that show it),
    /// not the whole pipeline, and writes what a full build writes. A new date reorders the posts:
    /// the whole pipeline then.
    @Test func retitlingAPostRemakesItsNeighboursAlone() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/blog/one.md": "---\ntitle: One\ndate: 2026-10-01\n---\nA.\n",
            "content/blog/two.md": "---\ntitle: Two\ndate: 2026-10-02\n---\nB.\n",
            "content/blog/three.md": "---\ntitle: Three\ndate: 2026-10-03\n---\nC.\n",
            "content/blog/four.md": "---\ntitle: Four\ndate: 2026-10-04\n---\nD.\n",
        ], base: ["site.yml": "title: Notes\nbaseURL: https://notes.example/\nbuildDate: 2026-11-22T12:00:00Z\n"], theme: nil)
        let preview = Preview(site: site)
        try preview.rebuild()
        func retitle(_ name: String, _ title: String, date: String? = nil) throws -> (steps: [String], pages: [String]) {
            let text = try String(contentsOfFile: site.root + "/content/blog/\(name).md", encoding: .utf8)
            var edited = text.replacing(/title: [^\n]*/, with: "title: \(title)", maxReplacements: 1)
            if let date { edited = edited.replacing(/date: [^\n]*/, with: "date: \(date)", maxReplacements: 1) }
            try site.write("content/blog/\(name).md", edited)
            let (built, report) = try preview.run(changes: ["content/blog/\(name).md"])
            return (report.stepTimings.map(\.step), built.changedOutputs.filter { $0.hasPrefix("blog/") && $0.hasSuffix(".html") })
        }
        let two = try retitle("two", "Second")
        #expect(two.steps == ["edited pages"])
        #expect(two.pages == ["blog/one/index.html", "blog/three/index.html", "blog/two/index.html"], "and not blog/four: \(two.pages)")
        func page(_ path: String) throws -> String { try String(contentsOfFile: preview.output + "/" + path, encoding: .utf8) }
        #expect(try page("blog/three/index.html").contains("<span class=\"post-neighbour-title\">Second</span>"))
        try preview.expectSameAsFullBuild()
        let one = try retitle("one", "First")
        #expect(one.steps == ["edited pages"] && one.pages == ["blog/one/index.html", "blog/two/index.html"], "\(one)")
        try preview.expectSameAsFullBuild()
        let moved = try retitle("four", "Earliest", date: "2026-09-01")
        #expect(moved.steps != ["edited pages"], "a new date reorders the posts")
        #expect(try page("blog/one/index.html").contains("<span class=\"post-neighbour-title\">Earliest</span>"))
        try preview.expectSameAsFullBuild()
    }

    @Test func siteConfigurationChangeReachesEveryPage() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("site.yml", "title: Renamed\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nbaseURL: /sub/\nsearch: false\n")
        #expect(
            try preview.rebuild() == ["api/index.json", "api/site.json", "b/index.json", "c/index.json", "index.html", "index.json", "robots.txt", "sitemap.xml"],
            "only the home page prints a link, and links carry the base path, as do the sitemap's and every JSON page's URLs (and the site's title and home in api/site.json)")
        try preview.expectSameAsFullBuild()
    }

    @Test func staticFilesAreCopiedAlone() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("static/site.css", "body{color:red}")
        #expect(try preview.rebuild() == ["site.css"])
        #expect(preview.cache.statistics.rendered == 0)
        try preview.expectSameAsFullBuild()
    }

    @Test func addingAndRemovingPagesUpdatesLinksAndRemovesStaleFiles() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.remove("content/c.md")
        #expect(try preview.rebuild() == ["api/index.json", "c/index.html", "c/index.json", "sitemap.xml"])
        #expect(!FileManager.default.fileExists(atPath: preview.output + "/c"))
        try preview.site.remove("content/b.md")
        #expect(throws: TesseraError.self, "index.md links to /b/") { try preview.rebuild() }
        #expect(FileManager.default.fileExists(atPath: preview.output + "/b/index.html"), "a failed rebuild keeps the last good output")
        try preview.site.write("content/b.md", "---\ntitle: Back\n---\n")
        #expect(try preview.rebuild() == ["api/index.json", "b/index.html", "b/index.json"], "the sitemap of the last good build already listed b; its title changed")
        try preview.expectSameAsFullBuild()
    }

    // MARK: What a watcher reports

    @Test func aBodyEditTheWatcherReportsRebuildsThatPageAloneWithoutReadingTheOthers() throws {
        var files = Self.site
        files["content/b.md"] = "---\ntitle: B\ncomponents:\n  - { component: note, message: Hi }\n---\nFirst words.\n"
        let preview = try Preview(files)
        try preview.rebuild()
        try preview.rebuild(changes: [])
        try preview.site.write("content/b.md", "---\ntitle: B\ncomponents:\n  - { component: note, message: Hi }\n---\nOther words, *emphasised*.\n")
        let (state, report) = try preview.run(changes: ["content/b.md"])
        #expect(state.changedOutputs == ["b/index.html", "b/index.json"], "the JSON index and the sitemap show front matter only")
        #expect(report.stepTimings.map(\.step) == ["edited pages"])
        #expect(preview.cache.statistics == .init(parsed: 1, parseReused: 0, mapped: 1, mapReused: 0, rendered: 1, renderReused: 0))
        let html = try #require(FileManager.default.contents(atPath: preview.output + "/b/index.html"))
        #expect(String(decoding: html, as: UTF8.self).contains("<em>emphasised</em>"))
        try preview.expectSameAsFullBuild()
    }

    @Test func aSectionsEditRebuildsThatPageAloneAndAQueryOrATitleTakesTheWholePipeline() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("content/b.md", "---\ntitle: B\ncomponents:\n  - { component: note, message: Changed }\n  - { component: course, title: New, progress: 0.25 }\n---\n")
        var (state, report) = try preview.run(changes: ["content/b.md"])
        #expect(report.stepTimings.map(\.step) == ["edited pages"])
        #expect(state.changedOutputs == ["b/index.html", "b/index.json"])
        try preview.expectSameAsFullBuild()
        // A key written after the sections moves with them; no list shows b, so b is all there is to make.
        try preview.site.write("content/b.md", "---\ncomponents:\n  - { component: note, message: Hi }\n  - { component: note, message: Two }\ntitle: B\n---\n")
        (state, report) = try preview.run(changes: ["content/b.md"])
        #expect(report.stepTimings.map(\.step) == ["edited pages"], "the title moved, its value did not")
        #expect(state.changedOutputs == ["b/index.html", "b/index.json"])
        try preview.expectSameAsFullBuild()
        try preview.site.write("content/c.md", "---\ntitle: C\nsections:\n  - query: { component: heading }\n---\n")
        (state, report) = try preview.run(changes: ["content/c.md"])
        #expect(report.stepTimings.count > 1, "a section that lists pages")
        try preview.expectSameAsFullBuild()
    }

    @Test func aFileTheWatcherDidNotReportIsNotReadAgainUntilItIs() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        // Proof that the watcher's word is taken: an unreported change is not seen...
        try preview.site.write("content/c.md", "---\ntitle: C\ncomponents:\n  - { component: heading, title: Unseen }\n---\n")
        #expect(try preview.rebuild(changes: []) == [])
        #expect(preview.cache.statistics.parseReused == 3)
        // ...and once reported, it is.
        #expect(try preview.rebuild(changes: ["content/c.md"]) == ["c/index.html", "c/index.json"])
        try preview.expectSameAsFullBuild()
    }

    @Test func frontMatterNewFilesAndFoldersTakeTheWholePipeline() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        // A title no list sorts by: the page and the JSON index that lists its title.
        try preview.site.write("content/b.md", "---\ntitle: B2\ncomponents:\n  - { component: note, message: Hi }\n---\n")
        var (state, report) = try preview.run(changes: ["content/b.md"])
        #expect(report.stepTimings.map(\.step) == ["edited pages"])
        #expect(state.changedOutputs == ["api/index.json", "b/index.html", "b/index.json"])
        try preview.expectSameAsFullBuild()
        // A date decides where a page is listed and what the sitemap says.
        try preview.site.write("content/b.md", "---\ntitle: B2\ndate: 2026-01-02\ncomponents:\n  - { component: note, message: Hi }\n---\n")
        (state, report) = try preview.run(changes: ["content/b.md"])
        #expect(report.stepTimings.count > 1)
        #expect(state.changedOutputs == ["api/index.json", "b/index.json", "sitemap.xml"], "the theme prints no date on b")
        try preview.expectSameAsFullBuild()
        try preview.site.write("content/d/e.md", "---\ntitle: E\n---\nNew.\n")
        #expect(try preview.rebuild(changes: ["content/d"]).contains("d/e/index.html"), "a new folder is listed again")
        try preview.site.remove("content/d")
        #expect(try preview.rebuild(changes: ["content/d"]).contains("d/e/index.html"), "and so is a removed one")
        try preview.expectSameAsFullBuild()
    }

    /// A title edit takes the whole pipeline, but a list page whose pages are the same, unchanged,
    /// keeps its view: only the list pages that show the edited page (or that it moved into or
    /// out of) are mapped again.
    @Test func aTitleEditMapsOnlyTheListPagesThatShowThePage() throws {
        var files: [String: String] = [
            "content/list.md": "---\ntitle: List\nsections:\n  - query: { under: posts, sort: title asc, paginate: 2, component: heading }\n---\n",
            "content/by-date.md": "---\ntitle: By date\nsections:\n  - query: { under: posts, sort: date desc, component: heading }\n---\n",
        ]
        for number in 1...8 { files["content/posts/p\(number).md"] = "---\ntitle: Post \(number)\ndate: 2026-11-0\(number)\n---\nBody \(number).\n" }
        let preview = try Preview(files)
        try preview.rebuild()
        // 8 posts, 4 pages of the list, the list by date, and the site's own page.
        let pages = preview.cache.statistics.mapped
        #expect(pages == 14)

        // Post 7 keeps its place in both lists: its page, the posts before and after it (their
        // "previous / next" links name it), the list page that shows it, and the list by date
        // are mapped again; the other three list pages and the other posts are kept.
        try preview.site.write("content/posts/p7.md", "---\ntitle: Post 7 renamed\ndate: 2026-11-07\n---\nBody 7.\n")
        var (state, _) = try preview.run(changes: ["content/posts/p7.md"])
        #expect(preview.cache.statistics.mapped == 5 && preview.cache.statistics.mapReused == pages - 5, "\(preview.cache.statistics)")
        #expect(state.changedOutputs.contains("list/page/4/index.html") && !state.changedOutputs.contains("list/page/2/index.html"), "\(state.changedOutputs)")
        try preview.expectSameAsFullBuild()

        // A new title that sorts first moves every post after it: every list page changes.
        try preview.site.write("content/posts/p7.md", "---\ntitle: A first post\ndate: 2026-11-07\n---\nBody 7.\n")
        (state, _) = try preview.run(changes: ["content/posts/p7.md"])
        #expect(preview.cache.statistics.mapped == 8, "p7, p6 and p8, the four list pages, the list by date: \(preview.cache.statistics)")
        #expect(try String(contentsOfFile: preview.output + "/list/index.html", encoding: .utf8).contains("A first post"))
        try preview.expectSameAsFullBuild()
    }

    @Test func aBrokenBodyFailsAndTheNextGoodSaveBuildsWhatAFullBuildWould() throws {
        let preview = try Preview(Self.site)
        try preview.rebuild()
        try preview.site.write("content/b.md", "---\ntitle: B\ncomponents:\n  - { component: note, message: Hi }\n---\nSee [this](missing.md).\n")
        #expect(throws: TesseraError.self) { try preview.rebuild(changes: ["content/b.md"]) }
        // Another page's body while b is broken: the full pipeline must still see b's error.
        try preview.site.write("content/c.md", "---\ntitle: C\ncomponents:\n  - { component: heading, title: C }\n---\nText.\n")
        #expect(throws: TesseraError.self) { try preview.rebuild(changes: ["content/c.md"]) }
        try preview.site.write("content/b.md", "---\ntitle: B\ncomponents:\n  - { component: note, message: Hi }\n---\nFixed.\n")
        #expect(try preview.rebuild(changes: ["content/b.md"]) == ["b/index.html", "b/index.json", "c/index.html", "c/index.json"])
        try preview.expectSameAsFullBuild()
    }
}
