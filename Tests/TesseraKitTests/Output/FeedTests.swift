import Foundation
import Testing
@testable import TesseraKit

/// RSS 2.0, Atom 1.0 and JSON Feed 1.1, read back by a real feed parser (Python's `feedparser`,
/// which `make test` installs).
@Suite struct FeedTests {
    /// On CI (`CI=true`) the feed tests always run: a missing parser fails them instead of skipping.
    static let hasFeedparser = Tools.hasPythonModule("feedparser")

    struct Parsed: Decodable {
        var bozo: Bool
        var version: String
        var title: String
        var titles: [String]
        var links: [String]
        var contents: [String]
    }

    static func parse(_ path: String) throws -> Parsed {
        let script = """
            import feedparser, json, sys
            d = feedparser.parse(sys.argv[1])
            print(json.dumps({"bozo": bool(d.bozo), "version": d.version, "title": d.feed.get("title", ""),
                "titles": [e.get("title", "") for e in d.entries], "links": [e.get("link", "") for e in d.entries],
                "contents": [(e.get("content") or [{"value": e.get("summary", "")}])[0]["value"] for e in d.entries]}))
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, path]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return try JSONDecoder().decode(Parsed.self, from: data)
    }

    /// feedparser 6 reads no JSON Feed, so this checks what JSON Feed 1.1 says an item and a feed
    /// MUST have (version, title, items; each item an id and content_html or content_text) and
    /// reads the rest the way feedparser reports it.
    static func readJSONFeed(_ path: String) throws -> Parsed {
        let object = try JSONSerialization.jsonObject(with: try Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
        let items = object["items"] as? [[String: Any]] ?? []
        let valid = object["version"] as? String == "https://jsonfeed.org/version/1.1" && object["title"] is String && object["items"] is [Any]
            && items.allSatisfy { ($0["id"] as? String)?.isEmpty == false && ($0["content_html"] is String || $0["content_text"] is String) }
            && (object["feed_url"] as? String).map { URL(string: $0)?.scheme == "https" } == true
        return Parsed(
            bozo: !valid, version: valid ? "json11" : "", title: object["title"] as? String ?? "",
            titles: items.map { $0["title"] as? String ?? "" }, links: items.map { $0["url"] as? String ?? "" },
            contents: items.map { $0["content_html"] as? String ?? $0["content_text"] as? String ?? "" })
    }

    static func site(feeds: String = "[rss, atom, json]", configuration: String = "feeds: { content: full, limit: 2 }\n", baseURL: String = "https://example.com/news/") throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: News & Notes\ntheme: mini\nbaseURL: \(baseURL)\nbuildDate: 2026-11-22T12:00:00Z\n" + configuration,
            "themes/mini/layouts/page.mustache": "<head>{{#page.feeds}}<link rel=\"alternate\" type=\"{{type}}\" title=\"{{title}}\" href=\"{{url}}\">{{/page.feeds}}</head><main>{{{content}}}{{{sections}}}</main>",
            "themes/mini/components/entry.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  link: { type: link }\n",
            "themes/mini/components/entry.mustache": "<a href=\"{{link}}\">{{title}}</a>",
            "content/blog/index.md": "---\ntitle: The <Blog>\nfeeds: \(feeds)\nsections:\n  - query: { under: blog, component: entry }\n---\n",
            "content/blog/one.md": "---\ntitle: One & only\ndate: 2026-11-01T10:00:00Z\ntags: [swift]\nsummary: The first.\n---\nSee [two](@/blog/two.md) and ![x](/img.png).\n",
            "content/blog/two.md": "---\ntitle: Two\ndate: 2026-11-05\n---\nSecond *post*.\n",
            "content/blog/three.md": "---\ntitle: Three\ndate: 2026-10-01\n---\nOld.\n",
            "static/img.png": TestImages.png(40, 30),
        ])
    }

    @Test(.enabled(if: hasFeedparser, "needs Python's feedparser (make test installs it)"))
    func everyFormatParsesCleanlyWithEveryEntry() throws {
        let site = try Self.site()
        try site.build()
        for (file, version) in [("index.xml", "rss20"), ("atom.xml", "atom10"), ("feed.json", "json11")] {
            let parsed = file == "feed.json" ? try Self.readJSONFeed(site.output + "/blog/" + file) : try Self.parse(site.output + "/blog/" + file)
            #expect(!parsed.bozo, "\(file) parses without errors")
            #expect(parsed.version == version)
            #expect(parsed.title == "The <Blog> · News & Notes", "the list's title and the site's")
            #expect(parsed.titles == ["Two", "One & only"], "\(file): newest first, limit 2")
            #expect(parsed.links == ["https://example.com/news/blog/two/", "https://example.com/news/blog/one/"])
            #expect(parsed.contents[1].contains("href=\"https://example.com/news/blog/two/\""), "\(file): links are absolute: \(parsed.contents[1])")
            // The image's fallback (a PNG of its size), and every candidate of its WebP sizes, absolute.
            #expect(parsed.contents[1].contains("src=\"https://example.com/news/img.") && parsed.contents[1].contains(".40x30.png\""), "\(parsed.contents[1])")
            #expect(!parsed.contents[1].contains("srcset=\"/"), "\(parsed.contents[1])")
        }
        let head = try site.read("blog/index.html")
        #expect(head.contains("<link rel=\"alternate\" type=\"application/rss+xml\" title=\"RSS\" href=\"/news/blog/index.xml\">"))
        #expect(head.contains("<link rel=\"alternate\" type=\"application/feed+json\" title=\"JSON Feed\" href=\"/news/blog/feed.json\">"))
    }

    @Test(.enabled(if: hasFeedparser, "needs Python's feedparser (make test installs it)"))
    func summariesByDefault() throws {
        let site = try Self.site(feeds: "[atom]", configuration: "")
        try site.build()
        let parsed = try Self.parse(site.output + "/blog/atom.xml")
        #expect(!parsed.bozo)
        #expect(parsed.titles == ["Two", "One & only", "Three"])
        // Pages without `summary:` are summarized by their first paragraph.
        #expect(parsed.contents == ["Second post.", "The first.", "Old."])
        #expect(!site.exists("blog/index.xml"), "only the formats asked for")
    }

    /// A feed carries its list's first entries, and is as new as the newest page of the whole
    /// list, in whatever order the list is.
    @Test func aFeedIsAsNewAsTheNewestPageItListsBeyondItsLimit() throws {
        let site = try Self.site(feeds: "[atom]", configuration: "feeds: { limit: 1 }\n")
        try site.write("content/blog/index.md", "---\ntitle: The <Blog>\nfeeds: [atom]\nsections:\n  - query: { under: blog, sort: title, component: entry }\n---\n")
        try site.build()
        let atom = try site.read("blog/atom.xml")
        #expect(atom.components(separatedBy: "<entry>").count == 2, "one entry")
        #expect(atom.contains("<title>One &amp; only</title>"), "the first by title")
        #expect(atom.contains("<updated>2026-11-05T00:00:00Z</updated>"), "Two, beyond the limit, is the newest: \(atom)")
    }

    @Test func datesAreRFC822AndRFC3339() {
        let date = Date(timeIntervalSince1970: 1_793_613_600) // 2026-11-02T10:00:00Z
        #expect(FeedWriter.rfc822(date) == "Mon, 02 Nov 2026 10:00:00 +0000")
        #expect(FeedWriter.rfc3339(date) == "2026-11-02T10:00:00Z")
        // 0600-01-01T12:00:00Z, a Wednesday (proleptic Gregorian); four-digit year as RFC 5322 asks.
        #expect(FeedWriter.rfc822(Date(timeIntervalSince1970: Double(-500_382 * 86_400 + 43_200))) == "Wed, 01 Jan 0600 12:00:00 +0000")
    }

    /// RFC 822 dates by arithmetic are what the format style wrote before, every few hours of 1601-2400.
    @Test func rfc822MatchesTheFormatStyleFrom1601() {
        let style = Date.VerbatimFormatStyle(
            format: "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) +0000",
            locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "UTC")!, calendar: Calendar(identifier: .gregorian))
        var seconds = -11_644_473_600.0
        while seconds < 13_569_465_600 {
            let date = Date(timeIntervalSince1970: seconds)
            if FeedWriter.rfc822(date) != style.format(date) { Issue.record("\(seconds): \(FeedWriter.rfc822(date)) ≠ \(style.format(date))"); break }
            seconds += 5 * 86_400 + 7_777.5
        }
    }

    @Test func mistakesAreLocatedErrors() throws {
        #expect(try Self.site(feeds: "[rss, atm]").diagnostics() == ["content/blog/index.md:3:8: error: unknown feed format 'atm'\n    hint: did you mean 'atom'?"])
        #expect(try Self.site(baseURL: "/news/").diagnostics() == ["content/blog/index.md:3:8: error: feeds need an absolute baseURL: feed readers cannot follow a path alone\n    hint: set `baseURL: https://your.domain/` in site.yml"])
        let noQuery = try TemporarySite(["site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/\n", "content/about.md": "---\ntitle: About\nfeeds: [rss]\n---\n"])
        #expect(noQuery.diagnostics().first?.hasPrefix("content/about.md:3:8: error: 'feeds' lists the pages of the page's query sections, and this page has none") == true)
    }
}

@Suite struct RFC3339Tests {
    @Test func matchesFoundationsISO8601FormatStyle() {
        var generator = SeededGenerator(seed: 42)
        // From 1601 on: before, the format style counts days in the Julian calendar
        // (`ProlepticCalendarTests` checks those days against independently computed numbers).
        var dates = [0, -1, 1, 86_399, 86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_399, 1_795_348_800.75, -0.25, 253_402_300_799, -11_644_473_600]
            .map { Date(timeIntervalSince1970: $0) }
        for _ in 0..<2000 { dates.append(Date(timeIntervalSince1970: Double(generator.next() % 8_000_000_000) - 2_000_000_000 + Double(generator.next() % 1000) / 1000)) }
        for date in dates {
            #expect(FeedWriter.rfc3339(date) == date.formatted(.iso8601), "\(date.timeIntervalSince1970)")
        }
    }
}
