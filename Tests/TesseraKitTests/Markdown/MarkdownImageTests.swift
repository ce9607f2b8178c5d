import Foundation
import Testing
@testable import TesseraKit

/// Images in a page's Markdown get their file's pixel size and, but for the first, lazy
/// loading; their titles and alt text stay as cmark writes them.
@Suite struct MarkdownImageTests {
    /// A PNG header of 3 × 2 pixels: all `ImageSize` reads.
    /// The site of images copied as they are (`images.process: false`): what these tests check
    /// (ImageProcessingTests checks the images Tessera makes sizes of).
    static let unprocessed = "title: Test Site\nbuildDate: 2026-11-22T12:00:00Z\ntheme: mini\nimages: { process: false }\n"

    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0, 0, 0, 0, 0])

    @Test func imagesGetTheirSizeAndAllButTheFirstLoadLazily() throws {
        let site = try TemporarySite([
            "content/index.md": """
                ---
                title: Home
                ---
                ![First *one*](/a.png)

                ![Second](/a.png "A \\"quoted\\" <title>")

                ![Far](https://example.com/far.png) and ![unsized](/notes.txt)
                """,
            "static/notes.txt": "not an image\n",
            "site.yml": Self.unprocessed,
        ])
        try Self.png.write(to: URL(fileURLWithPath: site.root + "/static/a.png"))
        try SiteBuilder(options: site.options()).build()
        let html = try String(contentsOfFile: site.output + "/index.html", encoding: .utf8)
        #expect(html.contains("<p><img src=\"/a.png\" alt=\"First one\" width=\"3\" height=\"2\" /></p>"), "\(html)")
        #expect(html.contains("<p><img src=\"/a.png\" alt=\"Second\" title=\"A &quot;quoted&quot; &lt;title&gt;\" width=\"3\" height=\"2\" loading=\"lazy\" /></p>"), "\(html)")
        #expect(html.contains("<img src=\"https://example.com/far.png\" alt=\"Far\" loading=\"lazy\" /> and <img src=\"/notes.txt\" alt=\"unsized\" loading=\"lazy\" />"), "\(html)")
        #expect(!html.contains("\u{3}") && !html.contains("\u{4}"))
    }

    @Test func aCachedBuildAfterAnImageChangesItsSizeIsAFullBuild() throws {
        let site = try TemporarySite(["content/index.md": "---\ntitle: Home\n---\n![a](/a.png)\n", "content/b/index.md": "---\ntitle: B\n---\n![a](a.png)\n", "static/keep.txt": "a file\n", "site.yml": Self.unprocessed])
        try Self.png.write(to: URL(fileURLWithPath: site.root + "/static/a.png"))
        try Self.png.write(to: URL(fileURLWithPath: site.root + "/content/b/a.png"))
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: options).build()
        // 7 × 5 pixels now, in static/ and beside the content.
        var wider = Self.png
        wider[19] = 7
        wider[23] = 5
        try wider.write(to: URL(fileURLWithPath: site.root + "/static/a.png"))
        try wider.write(to: URL(fileURLWithPath: site.root + "/content/b/a.png"))
        try SiteBuilder(options: options).build()
        #expect(try String(contentsOfFile: site.output + "/index.html", encoding: .utf8).contains("width=\"7\" height=\"5\""))
        #expect(try String(contentsOfFile: site.output + "/b/index.html", encoding: .utf8).contains("width=\"7\" height=\"5\""))
        #expect(try site.differencesFromAFullBuild() == [])
    }

    @Test func markdownWithoutAPageIsCmarksOwn() throws {
        #expect(try MarkdownRenderer().html("![a](/a.png \"t\") ![b](/b.png)") == "<p><img src=\"/a.png\" alt=\"a\" title=\"t\" /> <img src=\"/b.png\" alt=\"b\" /></p>\n")
    }
}
