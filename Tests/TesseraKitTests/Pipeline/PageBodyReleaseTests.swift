import Foundation
import Testing
@testable import TesseraKit

/// A build lets each page's Markdown go once the page is made (`BuildOptions.keepsPageBodies`):
/// it writes the same bytes as one that keeps every body, lets go of every body it may, and
/// keeps those something reads later.
@Suite struct PageBodyReleaseTests {
    static func parsed(_ body: String) throws -> Page {
        try PageParser(timeZone: TimeZone(identifier: "UTC")!)
            .parse(text: "---\ntitle: A\n---\n" + body, sourcePath: "/site/content/a.md", relativePath: "a.md")
    }

    /// Every copy of a page has the same body: letting it go from one lets it go from all, a
    /// copy changed in another field included, and each still has the word count.
    @Test func copiesShareTheBodyAndKeepItsWordCount() throws {
        let page = try Self.parsed("One two three, four's *five*.\n")
        var changed = page
        changed.title = "B"
        let copy = page
        // Nobody asked for the count before: it is counted as the text goes.
        copy.releaseBody()
        #expect(page.bodyIsReleased && changed.bodyIsReleased && copy.bodyIsReleased)
        #expect([page.wordCount, changed.wordCount, copy.wordCount] == [Int](repeating: 5, count: 3))
        // A body set afterwards is that page's own.
        var rewritten = changed
        rewritten.body = "Six seven.\n"
        #expect(!rewritten.bodyIsReleased && rewritten.body == "Six seven.\n" && rewritten.wordCount == 2)
        #expect(page.bodyIsReleased)
    }

    @Test func aCountAskedBeforeIsTheOneKept() throws {
        let page = try Self.parsed("日本語 and more words\n")
        let counted = page.wordCount
        #expect(counted == MarkdownText.wordCount(page.body))
        page.releaseBody()
        #expect(page.wordCount == counted)
        // A generated page counts no words, whatever its body.
        var generated = try Self.parsed("Some words here\n")
        generated.countsBodyWords = false
        generated.releaseBody()
        #expect(generated.wordCount == 0 && generated.bodyIsReleased)
    }

    /// A blog with a paginated list that has a body of its own (its pages share it and each
    /// renders it), tag pages, feeds, page JSON, search, code, and reading times.
    static func blog(configuration: String = "") throws -> TemporarySite {
        var files: [String: String] = [
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/\nbuildDate: 2026-11-22T12:00:00Z\ntaxonomies: [tags]\nsearch: true\n" + configuration,
            "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title><p>{{page.wordCount}} {{#page.readingTime}}{{page.readingTime}} min{{/page.readingTime}}</p><main>{{{content}}}{{{sections}}}</main>\n",
            "themes/mini/components/thumb.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  summary: { type: text }\n  link: { type: link }\n",
            "themes/mini/components/thumb.mustache": "<a href=\"{{link}}\">{{title}}</a> {{summary}}",
            "content/blog/index.md": "---\ntitle: Blog\nfeeds: [rss, atom, json]\nsections:\n  - query: { under: blog, sort: date desc, paginate: 2, component: thumb }\n---\nThe *blog's* own introduction, on every page of it.\n",
        ]
        for day in 1...5 {
            let code = day % 2 == 0 ? "\n```swift\nlet day = \(day)\n```\n" : ""
            files["content/blog/post-\(day).md"] = "---\ntitle: Post \(day)\ndate: 2026-01-0\(day)\ntags: [t\(day % 2)]\n---\n"
                + String(repeating: "Word number \(day) is here. ", count: day * 40) + "\n" + code
        }
        return try TemporarySite(files)
    }

    static func built(_ site: TemporarySite, keepingBodies: Bool, into folder: String) throws -> BuiltSite {
        var options = site.options()
        options.outputDirectory = site.root + "/" + folder
        options.keepsPageBodies = keepingBodies
        return try SiteBuilder(options: options).run().site
    }

    static func sameOutput(_ site: TemporarySite, _ a: String, _ b: String) -> [String] {
        let (x, y) = (OutputSafetyTests.snapshot(site.root + "/" + a), OutputSafetyTests.snapshot(site.root + "/" + b))
        return Set(x.keys).union(y.keys).filter { x[$0] != y[$0] }.sorted()
    }

    @Test func lettingBodiesGoWritesTheSameSite() throws {
        let site = try Self.blog()
        let kept = try Self.built(site, keepingBodies: true, into: "kept")
        let released = try Self.built(site, keepingBodies: false, into: "released")
        #expect(Self.sameOutput(site, "kept", "released") == [])
        #expect(try String(contentsOfFile: site.root + "/released/blog/post-5/index.html", encoding: .utf8).contains("<p>1,000 4 min</p>"))
        #expect(try String(contentsOfFile: site.root + "/released/blog/page/2/index.html", encoding: .utf8).contains("introduction, on every page"))
        #expect(kept.pages.allSatisfy { !$0.bodyIsReleased })
        // Every page with a body lets it go, but the pages of the paginated list, which share one.
        let withBodies = released.pages.filter { $0.bodyIsReleased || !$0.fields.body.text.isEmpty }
        #expect(withBodies.count >= 8)
        for page in withBodies {
            #expect(page.bodyIsReleased == (page.pagination == nil), "\(page.url)")
        }
        #expect(released.pages.filter { $0.pagination != nil }.count == 3)
    }

    /// Feeds with full content render each listed page's body after the pages are made: a
    /// build with them keeps every body, and its feeds carry them.
    @Test func fullContentFeedsKeepTheBodies() throws {
        let site = try Self.blog(configuration: "feeds: { content: full }\n")
        let kept = try Self.built(site, keepingBodies: true, into: "kept")
        let released = try Self.built(site, keepingBodies: false, into: "released")
        #expect(Self.sameOutput(site, "kept", "released") == [])
        #expect(released.pages.allSatisfy { !$0.bodyIsReleased } && kept.pages.count == released.pages.count)
        #expect(try String(contentsOfFile: site.root + "/released/blog/feed.json", encoding: .utf8).contains("Word number 5 is here."))
    }

    /// The example site, built as `tessera build` builds it and keeping every body.
    @Test func theExampleSiteIsTheSameWithBodiesLetGo() throws {
        let released = ExampleSite.temporaryDirectory("tessera-released"), kept = ExampleSite.temporaryDirectory("tessera-kept")
        defer { try? FileManager.default.removeItem(atPath: released); try? FileManager.default.removeItem(atPath: kept) }
        for (folder, keeps) in [(released, false), (kept, true)] {
            var options = BuildOptions(sourceDirectory: Repository.root, outputDirectory: folder, buildDate: nil, fallbackBuildDate: Date(timeIntervalSince1970: 0))
            options.keepsPageBodies = keeps
            let site = try SiteBuilder(options: options).run().site
            #expect(site.pages.contains(where: \.bodyIsReleased) == !keeps)
        }
        let a = OutputSafetyTests.snapshot(released), b = OutputSafetyTests.snapshot(kept)
        #expect(a.count > 100)
        #expect(Set(a.keys).union(b.keys).filter { a[$0] != b[$0] }.sorted() == [])
    }
}
