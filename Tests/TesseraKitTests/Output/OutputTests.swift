import Foundation
import Testing
@testable import TesseraKit

@Suite struct OutputTests {
    @Test func prettyURLsStaticFilesAndContentAssets() throws {
        let site = try TemporarySite([
            "content/guides/intro.md": "---\ntitle: Intro\n---\n",
            "content/guides/cover.svg": "<svg/>",
            "themes/mini/static/css/site.css": "body{}",
            "static/css/site.css": "body{color:red}",
            "static/robots.txt": "User-agent: *",
        ])
        let report = try site.build()
        #expect(site.exists("index.html"))
        #expect(site.exists("guides/intro/index.html"))
        #expect(try site.read("guides/cover.svg") == "<svg/>")
        #expect(try site.read("css/site.css") == "body{color:red}", "the site's static file overrides the theme's")
        #expect(site.exists("robots.txt"))
        #expect(report.pages == 2)
        #expect(report.files == 17, "2 pages and their JSON, sitemap.xml, the site's own robots.txt (not a generated one), a CSS file, an image, the API's index, schema and site, and the search index (meta, filters, a file of pages, three shards)")
        #expect(site.exists("search/en/meta.json") && site.exists("search/en/docs/0.json"))
    }

    @Test func aFailedBuildLeavesThePreviousOutputUntouched() throws {
        let site = try TemporarySite([:])
        try site.build()
        let before = try site.read("index.html")
        try site.write("content/index.md", "---\ncomponents:\n  - component: nope\n---\n")
        try site.write("content/new.md", "---\ntitle: New\n---\n")
        #expect(throws: TesseraError.self) { try site.build() }
        #expect(try site.read("index.html") == before)
        #expect(!site.exists("new/index.html"))
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: site.root).filter { $0.hasPrefix(".tessera") }
        #expect(leftovers.isEmpty)
    }

    @Test func aSuccessfulBuildReplacesStaleFiles() throws {
        let site = try TemporarySite(["content/old.md": "---\ntitle: Old\n---\n"])
        try site.build()
        #expect(site.exists("old/index.html"))
        try site.remove("content/old.md")
        try site.build()
        #expect(!site.exists("old/index.html"))
    }

    @Test func refusesToReplaceTheSiteItself() throws {
        let site = try TemporarySite([:])
        var options = site.options()
        options.outputDirectory = site.root
        #expect(throws: TesseraError.self) { try SiteBuilder(options: options).build() }
        #expect(FileManager.default.fileExists(atPath: site.root + "/site.yml"))
    }

    @Test func draftsAreLeftOutUnlessAsked() throws {
        let site = try TemporarySite(["content/wip.md": "---\ndraft: true\n---\n"])
        let report = try site.build()
        #expect(report.skippedDrafts == 1)
        #expect(!site.exists("wip/index.html"))
        #expect(report.summary().contains("1 draft left out"))
        try site.build(drafts: true)
        #expect(site.exists("wip/index.html"))
    }

    @Test func sameInputSameBytes() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ncomponents:\n  - { component: course, title: A, progress: 0.5, updated: 2026-11-20 }\n---\n",
        ])
        try site.build()
        let first = try site.read("index.html")
        try site.build()
        #expect(try site.read("index.html") == first)
        #expect(first.contains("2 days ago"), "relative to site.yml's buildDate, not the clock")
    }

    @Test func emptySiteYAMLBuildsWithDefaults() throws {
        var files = TemporarySite.baseFiles
        files["site.yml"] = ""
        files["themes/default/theme.yml"] = ""
        for (path, text) in TemporarySite.baseFiles where path.hasPrefix("themes/mini/") && path != "themes/mini/theme.yml" {
            files[path.replacingOccurrences(of: "themes/mini/", with: "themes/default/")] = text
        }
        files["themes/default/shells/plain.mustache"] = "{{{body}}}"
        let site = try TemporarySite([:], base: files, theme: nil)
        let report = try site.build()
        #expect(report.pages == 1)
    }
}
