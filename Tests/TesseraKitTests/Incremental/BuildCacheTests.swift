import Foundation
import Testing
@testable import TesseraKit

/// `tessera build` with its persistent cache (`.tessera/cache`): whatever changed between two
/// builds, the second writes exactly what a full build without the cache writes, and reuses as
/// much of the first as that allows.
@Suite struct BuildCacheTests {
    struct Site {
        let site: TemporarySite
        var buildDate = TemporarySite.buildDate

        init(_ files: [String: String]) throws {
            site = try TemporarySite(files)
        }

        var cache: String { site.root + "/.tessera/cache" }

        func options(cached: Bool, output: String) -> BuildOptions {
            var options = site.options()
            options.outputDirectory = output
            options.fallbackBuildDate = buildDate
            if cached { options.cacheDirectory = cache }
            return options
        }

        /// A build with the cache into public/.
        @discardableResult
        func build() throws -> BuildReport {
            try SiteBuilder(options: options(cached: true, output: site.output)).build()
        }

        /// The cached build's output must be byte-for-byte a full build's, and the cache must not
        /// leave anything of its own in the output.
        func expectSameAsFullBuild(sourceLocation: Testing.SourceLocation = #_sourceLocation) throws {
            let full = site.root + "/full-\(UUID().uuidString)"
            try SiteBuilder(options: options(cached: false, output: full)).build()
            let built = Self.allFiles(in: site.output), expected = Self.allFiles(in: full)
            #expect(built == expected, sourceLocation: sourceLocation)
            for path in expected where built.contains(path) {
                #expect(FileManager.default.contents(atPath: site.output + "/" + path) == FileManager.default.contents(atPath: full + "/" + path), "\(path)", sourceLocation: sourceLocation)
            }
            try FileManager.default.removeItem(atPath: full)
        }

        /// Every file below `folder`, hidden ones included.
        static func allFiles(in folder: String) -> [String] {
            let enumerator = FileManager.default.enumerator(atPath: folder)
            var files: [String] = []
            while let path = enumerator?.nextObject() as? String {
                var directory: ObjCBool = false
                if FileManager.default.fileExists(atPath: folder + "/" + path, isDirectory: &directory), !directory.boolValue { files.append(path) }
            }
            return files.sorted()
        }

        func modified(_ relative: String) throws -> Date {
            try FileManager.default.attributesOfItem(atPath: site.output + "/" + relative)[.modificationDate] as! Date
        }
    }

    static let files: [String: String] = [
        "site.yml": "title: Cached\ntheme: mini\nbaseURL: https://example.com/\n",
        "content/index.md": "---\ntitle: Home\ncomponents:\n  - { component: course, title: A, progress: 0.5, updated: 2026-11-20T12:00:00Z, link: /b/ }\n---\nHello.\n",
        "content/b.md": "---\ntitle: B\ndate: 2026-11-01\ntags: [one]\n---\nThe body of B, linking [C](c.md).\n",
        "content/c.md": "---\ntitle: C\ndate: 2026-11-02\ntags: [one, two]\n---\nThe body of C.\n",
        "content/d.md": "---\ntitle: D\n---\nThe body of D.\n",
        "content/list.md": "---\ntitle: List\nsections:\n  - query: { tags: [one], sort: date desc, paginate: 1, component: heading }\n---\n",
        "content/logo.txt": "a file beside the pages\n",
        "static/site.css": "body { color: black }\n",
    ]

    @Test func aSecondBuildWithNothingChangedWritesNothing() throws {
        let site = try Site(Self.files)
        let first = try site.build()
        #expect(!first.upToDate)
        let before = try site.modified("b/index.html")
        let second = try site.build()
        #expect(second.upToDate)
        #expect(second.pages == first.pages && second.files == first.files, "the summary counts what is there")
        #expect(second.summary().hasPrefix("Up to date: \(first.pages) pages and \(first.files - first.pages) other files"), "\(second.summary())")
        #expect(try site.modified("b/index.html") == before, "not rewritten")
        #expect(second.stepTimings.map(\.step).last == "compare with last build", "templates are not even loaded: \(second.stepTimings.map(\.step))")
        try site.expectSameAsFullBuild()
    }

    /// The record holds each output file's digest as `StableDigest.ofOutput` makes it from the
    /// bytes on disk; a build that updates the folder in place compares new bytes with it, and
    /// leaves a file whose bytes are the same as it was.
    @Test func theRecordHoldsEachOutputsDigestAndAnUpdateLeavesTheSameBytesAlone() throws {
        let site = try Site(Self.files)
        try site.build()
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".manifest") })
        let manifest = try #require(BuildManifest.read(site.cache + "/" + name))
        let recorded = manifest.files
        #expect(recorded.count > 10)
        for (path, record) in recorded {
            let data = try #require(FileManager.default.contents(atPath: site.site.output + "/" + path))
            #expect(record.digest == StableDigest.ofOutput(data) && record.size == data.count, "\(path)")
        }
        // The page records, made while the folder was finished, name the files it has: each
        // content page its HTML and JSON.
        let c = try #require(manifest.pages["/c/"])
        #expect(c.source == "content/c.md" && c.outputs == ["c/index.html", "c/index.json"] && c.html, "\(c)")
        for (url, page) in manifest.pages {
            #expect(!page.outputs.isEmpty && page.outputs.allSatisfy { recorded[$0] != nil }, "\(url): \(page.outputs)")
            #expect(page.html == page.outputs.contains { $0.hasSuffix(".html") }, "\(url)")
        }
        // A file written again is a new file renamed over the old one: another inode.
        func inode(_ relative: String) -> UInt64? { BuildManifest.FileRecord.current(site.site.output + "/" + relative)?.inode }
        let untouched = inode("c/index.html"), edited = inode("d/index.html")
        #expect(untouched != nil && edited != nil)
        // A new title: front matter, so the build updates the folder in place, page by page.
        try site.site.write("content/d.md", "---\ntitle: D again\n---\nThe body of D.\n")
        try site.build()
        #expect(inode("c/index.html") == untouched, "the same bytes: not written again")
        #expect(inode("d/index.html") != edited)
        try site.expectSameAsFullBuild()
    }

    /// The page records are written again as they were when no page's record changed, and lose
    /// the pages that are gone.
    @Test func thePageRecordsFollowThePages() throws {
        let site = try Site(Self.files)
        try site.build()
        func pages() throws -> [String: BuildManifest.PageRecord] {
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".manifest") })
            return try #require(BuildManifest.read(site.cache + "/" + name)).pages
        }
        let first = try pages()
        #expect(first["/d/"]?.source == "content/d.md" && first["/list/page/2/"]?.source == "content/list.md")
        try site.site.write("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nA new body for D.\n")
        #expect(try site.build().reusedPages > 0)
        #expect(try pages() == first)
        try FileManager.default.removeItem(atPath: site.site.root + "/content/d.md")
        try site.build()
        var expected = first
        expected["/d/"] = nil
        #expect(try pages() == expected)
        try site.expectSameAsFullBuild()
    }

    @Test func aTemplateBrokenAfterACachedBuildFailsTheNextBuildAndKeepsTheOutput() throws {
        let site = try Site(Self.files)
        try site.build()
        let before = try site.site.read("b/index.html")
        try site.site.write("themes/mini/layouts/page.mustache", "<title>{{#page.title}}</title>\n")
        #expect(throws: TesseraError.self) { try site.build() }
        #expect(try site.site.read("b/index.html") == before)
        try site.site.write("themes/mini/layouts/page.mustache", "<title>{{page.title}}</title><main>{{{content}}}{{{sections}}}</main>\n")
        try site.build()
        try site.expectSameAsFullBuild()
    }

    @Test func editingABodyRebuildsThatPageAndThePagesThatListIt() throws {
        let site = try Site(Self.files)
        try site.build()
        try site.site.write("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nA new body for D.\n")
        let report = try site.build()
        // Only d is built again: the list (a query, two pages) and the term pages show front
        // matter and summaries only (the first paragraph is unchanged).
        #expect(report.reusedPages == report.pages - 1 && report.pages == 9, "\(report.reusedPages) of \(report.pages)")
        #expect(site.site.exists("list/page/2/index.html"))
        #expect(try site.site.read("d/index.html").contains("A new body for D."))
        try site.expectSameAsFullBuild()
        // Changing a listed page's body still gives a full build's bytes.
        try site.site.write("content/b.md", "---\ntitle: B\ndate: 2026-11-01\ntags: [one]\n---\nThe body of B, linking [C](c.md).\n\nAnother body of B.\n")
        let again = try site.build()
        #expect(again.reusedPages == again.pages - 1)
        try site.expectSameAsFullBuild()
    }

    /// The loader tells the structure digest whether a page's front matter has a `summary` key,
    /// from its own parse, so the digest does not parse the front matter again. Over generated
    /// front matters (keys quoted or not, `summary` nested, in a block scalar, at the start of a
    /// quoted scalar's next line, null, or only in a longer key, with and without a body), the
    /// digest so told is the digest found alone, which cached builds compare it with.
    @Test func theLoadersSummaryAnswerGivesTheDigestFoundAlone() throws {
        let parser = PageParser(timeZone: TimeZone(identifier: "UTC")!)
        let summaries = ["summary: Given.", "\"summary\": Quoted key.", "'summary': Single.", "summary: ~", "summary:", "summary : Spaced.",
                         "summaryText: Longer key.", "params:\n  summary: Nested.", "description: |\n  summary: in a block", "note: \"a long\nsummary: inside\"",
                         "summary: [not, text]", "summary: >\n  Folded\n  text."]
        let others = ["title: T", "date: 2026-11-01", "tags: [a, b]", "summaryish: x", "# summary: a comment", "draft: false"]
        let bodies = ["", "One paragraph.\n", "First *words*.\n\n## A heading {#h}\n\nSee [it](#h).\n", "<!--more-->\nAfter.\n"]
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func pick(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) % n }
        var told = 0, hadKey = 0
        for _ in 0..<400 {
            var lines = (0..<pick(3)).map { _ in others[pick(others.count)] }
            if pick(4) > 0 { lines.insert(summaries[pick(summaries.count)], at: pick(lines.count + 1)) }
            let text = "---\n" + lines.joined(separator: "\n") + "\n---\n" + bodies[pick(bodies.count)]
            let data = Data(text.utf8), digest = StableDigest.of(data)
            let alone = IncrementalBuild.structureDigest(of: data, path: "content/p.md", whole: digest)
            guard let page = try? parser.parse(text: text, sourcePath: "/s/content/p.md", relativePath: "p.md") else { continue }
            let key = page.frontMatter.contains { $0.key == "summary" }
            told += 1
            if key { hadKey += 1 }
            #expect(IncrementalBuild.structureDigest(of: data, path: "content/p.md", whole: digest, summaryKey: key) == alone, "\(text)")
        }
        #expect(told > 250 && hadKey > 80 && told - hadKey > 80, "the front matters parse, with and without the key: \(told), \(hadKey)")
    }

    /// A site with every kind of file a build makes from the pages together: term pages, a
    /// paginated list with feeds and a redirect, the JSON of every page and its index.
    static let structured = files.merging([
        "site.yml": "title: Cached\ntheme: mini\nbaseURL: https://example.com/\noutputs: [html, json]\ntaxonomies:\n  tags: { paginate: 1, feeds: [rss] }\n",
        "content/list.md": "---\ntitle: List\nfeeds: [rss, atom, json]\naliases: [/everything/]\nsections:\n  - query: { tags: [one], sort: date desc, paginate: 1, component: heading }\n---\nThe list's own words.\n",
    ]) { _, new in new }

    /// A content file new to the record is read once, by the loader, and its digests are taken
    /// from that read: the record a first build leaves is the one a build that read every file
    /// itself would leave, and the next build keeps what it could keep after such a build.
    @Test func aFirstBuildRecordsTheDigestsOfTheFilesAsItLoadedThem() throws {
        let files = Self.structured.merging([
            "content/summarized.md": "---\ntitle: S\nsummary: Given here.\n---\nThe body, with [a link](#here).\n\n## A heading {#here}\n",
            "content/feed.yml": "title: Feed\ncomponents:\n  - { component: course, title: A, progress: 0.5, updated: 2026-11-20T12:00:00Z, link: /b/ }\n",
            "content/draft.md": "---\ntitle: Draft\ndraft: true\n---\nNot yet.\n",
            "content/Shout.MD": "---\ntitle: Shout\n---\nLoud.\n",
            "content/quoted.md": "---\ntitle: Q\n\"summary\": A quoted key.\n---\nThe body of Q.\n",
            "content/inside.md": "---\ntitle: \"A title\nsummary: in it\"\n---\nThe body of I.\n",
            "content/nested.md": "---\ntitle: N\nparams:\n  summary: Not the page's.\n---\nThe body of N.\n",
        ]) { _, new in new }
        let site = try Site(files)
        try site.build()
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".manifest") })
        let recorded = try #require(BuildManifest.read(site.cache + "/" + name))
        let content = files.keys.filter { $0.hasPrefix("content/") }.sorted()
        #expect(recorded.inputs.keys.filter { $0.hasPrefix("content/") }.sorted() == content)
        for path in content {
            let data = try #require(FileManager.default.contents(atPath: site.site.root + "/" + path))
            let digest = StableDigest.of(data)
            #expect(recorded.inputs[path]?.digest == digest, "\(path)")
            #expect(recorded.inputs[path]?.structure == IncrementalBuild.structureDigest(of: data, path: path, whole: digest), "\(path)")
        }
        // A body edit: the other page files' pages come from the stored parse (each found by the
        // digest recorded above), and the edit keeps the lists (found by the structure).
        try site.site.write("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nMore of D.\n")
        let (state, report) = try SiteBuilder(options: site.options(cached: true, output: site.site.output)).run()
        #expect(report.storedPages == content.count - 2, "every page file but the edited one (and the asset): \(report.storedPages)")
        #expect(state.keptStructure)
        try site.expectSameAsFullBuild()
    }

    /// A body edit after the last build's search documents were lost (the store removed, cut
    /// short, or missing a page): the kept pages without a document are made again, a list
    /// among them with what it lists, and the output is a full build's.
    @Test(arguments: ["removed", "cut short", "without the list"])
    func aBodyEditWithoutTheLastBuildsSearchDocumentsIsAFullBuilds(loss: String) throws {
        let site = try Site(Self.structured)
        try site.build()
        let store = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".search") })
        let path = site.cache + "/" + store
        switch loss {
        case "removed": try FileManager.default.removeItem(atPath: path)
        case "cut short": try Data(try #require(FileManager.default.contents(atPath: path)).prefix(40)).write(to: URL(fileURLWithPath: path))
        default:
            let documents = SearchStore.read(path)
            #expect(documents["/list/"] != nil, "\(documents.keys.sorted())")
            SearchStore.write(documents.values.filter { $0.url != "/list/" }, to: path)
        }
        try site.site.write("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nA new body for D.\n")
        try SiteBuilder(options: site.options(cached: true, output: site.site.output)).build()
        try site.expectSameAsFullBuild()
        #expect(try site.site.read("list/index.html").contains("C"))
    }

    /// Only bodies of pages that list none changed: the queries, feeds, redirects and JSON index
    /// are not made again but kept, and the folder is still a full build's, file for file.
    @Test func aBodyEditKeepsTheListsFeedsRedirectsAndIndexOfTheLastBuild() throws {
        let site = try Site(Self.structured)
        try site.build()
        for (path, text) in [
            ("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nA new body for D.\n"),
            // Listed by the list and the term page: they show its front matter and its summary (its
            // first paragraph, unchanged here), not the rest of its body.
            ("content/b.md", "---\ntitle: B\ndate: 2026-11-01\ntags: [one]\n---\nThe body of B, linking [C](c.md).\n\nAnother body of B, linking [the second page](/list/page/2/).\n"),
        ] {
            try site.site.write(path, text)
            let (state, report) = try SiteBuilder(options: site.options(cached: true, output: site.site.output)).run()
            #expect(state.keptStructure, "\(path)")
            let page = String(path.dropFirst("content/".count).dropLast(".md".count))
            // And the search index, which holds the body's words.
            #expect(Set(state.changedOutputs.filter { !$0.hasPrefix("search/") }) == ["\(page)/index.html", "\(page)/index.json"], "\(path): \(state.changedOutputs)")
            #expect(state.changedOutputs.contains("search/en/meta.json"), "\(state.changedOutputs)")
            #expect(!report.stepTimings.contains { $0.step == "feeds" && $0.seconds > 0.05 })
            let full = try SiteBuilder(options: site.options(cached: false, output: site.site.root + "/counted")).build()
            #expect(report.pages == full.pages && report.files == full.files, "\(report.pages)/\(report.files) against \(full.pages)/\(full.files)")
            try site.expectSameAsFullBuild()
        }
        // The list's own body is on each of its pages: the whole pipeline.
        try site.site.write("content/list.md", (Self.structured["content/list.md"] ?? "") + "More words.\n")
        let (state, _) = try SiteBuilder(options: site.options(cached: true, output: site.site.output)).run()
        #expect(!state.keptStructure)
        #expect(try site.site.read("list/page/2/index.html").contains("More words."))
        try site.expectSameAsFullBuild()
    }

    /// What would make a body edit reach other files takes the whole pipeline: feeds that carry
    /// bodies, and a last build that printed warnings (they are printed again).
    @Test func aBodyEditTakesTheWholePipelineWhenFeedsCarryBodiesOrTheLastBuildWarned() throws {
        let full = try Site(Self.structured.merging([
            "site.yml": "title: Cached\ntheme: mini\nbaseURL: https://example.com/\nfeeds: { content: full }\n",
        ]) { _, new in new })
        try full.build()
        try full.site.write("content/b.md", "---\ntitle: B\ndate: 2026-11-01\ntags: [one]\n---\nA body the feeds carry.\n")
        var (state, _) = try SiteBuilder(options: full.options(cached: true, output: full.site.output)).run()
        #expect(!state.keptStructure)
        #expect(try full.site.read("list/index.xml").contains("A body the feeds carry."))
        try full.expectSameAsFullBuild()

        let warned = try Site(Self.structured.merging([
            "content/e.md": "---\ntitle: E\ntittle: typo\n---\nE.\n",
        ]) { _, new in new })
        let first = try warned.build()
        #expect(!first.warnings.isEmpty, "a front matter key that looks like a typo")
        try warned.site.write("content/d.md", "---\ntitle: D\n---\nAnother body.\n")
        let report: BuildReport
        (state, report) = try SiteBuilder(options: warned.options(cached: true, output: warned.site.output)).run()
        #expect(!state.keptStructure)
        #expect(report.warnings.count == first.warnings.count)
        try warned.expectSameAsFullBuild()
    }

    @Test(arguments: [
        ("content/b.md", "---\ntitle: B renamed\ndate: 2026-11-01\ntags: [one]\n---\nThe body of B, linking [C](c.md).\n"),
        ("content/e.md", "---\ntitle: E\ntags: [two]\n---\nNew.\n"),
        // B links to C: C's new URL changes B's HTML though B's file did not change.
        ("content/c.md", "---\ntitle: C\nslug: sea\ndate: 2026-11-02\ntags: [one, two]\n---\nThe body of C.\n"),
        ("themes/mini/layouts/page.mustache", "<title>{{page.title}}!</title><main>{{{content}}}{{{sections}}}</main>\n"),
        ("site.yml", "title: Cached again\ntheme: mini\nbaseURL: https://example.com/\n"),
        ("static/site.css", "body { color: navy }\n"),
        ("content/logo.txt", "another file\n"),
        ("themes/mini/i18n/en.yml", "greeting: Hi\n"),
    ])
    func everyOtherChangeGivesAFullBuildsBytes(path: String, text: String) throws {
        let site = try Site(Self.files)
        try site.build()
        try site.site.write(path, text)
        let report = try site.build()
        #expect(!report.upToDate)
        if path != "content/e.md" { #expect(report.reusedPages == 0, "a front matter, theme, configuration or file change rebuilds every page") }
        try site.expectSameAsFullBuild()
    }

    @Test(arguments: ["\u{FEFF}", " "])
    func frontMatterIsSeenAsTheBuildReadsItWithAByteOrderMarkOrBlanks(_ prefix: String) throws {
        // The build reads front matter after a byte-order mark and around an indented `---`; the
        // cache must see the same front matter, or a title edit would keep stale lists.
        let site = try Site(Self.files.merging(["content/b.md": prefix + "---\ntitle: B\ndate: 2026-11-01\ntags: [one]\n---\nBody.\n"]) { _, new in new })
        try site.build()
        try site.site.write("content/b.md", prefix + "---\ntitle: B renamed\ndate: 2026-11-01\ntags: [one]\n---\nBody.\n")
        #expect(try site.build().reusedPages == 0)
        #expect(try site.site.read("list/page/2/index.html").contains("B renamed"), "the list's second page lists B")
        try site.expectSameAsFullBuild()
    }

    @Test func removingAPageRemovesItsFiles() throws {
        let site = try Site(Self.files)
        try site.build()
        #expect(site.site.exists("d/index.html") && site.site.exists("d/index.json"))
        try site.site.remove("content/d.md")
        try site.build()
        #expect(!site.site.exists("d/index.html") && !site.site.exists("d/index.json") && !site.site.exists("d"))
        try site.expectSameAsFullBuild()
    }

    @Test func filesChangedInTheOutputAreWrittenAgain() throws {
        let site = try Site(Self.files)
        try site.build()
        try Data("<p>edited by hand</p>".utf8).write(to: URL(fileURLWithPath: site.site.output + "/b/index.html"))
        try FileManager.default.removeItem(atPath: site.site.output + "/c/index.json")
        try Data("stray".utf8).write(to: URL(fileURLWithPath: site.site.output + "/stray.txt"))
        let report = try site.build()
        #expect(!report.upToDate)
        try site.expectSameAsFullBuild()
        #expect(!site.site.exists("stray.txt"), "the output folder holds what a build writes, as after a full build")
    }

    /// Folders unchanged for two seconds are not read again (their stamps are recorded), yet
    /// a file added to one or removed from one, in the output or in the content, is still seen.
    @Test func foldersLeftAloneAreNotReadAgainButAChangeInOneIsSeen() throws {
        let site = try Site(Self.files.merging(["content/notes/n.md": "---\ntitle: N\n---\nA note.\n"]) { _, new in new })
        try site.build()
        // Folders changed in the last two seconds are never trusted by their stamp.
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try site.build().upToDate)
        func manifest() throws -> BuildManifest {
            let name = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".manifest") })
            return try #require(BuildManifest.read(site.cache + "/" + name))
        }
        let recorded = try manifest()
        for folder in ["", "b", "c", "notes"] {
            #expect(recorded.outputFolders[folder].map { $0.changed != 0 } == true, "output folder '\(folder)' is trusted")
        }
        for folder in ["content", "content/notes", "themes/mini/layouts"] {
            #expect(recorded.inputFolders[folder].map { $0.changed != 0 } == true, "\(folder) is trusted")
        }
        // Nothing changed: the record is not written again.
        #expect(try site.build().upToDate)
        #expect(try manifest() == recorded)

        // Files edited in place leave their folder's stamp as it was: their own `stat` shows it.
        let b = try site.site.read("b/index.html")
        try Data("<p>edited by hand</p>".utf8).write(to: URL(fileURLWithPath: site.site.output + "/b/index.html"))
        #expect(try !site.build().upToDate)
        #expect(try site.site.read("b/index.html") == b)
        try site.expectSameAsFullBuild()
        try site.site.write("content/notes/n.md", "---\ntitle: N\n---\nA note, edited.\n")
        #expect(try !site.build().upToDate)
        #expect(try site.site.read("notes/n/index.html").contains("A note, edited."))
        try site.expectSameAsFullBuild()
        // The output was made again: wait until its folders are trusted once more.
        Thread.sleep(forTimeInterval: 2.1)
        #expect(try site.build().upToDate)
        #expect(try manifest().outputFolders["c"].map { $0.changed != 0 } == true)
        // A file slipped into an output folder: the output is rebuilt as a full build writes it.
        try Data("stray".utf8).write(to: URL(fileURLWithPath: site.site.output + "/c/stray.html"))
        #expect(try !site.build().upToDate)
        #expect(!site.site.exists("c/stray.html"))
        try site.expectSameAsFullBuild()
        // A new page in a content folder left alone since the record, then one removed.
        try site.site.write("content/notes/m.md", "---\ntitle: M\n---\nAnother note.\n")
        #expect(try !site.build().upToDate)
        #expect(try site.site.read("notes/m/index.html").contains("Another note."))
        try site.expectSameAsFullBuild()
        try site.site.remove("content/d.md")
        #expect(try !site.build().upToDate)
        #expect(!site.site.exists("d/index.html"))
        try site.expectSameAsFullBuild()
        // A new layout in the theme's folder.
        try site.site.write("themes/mini/layouts/note.mustache", "<p>{{page.title}}</p>\n")
        try site.site.write("content/notes/n.md", "---\ntitle: N\nlayout: note\n---\nA note.\n")
        try site.build()
        #expect(try site.site.read("notes/n/index.html") == "<p>N</p>\n")
        try site.expectSameAsFullBuild()
    }

    /// A record that does not say which highlighter wrote its pages (the `highlight` line gone)
    /// keeps no page: the next build makes every one.
    @Test func aRecordWithoutItsHighlighterKeepsNoPage() throws {
        let site = try Site(Self.files)
        try site.build()
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".manifest") })
        let text = try String(contentsOfFile: site.cache + "/" + name, encoding: .utf8)
        #expect(text.contains("\nhighlight\t0\n"), "no page of this site has code")
        try site.site.write("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nA new body for D.\n")
        try text.replacingOccurrences(of: "\nhighlight\t0\n", with: "\n").write(toFile: site.cache + "/" + name, atomically: true, encoding: .utf8)
        #expect(try site.build().reusedPages == 0)
        try site.expectSameAsFullBuild()
        // With the line, as the build just wrote it, the same edit keeps the other pages.
        try site.site.write("content/d.md", "---\ntitle: D\n---\nThe body of D.\n\nAnother body for D.\n")
        #expect(try site.build().reusedPages > 0)
    }

    @Test func theBuildRecordReadsBackAsItWasWritten() throws {
        var manifest = BuildManifest()
        manifest.output = "/tmp/out"
        manifest.environment = .max
        manifest.highlight = 0xFEED_FACE_CAFE_BEEF
        manifest.buildDate = 1_795_348_800.5
        manifest.inputs = [
            "content/a b%c\td.md": .init(size: 0, modified: 0, inode: 0, digest: .max, structure: 1),
            "content/é.md": .init(size: 1_234_567, modified: 1_795_348_800_123_456_789, inode: 0xDEAD_BEEF, digest: 0x0123_4567_89AB_CDEF, structure: 0xF),
        ]
        manifest.inputFolders = ["content": FolderStamp(inode: 42, modified: 1_795_348_800_000_000_001, changed: 1_795_348_800_000_000_002), "content/x y": FolderStamp(inode: 7, modified: 0, changed: 0)]
        manifest.outputFolders = ["": FolderStamp(inode: .max, modified: 9, changed: 10)]
        manifest.files = ["a b/index.html": .init(size: 10, modified: 11, inode: 12, digest: 13, structure: 0)]
        manifest.pages = ["/a b/": .init(source: "content/a b.md", outputs: ["a b/index.html", "a b/index.json"], assets: [], html: true)]
        manifest.languagePages = ["en": 2, "fr": 1]
        let path = NSTemporaryDirectory() + "manifest-\(UUID().uuidString)/build.manifest"
        try manifest.write(to: path)
        defer { try? FileManager.default.removeItem(atPath: (path as NSString).deletingLastPathComponent) }
        #expect(BuildManifest.read(path) == manifest)
        // No page written by a highlighter (0) reads back as such; an unknown one is left out and
        // reads back unknown, which no build matches.
        for highlight in [0, nil] as [UInt64?] {
            var other = manifest
            other.highlight = highlight
            try other.write(to: path)
            #expect(BuildManifest.read(path) == other)
        }
        try manifest.write(to: path)
        // A record cut short is no record.
        let data = try #require(FileManager.default.contents(atPath: path))
        try data.dropLast(4).write(to: URL(fileURLWithPath: path))
        #expect(BuildManifest.read(path) == nil)
    }

    /// A record of many pages, several times the writer's buffer of 1 MiB, reads back whole,
    /// and so does one that takes its pages' part from the last record's text.
    @Test func aLargeBuildRecordReadsBackAsItWasWritten() throws {
        var manifest = BuildManifest()
        manifest.output = "/tmp/out"
        for number in 0..<12_000 {
            let name = number % 7 == 0 ? "posts/é \(number)" : "posts/p\(number)"
            manifest.inputs["content/\(name).md"] = .init(size: number, modified: number * 1_000_003, inode: UInt64(number), digest: UInt64(number) &* 0x9E37_79B9_7F4A_7C15, structure: UInt64(number % 5))
            for suffix in ["index.html", "index.json"] {
                manifest.files["\(name)/\(suffix)"] = .init(size: number + 1, modified: number, inode: UInt64(number) << 3, digest: UInt64(number) &* 31, structure: 0)
            }
            manifest.pages["/\(name)/"] = .init(source: "content/\(name).md", outputs: ["\(name)/index.html", "\(name)/index.json"], assets: number % 2 == 0 ? ["assets/site.css"] : [], html: true)
        }
        let folder = NSTemporaryDirectory() + "manifest-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/build.manifest"
        try manifest.write(to: path)
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 3 << 20)
        #expect(BuildManifest.read(path) == manifest)
        // The pages' part as the last record wrote it.
        let text = try #require(FileManager.default.contents(atPath: path))
        let pagesText = text[try #require(text.range(of: Data("pages\n".utf8))).lowerBound...]
        let again = folder + "/again.manifest"
        try manifest.write(to: again, pagesText: Data(pagesText))
        #expect(FileManager.default.contents(atPath: again) == text)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).sorted() == ["again.manifest", "build.manifest"])
    }

    @Test func aDamagedOrForeignCacheIsIgnored() throws {
        let site = try Site(Self.files)
        try site.build()
        let manifests = try FileManager.default.contentsOfDirectory(atPath: site.cache).filter { $0.hasSuffix(".manifest") }
        #expect(manifests.count == 1)
        let manifest = site.cache + "/" + manifests[0]
        var text = try String(contentsOfFile: manifest, encoding: .utf8)
        // Cut in the middle: no "end" line.
        try String(text.prefix(text.count / 2)).write(toFile: manifest, atomically: true, encoding: .utf8)
        try site.site.write("content/d.md", "---\ntitle: D\n---\nChanged.\n")
        #expect(try site.build().reusedPages == 0)
        try site.expectSameAsFullBuild()
        // Another Tessera version's cache is never read.
        text = try String(contentsOfFile: manifest, encoding: .utf8)
        try text.replacingOccurrences(of: "\t\(Tessera.version)\n", with: "\t0.0.0-other\n").write(toFile: manifest, atomically: true, encoding: .utf8)
        #expect(!(try site.build().upToDate))
        try site.expectSameAsFullBuild()
        // Deleting the cache is always safe.
        try FileManager.default.removeItem(atPath: site.site.root + "/.tessera")
        #expect(!(try site.build().upToDate))
        try site.expectSameAsFullBuild()
        #expect(try String(contentsOfFile: site.site.root + "/.tessera/.gitignore", encoding: .utf8).contains("\n*\n"), "git ignores the cache")
    }

    @Test func relativeDatesAreCheckedAgainstTheNewBuildDate() throws {
        var site = try Site(Self.files)
        try site.build()
        #expect(try site.site.read("index.html").contains("2 days ago"))
        // A minute later every relative date reads the same: nothing to do.
        site.buildDate = TemporarySite.buildDate.addingTimeInterval(60)
        #expect(try site.build().upToDate)
        try site.expectSameAsFullBuild()
        // A week later "2 days ago" is "last week": that page is built again.
        site.buildDate = TemporarySite.buildDate.addingTimeInterval(7 * 86_400)
        #expect(!(try site.build().upToDate))
        #expect(!(try site.site.read("index.html").contains("2 days ago")))
        try site.expectSameAsFullBuild()
    }

    @Test func aFuturePageIsPublishedWhenItsDateComes() throws {
        var site = try Site(Self.files.merging(["content/later.md": "---\ntitle: Later\ndate: 2026-11-25\n---\nSoon.\n"]) { _, new in new })
        let first = try site.build()
        #expect(first.skippedFuture == 1 && !site.site.exists("later/index.html"))
        site.buildDate = TemporarySite.buildDate.addingTimeInterval(3600)
        #expect(try site.build().upToDate, "still before its date")
        site.buildDate = TemporarySite.buildDate.addingTimeInterval(5 * 86_400)
        try site.build()
        #expect(site.site.exists("later/index.html"))
        try site.expectSameAsFullBuild()
    }

    @Test func templatesThatPrintTheBuildDateAreRebuiltAtEachNewDate() throws {
        var site = try Site(Self.files.merging(["themes/mini/layouts/page.mustache": "<title>{{page.title}}</title><footer>{{site.buildDate.iso}}</footer>{{{content}}}{{{sections}}}\n"]) { _, new in new })
        try site.build()
        site.buildDate = TemporarySite.buildDate.addingTimeInterval(60)
        #expect(!(try site.build().upToDate))
        try site.expectSameAsFullBuild()
    }

    @Test func aBuildWithWarningsIsNeverSkippedSoTheyArePrintedAgain() throws {
        let site = try Site(Self.files.merging([
            "site.yml": "title: Cached\ntheme: mini\ni18n: { missingTranslations: warning }\nlanguages: [en, fr]\n",
            "themes/mini/i18n/en.yml": "greeting: Hi\n",
            "content/d.fr.md": "---\ntitle: D\n---\nEn français.\n",
            "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title>{{#t}}greeting{{/t}}{{{content}}}{{{sections}}}\n",
        ]) { _, new in new })
        let first = try site.build()
        guard !first.warnings.isEmpty else {
            Issue.record("the fixture should warn about the missing French string")
            return
        }
        let second = try site.build()
        #expect(!second.upToDate)
        #expect(second.warnings.count == first.warnings.count)
        try site.expectSameAsFullBuild()
    }

    @Test func theOutputMayNotBeTheCacheFolder() throws {
        let site = try Site(Self.files)
        var options = site.options(cached: true, output: site.site.root + "/.tessera")
        options.cacheDirectory = site.cache
        #expect(throws: TesseraError.self) { try SiteBuilder(options: options).build() }
        options.outputDirectory = site.cache + "/out"
        #expect(throws: TesseraError.self) { try SiteBuilder(options: options).build() }
    }

    @Test func aSequenceOfEditsAlwaysMatchesAFullBuild() throws {
        // A small random walk over edits, with a fixed seed: every step is compared.
        let site = try Site(Self.files)
        var generator = SeededGenerator(seed: 7)
        let edits: [(String, String)] = [
            ("content/d.md", "---\ntitle: D\n---\nBody one.\n"),
            ("content/d.md", "---\ntitle: D\n---\nBody two, with [B](b.md).\n"),
            ("content/c.md", "---\ntitle: C\ndate: 2026-11-02\ntags: [two]\n---\nThe body of C.\n"),
            ("content/f.md", "---\ntitle: F\ntags: [one]\n---\nF.\n"),
            ("content/b.md", "---\ntitle: B\ndate: 2026-11-01\ntags: [one]\n---\nShorter.\n"),
            ("static/site.css", "body { color: red }\n"),
        ]
        try site.build()
        for _ in 0..<10 {
            let (path, text) = edits[Int(generator.next() % UInt64(edits.count))]
            try site.site.write(path, text)
            try site.build()
            try site.expectSameAsFullBuild()
        }
    }
}

/// SplitMix64, for reproducible sequences.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
