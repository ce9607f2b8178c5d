import Foundation
import Testing
@testable import TesseraKit

/// The pages the build cache keeps between builds (`StoredPages`): what it gives back is the page
/// the parser made, field for field, and only for the bytes it was parsed from.
@Suite struct StoredPagesTests {
    static func encoded(_ pages: [Page]) -> [UInt8] {
        var encoder = PageEncoder(sourcePath: pages.first?.sourcePath ?? "")
        encoder.pages(pages)
        return encoder.bytes + [0xFF] + encoder.bodies
    }

    static func roundTrip(_ pages: [Page]) throws -> [Page] {
        var encoder = PageEncoder(sourcePath: pages.first?.sourcePath ?? "")
        encoder.pages(pages)
        let bytes = encoded(pages)
        let decoded = try encoder.bytes.withUnsafeBytes { bytes in
            try encoder.bodies.withUnsafeBytes { bodies in
                var decoder = PageDecoder(bytes, bodies: bodies, sourcePath: pages.first?.sourcePath ?? "")
                let decoded = try decoder.pages()
                #expect(decoder.atEnd)
                return decoded
            }
        }
        // Bit for bit, for values that are not equal to themselves (a NaN number).
        #expect(encoded(decoded) == bytes)
        return decoded
    }

    /// Every page of the example site and of the test fixtures comes back equal.
    @Test func everyPageOfTheExampleSiteAndTheFixturesComesBackEqual() throws {
        let configuration = try SiteConfiguration.load(from: Repository.root)
        let parser = PageParser(timeZone: configuration.timeZone, languages: configuration.languages, permalinks: configuration.permalinks)
        var count = 0
        for folder in [Repository.root + "/content", Repository.root + "/Tests/TesseraKitTests/Fixtures"] {
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let relative = enumerator?.nextObject() as? String {
                guard PageParser.contentExtensions.contains(PathText.pathExtension(relative).lowercased()),
                      let text = try? FileTree.readText(folder + "/" + relative),
                      let page = try? parser.parse(text: text, sourcePath: folder + "/" + relative, relativePath: relative) else { continue }
                let decoded = try Self.roundTrip([page])
                // A NaN number is not equal to itself: its page is checked bit for bit only.
                if !String(reflecting: page.fields).contains("nan") { #expect(decoded == [page], "\(relative)") }
                count += 1
            }
        }
        #expect(count > 40, "the example site alone has more pages than \(count)")
    }

    /// A page with every field set, every kind of front matter value and places in other files.
    @Test func aPageWithEveryFieldSetComesBackEqual() throws {
        let file = "/site/content/blog/été.md"
        let here = SourceLocation(file: file, line: 3, column: 7)
        let elsewhere = SourceLocation(file: "/site/site.yml", line: 12, column: 1)
        var text = ContentNode(.string("Un été « chaud » 🌞"), at: here)
        text.textStart = SourceLocation(file: file, line: 4, column: 3)
        text.textIndent = 3
        let values: [ContentNode] = [
            ContentNode(.null, at: here), ContentNode(.bool(true), at: here), ContentNode(.int(-9_223_372_036_854_775_807), at: here),
            ContentNode(.int(Int.max), at: here), ContentNode(.double(-0.1), at: here), ContentNode(.double(.infinity), at: here),
            text, ContentNode(.timestamp("2026-11-24T10:00:00+01:00"), at: elsewhere),
        ]
        let map = ContentNode(.map(values.enumerated().map { .init(key: "k\($0.offset)", keyLocation: here, value: $0.element) }), at: here)
        let entries: [ContentNode.Entry] = [
            .init(key: "list", keyLocation: here, value: ContentNode(.list(values + [map]), at: here)),
            .init(key: "map", keyLocation: elsewhere, value: map),
        ]
        let component = ComponentUse(code: "stat", codeLocation: here, fields: entries, location: elsewhere, id: "first")
        var query = PageQuery(component: "card", componentLocation: here, location: here)
        query.under = "blog"
        query.data = "courses"
        query.recursive = false
        query.tags = ["swift", "ios"]
        query.language = "all"
        query.sortKey = "title"
        query.sortGiven = true
        query.order = .ascending
        query.limit = 3
        query.paginate = 2
        query.paginateLocation = here
        query.termFilter = .init(key: "tags", terms: ["a", "b"])
        query.group = .month
        query.matches = [.init(key: "course", values: ["swift-basics"]), .init(key: "level", values: ["a", "b"])]
        query.fields = entries
        let section = PageSection(
            id: "main", layout: "grid", layoutLocation: here, header: component, items: [component, component], footer: component,
            examples: ["notice"], examplesLocation: elsewhere, query: query, location: here)
        var child = MenuEntry(titles: ["": "Child"], link: nil, weight: -2, parent: "Top", identifier: "child", icon: nil, language: nil, location: elsewhere)
        child.children = []
        let menu = MenuEntry(
            titles: ["": "Top", "fr": "Haut"], link: "@/blog/index.md", weight: 3, parent: nil, identifier: "top", icon: "home",
            children: [child], language: "fr", location: here)

        var page = Page(sourcePath: file, relativePath: "blog/été.md", kind: .markdown, url: "/blog/ete/", layoutLocation: here)
        page.title = "Été"
        page.date = Date(timeIntervalSinceReferenceDate: 815_000_000.123_456)
        page.dateHasTime = true
        page.draft = true
        page.expires = Date(timeIntervalSince1970: -1)
        page.aliases = [.init(url: "/old/", location: here)]
        page.slug = "ete"
        page.layout = "article"
        page.layoutIsExplicit = true
        page.isGenerated = true
        page.pagination = .init(number: 2, total: 5, firstURL: "/blog/", section: 1, size: 10)
        page.language = "fr"
        page.translationKey = "blog/summer"
        page.tags = ["été", "swift"]
        page.menus = [.init(menu: "main", entry: menu)]
        page.feeds = [.rss, .json]
        page.feedsLocation = here
        page.summary = "Résumé"
        page.frontMatter = entries
        page.params = [entries[1]]
        page.sections = [section, PageSection(layout: "list", layoutLocation: here, items: [], location: here)]
        page.body = "# Titre\n\nDu texte\u{0}avec un nul, et des\ttabulations.\n"
        page.bodyLine = 42
        page.countsBodyWords = true
        page.outputs = ["html", "json"]
        let plain = Page(sourcePath: file, relativePath: "b.md", kind: .feed, url: "/b/", layoutLocation: elsewhere)

        let decoded = try Self.roundTrip([page, plain])
        #expect(decoded == [page, plain])
        // The file every place shares is one string, not one per place.
        #expect(decoded[0].layoutLocation.file == file && decoded[1].layoutLocation.file == "/site/site.yml")
    }

    /// Adding a field to a page's types without storing it fails here (the round trips above
    /// would then compare equal pages only by luck).
    @Test func theEncodingCoversEveryStoredField() {
        let here = SourceLocation(file: "f")
        let node = ContentNode(.null, at: here)
        let use = ComponentUse(code: "c", codeLocation: here, fields: [], location: here)
        let query = PageQuery(component: "c", componentLocation: here, location: here)
        let menu = MenuEntry(titles: [:], link: nil, weight: 0, parent: nil, identifier: "", icon: nil, language: nil, location: here)
        let page = Page(sourcePath: "f", relativePath: "f", kind: .markdown, url: "/", layoutLocation: here)
        let samples: [String: Any] = [
            "Fields": page.fields, "ContentNode": node, "Entry": ContentNode.Entry(key: "k", keyLocation: here, value: node),
            "SourceLocation": here, "PageSection": PageSection(layout: "list", layoutLocation: here, items: [], location: here),
            "ComponentUse": use, "PageQuery": query, "TermFilter": PageQuery.TermFilter(key: "", terms: []), "Match": PageQuery.Match(key: "", values: []), "MenuEntry": menu,
            "MenuMembership": Page.MenuMembership(menu: "", entry: menu), "Alias": Page.Alias(url: "", location: here),
            "Pagination": Page.Pagination(number: 1, total: 1, firstURL: "/", section: 0, size: 1),
        ]
        #expect(Set(samples.keys) == Set(PageEncoder.fieldCounts.keys))
        for (name, sample) in samples {
            #expect(Mirror(reflecting: sample).children.count == PageEncoder.fieldCounts[name], "\(name) has fields the encoding does not know")
        }
    }

    /// Bytes cut short or changed are refused, never read as some other page.
    @Test func bytesCutShortAreRefused() throws {
        var page = Page(sourcePath: "/s/a.md", relativePath: "a.md", kind: .markdown, url: "/a/", layoutLocation: SourceLocation(file: "/s/a.md"))
        page.title = "A"
        page.tags = ["x", "y"]
        page.body = "Body\n"
        var encoder = PageEncoder(sourcePath: "/s/a.md")
        encoder.pages([page])
        let bytes = encoder.bytes
        func decoded(_ bytes: [UInt8], bodies: [UInt8]) -> [Page]? {
            bytes.withUnsafeBytes { raw in
                bodies.withUnsafeBytes { bodies in
                    var decoder = PageDecoder(raw, bodies: bodies, sourcePath: "/s/a.md")
                    return (try? decoder.pages()).flatMap { decoder.atEnd ? $0 : nil }
                }
            }
        }
        #expect(decoded(bytes, bodies: encoder.bodies) == [page])
        for length in 0..<bytes.count {
            #expect(decoded(Array(bytes[0..<length]), bodies: encoder.bodies) == nil, "a prefix of \(length) of \(bytes.count) bytes")
        }
        // A body that is not where the page says: refused, not read from elsewhere.
        for length in 0..<encoder.bodies.count {
            #expect(decoded(bytes, bodies: Array(encoder.bodies[0..<length])) == nil, "bodies cut to \(length) bytes")
        }
    }

    // MARK: Through builds

    static let files: [String: String] = [
        "site.yml": "title: Stored\ntheme: mini\ntimeZone: Europe/Paris\n",
        "content/index.md": "---\ntitle: Home\nsections:\n  - query: { sort: title asc, component: heading }\n---\nHello.\n",
        "content/b.md": "---\ntitle: B\ndate: 2026-11-01 10:00\ntags: [one]\n---\nThe body of B.\n",
        "content/c.md": "---\ntitle: C\ndate: 2026-11-02\n---\nThe body of C.\n",
        "content/feed.yml": "title: Feed\ncomponents:\n  - { component: course, title: A, progress: 0.5, updated: 2026-11-20T12:00:00Z, link: /b/ }\n",
        "content/draft.md": "---\ntitle: Draft\ndraft: true\n---\nNot yet.\n",
    ]

    @Test func unchangedFilesArePagesFromTheCacheAndTheOutputIsAFullBuilds() throws {
        let site = try BuildCacheTests.Site(Self.files)
        let first = try site.build()
        #expect(first.storedPages == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.cache).contains { $0.hasSuffix(".pages") })

        try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nA new body for C.\n")
        let second = try site.build()
        // Five page files: c is parsed again, the draft and the other three come from the cache.
        #expect(second.storedPages == 4, "\(second.storedPages)")
        #expect(try site.site.read("c/index.html").contains("A new body for C."))
        try site.expectSameAsFullBuild()

        // A title edit (a full rebuild of the pages) still takes unchanged files from the cache.
        try site.site.write("content/b.md", "---\ntitle: B2\ndate: 2026-11-01 10:00\ntags: [one]\n---\nThe body of B.\n")
        let third = try site.build()
        #expect(third.storedPages == 4, "c's new version was stored: \(third.storedPages)")
        #expect(try site.site.read("index.html").contains("B2"))
        try site.expectSameAsFullBuild()

        // The draft is published: its page is built from the stored parse.
        var options = site.options(cached: true, output: site.site.output)
        options.includeDrafts = true
        let drafts = try SiteBuilder(options: options).build()
        #expect(drafts.storedPages == 5)
        #expect(site.site.exists("draft/index.html"))
    }

    @Test func aRemovedOrBrokenFileLeavesTheCacheAndANewFileIsParsed() throws {
        let site = try BuildCacheTests.Site(Self.files)
        try site.build()
        try FileManager.default.removeItem(atPath: site.site.root + "/content/c.md")
        try site.site.write("content/e.md", "---\ntitle: E\n---\nNew.\n")
        let report = try site.build()
        #expect(report.storedPages == 4, "\(report.storedPages)")
        #expect(!site.site.exists("c/index.html") && site.site.exists("e/index.html"))
        try site.expectSameAsFullBuild()

        // A file that no longer parses fails the build, whose other pages are still stored; the
        // file mended is parsed again.
        try site.site.write("content/b.md", "---\ntitle: [unclosed\n---\n")
        #expect(throws: TesseraError.self) { try site.build() }
        #expect(try FileManager.default.contentsOfDirectory(atPath: site.cache).allSatisfy { !$0.contains(".tmp") })
        try site.site.write("content/b.md", "---\ntitle: B\ndate: 2026-11-01 10:00\ntags: [one]\n---\nMended.\n")
        let mended = try site.build()
        #expect(mended.storedPages == 4, "\(mended.storedPages)")
        #expect(try site.site.read("b/index.html").contains("Mended."))
        try site.expectSameAsFullBuild()
    }

    @Test func anotherTimeZoneOrEngineParsesEveryFileAgain() throws {
        var files = Self.files
        let site = try BuildCacheTests.Site(files)
        try site.build()
        #expect(try site.build().upToDate)
        files["site.yml"] = "title: Stored\ntheme: mini\ntimeZone: America/New_York\n"
        try site.site.write("site.yml", files["site.yml"]!)
        let report = try site.build()
        #expect(report.storedPages == 0, "dates parse in the site's time zone: \(report.storedPages)")
        try site.expectSameAsFullBuild()
        try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nAgain.\n")
        #expect(try site.build().storedPages == 4)
        try site.expectSameAsFullBuild()
    }

    /// The bodies files beside the stored pages, by generation.
    static func bodiesFiles(_ site: BuildCacheTests.Site) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.cache).filter { $0.contains(".bodies-") }.sorted()
    }

    /// A body edit appends the new body to the bodies file instead of writing every body again;
    /// once most of the file is bodies no page uses, the next generation holds the used ones
    /// alone and the last one goes. Every build's output is a full build's.
    @Test func bodiesAreAppendedUntilMostAreStaleThenWrittenAnew() throws {
        let site = try BuildCacheTests.Site(Self.files)
        try site.build()
        let first = try #require(try Self.bodiesFiles(site).first)
        #expect(try Self.bodiesFiles(site) == [first])
        var sizes: [Int] = []
        var generations: [[String]] = []
        // 300 KB bodies: the fourth or fifth makes stale bodies most of the file.
        for round in 0..<8 {
            let body = String(repeating: "Round \(round) of a long body. ", count: 10_000)
            try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\n\(body)\n")
            let report = try site.build()
            #expect(report.storedPages == 4, "round \(round): \(report.storedPages)")
            #expect(try site.site.read("c/index.html").contains("Round \(round) of"))
            try site.expectSameAsFullBuild()
            let files = try Self.bodiesFiles(site)
            generations.append(files)
            #expect(files.count == 1, "one bodies file at a time: \(files)")
            sizes.append(try FileManager.default.attributesOfItem(atPath: site.cache + "/" + files[0])[.size] as! Int)
        }
        // Appended while the same generation lasts; a new generation starts small again.
        #expect(Set(generations.map { $0[0] }).count >= 2, "\(generations)")
        for round in 1..<sizes.count where generations[round] == generations[round - 1] {
            #expect(sizes[round] > sizes[round - 1], "round \(round) appends: \(sizes)")
        }
        // At most twice the bodies in use and a megabyte (and the body being added).
        let inUse = sizes.min()!
        #expect(sizes.max()! <= 3 * inUse + (1 << 20), "stale bodies do not pile up: \(sizes)")
    }

    /// Bodies cut short or gone: nothing is taken from the stored pages; bytes after the end the
    /// table knows (a save cut short) are left alone and the next save appends after them.
    @Test func aDamagedBodiesFileIsIgnored() throws {
        let site = try BuildCacheTests.Site(Self.files)
        try site.build()
        let bodies = site.cache + "/" + (try #require(try Self.bodiesFiles(site).first))
        let whole = try Data(contentsOf: URL(fileURLWithPath: bodies))
        try (whole + Data("left by a save cut short".utf8)).write(to: URL(fileURLWithPath: bodies))
        try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nAfter the extra bytes.\n")
        #expect(try site.build().storedPages == 4)
        try site.expectSameAsFullBuild()
        for damage in ["cut", "gone"] {
            let current = site.cache + "/" + (try #require(try Self.bodiesFiles(site).first))
            if damage == "cut" {
                try Data(contentsOf: URL(fileURLWithPath: current)).prefix(10).write(to: URL(fileURLWithPath: current))
            } else {
                try FileManager.default.removeItem(atPath: current)
            }
            try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nBodies \(damage).\n")
            #expect(try site.build().storedPages == 0, "bodies \(damage)")
            try site.expectSameAsFullBuild()
            #expect(try site.build().upToDate)
        }
        try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nWhole again.\n")
        #expect(try site.build().storedPages == 4)
        try site.expectSameAsFullBuild()
    }

    @Test func aDamagedCacheFileIsIgnoredAndReplaced() throws {
        let site = try BuildCacheTests.Site(Self.files)
        try site.build()
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: site.cache).first { $0.hasSuffix(".pages") })
        let path = site.cache + "/" + name
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        var otherFormat = whole
        otherFormat[7] = 99
        // Cut short (as by a full disk), of another format, not ours at all, empty.
        for damaged in [whole.prefix(whole.count / 2), whole.prefix(whole.count - 1), otherFormat, Data("not pages".utf8), Data()] {
            try damaged.write(to: URL(fileURLWithPath: path))
            try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nBody \(UUID()).\n")
            let report = try site.build()
            #expect(report.storedPages == 0, "nothing is taken from a damaged file")
            try site.expectSameAsFullBuild()
        }
        try site.site.write("content/c.md", "---\ntitle: C\ndate: 2026-11-02\n---\nOnce more.\n")
        #expect(try site.build().storedPages == 4, "the file was written again whole")
        try site.expectSameAsFullBuild()
    }
}
