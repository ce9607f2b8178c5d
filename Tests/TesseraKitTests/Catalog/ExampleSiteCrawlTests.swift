import Foundation
import Testing
@testable import TesseraKit

/// The example site written to disk and read back like a visitor and a feed reader would: every
/// internal link and asset of every page resolves to a file, the blog, tags, feeds, sitemap and
/// menu are all there, and every feed parses cleanly.
@Suite struct ExampleSiteCrawlTests {
    static let output: String = {
        let folder = ExampleSite.temporaryDirectory("tessera-crawl")
        _ = try? ExampleSite.build(writingTo: folder)
        return folder
    }()

    static func files(withSuffix suffix: String) -> [String] {
        (FileManager.default.enumerator(atPath: output)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(suffix) }.sorted()
    }

    /// `href="…"` and `src="…"` values of a page (and the `srcset` candidates).
    static func references(in html: String) -> [String] {
        var found: [String] = []
        for attribute in ["href=\"", "src=\""] {
            for piece in html.components(separatedBy: attribute).dropFirst() {
                if let end = piece.firstIndex(of: "\"") { found.append(String(piece[..<end])) }
            }
        }
        return found
    }

    /// The file a root-relative URL is served from (`/blog/` → `blog/index.html`), nil if none.
    static func target(of reference: String) -> String? {
        var path = reference.replacingOccurrences(of: "&amp;", with: "&")
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = String(path[..<cut]) }
        path = path.removingPercentEncoding ?? path
        let file = output + path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: file, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { return FileManager.default.fileExists(atPath: file + "/index.html") ? file + "/index.html" : nil }
        return file
    }

    @Test func everyInternalLinkOfEveryPageResolves() throws {
        let pages = Self.files(withSuffix: ".html")
        try #require(pages.count > 60, "the example site has its blog, tags and languages")
        var broken: [String] = []
        var checked = 0
        for page in pages {
            let html = try String(contentsOfFile: Self.output + "/" + page, encoding: .utf8)
            for reference in Self.references(in: html) {
                if reference.hasPrefix("#") || reference.hasPrefix("mailto:") { continue }
                if reference.hasPrefix("https://example.com/") {
                    // Absolute links of this site (canonical, hreflang) must resolve too.
                    if Self.target(of: String(reference.dropFirst("https://example.com".count))) == nil { broken.append("\(page): \(reference)") }
                    checked += 1
                    continue
                }
                if reference.contains("://") { continue }
                #expect(reference.hasPrefix("/"), "\(page) links \(reference) relative to itself")
                if Self.target(of: reference) == nil { broken.append("\(page): \(reference)") }
                checked += 1
            }
        }
        #expect(broken.isEmpty, "broken links:\n\(broken.joined(separator: "\n"))")
        #expect(checked > 1_000)
    }

    @Test func theBlogIsPaginatedByTenWithTagPagesAndTheMainMenu() throws {
        let posts = try FileManager.default.contentsOfDirectory(atPath: Repository.root + "/content/blog").filter { $0.hasSuffix(".md") && $0 != "index.md" }
        let published = try posts.filter { !(try String(contentsOfFile: Repository.root + "/content/blog/" + $0, encoding: .utf8)).contains("\ndraft: true") }
        #expect(published.count >= 25)
        let pageCount = (published.count + 9) / 10
        for number in 1...pageCount {
            let path = number == 1 ? "blog/index.html" : "blog/page/\(number)/index.html"
            let html = try String(contentsOfFile: Self.output + "/" + path, encoding: .utf8)
            let cards = html.components(separatedBy: "card--article-thumb").count - 1
            #expect(cards == (number < pageCount ? 10 : published.count - 10 * (pageCount - 1)), "\(path) has \(cards) posts")
            #expect(html.contains("class=\"pagination\""))
        }
        #expect(!FileManager.default.fileExists(atPath: Self.output + "/blog/page/\(pageCount + 1)/index.html"))
        let home = try String(contentsOfFile: Self.output + "/index.html", encoding: .utf8)
        #expect(home.contains("class=\"main-menu\"") && home.contains("card--article-top-image"))
        let tags = try String(contentsOfFile: Self.output + "/tags/index.html", encoding: .utf8)
        #expect(tags.components(separatedBy: "chip--term").count - 1 >= 5)
        #expect(FileManager.default.fileExists(atPath: Self.output + "/sitemap.xml"))
        #expect(try String(contentsOfFile: Self.output + "/sitemap.xml", encoding: .utf8).contains("<loc>https://example.com/blog/page/2/</loc>"))
    }

    @Test(.enabled(if: FeedTests.hasFeedparser, "needs Python's feedparser (make test installs it)"))
    func everyFeedOfTheSiteParsesCleanly() throws {
        let feeds = Self.files(withSuffix: "index.xml") + Self.files(withSuffix: "atom.xml")
        try #require(feeds.count >= 10, "the blog, the guides and every tag publish feeds: \(feeds)")
        for feed in feeds {
            let parsed = try FeedTests.parse(Self.output + "/" + feed)
            #expect(!parsed.bozo, "\(feed) is not well-formed")
            #expect(!parsed.titles.isEmpty && parsed.titles.allSatisfy { !$0.isEmpty }, "\(feed) has titled entries")
            for link in parsed.links {
                #expect(link.hasPrefix("https://example.com/") && Self.target(of: String(link.dropFirst("https://example.com".count))) != nil, "\(feed) links \(link)")
            }
        }
        for feed in Self.files(withSuffix: "feed.json") {
            let parsed = try FeedTests.readJSONFeed(Self.output + "/" + feed)
            #expect(!parsed.bozo, "\(feed) breaks a JSON Feed 1.1 MUST")
        }
    }
}
