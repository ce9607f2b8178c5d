import Foundation
import Testing
@testable import TesseraKit

/// `{{#picture}}…{{/picture}}`: images no field or Markdown shows (a logo, a hero of the
/// theme), made into sizes and formats by the same pipeline, through real builds.
@Suite struct PictureHelperTests {
    static func site(layout: String, files: [String: String] = [:], configuration: String = "") throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: T\nbuildDate: 2026-11-22T12:00:00Z\ntheme: mini\n" + configuration,
            "themes/mini/layouts/page.mustache": layout,
            "themes/mini/static/brand/logo.png": TestImages.png(600, 300),
            "static/images/team.png": TestImages.png(1000, 800),
            "content/index.md": "---\ntitle: R&D\n---\nHome.\n",
        ].merging(files) { _, new in new })
    }

    /// The made files of the output folder `folder`, by name.
    static func made(_ site: TemporarySite, in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.output + "/" + folder).filter { $0.split(separator: ".").count == 4 }.sorted()
    }

    @Test func aTemplatePicturesAnImageOfTheSiteOrItsThemeWithItsOptionsAndFilledInTags() throws {
        let site = try Self.site(layout: """
            <header>{{#picture}}/brand/logo.png alt="{{site.title}} logo" widths="100 200" loading=eager{{/picture}}</header>
            {{#picture}}
              /images/team.png alt="The {{page.title}} team" sizes="(min-width: 40rem) 50vw, 100vw" ratio=16:9 focus=top class='wide photo'
            {{/picture}}
            """)
        try site.build()
        let html = try site.read("index.html")
        let logos = try Self.made(site, in: "brand")
        #expect(logos.count == 3, "100 and 200 wide in WebP, and the PNG fallback at 200: \(logos)")
        let logoWebP = logos.filter { $0.hasSuffix(".webp") }
        #expect(html.contains("<header><picture><source type=\"image/webp\" srcset=\"/brand/\(logoWebP.first { $0.contains(".100x50.") } ?? "?") 100w, /brand/\(logoWebP.first { $0.contains(".200x100.") } ?? "?") 200w\" sizes=\"100vw\">"), "\(html)")
        // Filled in, unescaped, then escaped once; eager: no loading attribute.
        #expect(html.contains("alt=\"T logo\" width=\"200\" height=\"100\" decoding=\"async\""), "\(html)")
        let team = try Self.made(site, in: "images")
        #expect(team.contains { $0.hasSuffix(".960x540.webp") } && team.contains { $0.hasSuffix(".320x180.webp") }, "cropped to 16:9 at every width it has pixels for: \(team)")
        #expect(html.contains("sizes=\"(min-width: 40rem) 50vw, 100vw\""))
        #expect(html.contains("alt=\"The R&amp;D team\" class=\"wide photo\" width=\"960\" height=\"540\" loading=\"lazy\" decoding=\"async\""), "\(html)")
        for name in logos { #expect(html.contains("/brand/\(name)"), "\(name) is written and linked") }
    }

    @Test func remoteSVGAndUnprocessedImagesAreLinkedAsTheyAre() throws {
        let layout = """
            {{#picture}}https://example.com/far.png alt="Far"{{/picture}}
            {{#picture}}/icon.svg alt=""{{/picture}}
            {{#picture}}/images/team.png alt="Team"{{/picture}}
            """
        let svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"48\" height=\"32\"><rect width=\"48\" height=\"32\"/></svg>"
        let site = try Self.site(layout: layout, files: ["static/icon.svg": svg])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<img src=\"https://example.com/far.png\" alt=\"Far\" loading=\"lazy\" decoding=\"async\">"), "\(html)")
        #expect(html.contains("<img src=\"/icon.svg\" alt=\"\" width=\"48\" height=\"32\" loading=\"lazy\" decoding=\"async\">"), "\(html)")
        #expect(html.contains("<picture>"))

        let plain = try Self.site(layout: layout, files: ["static/icon.svg": svg], configuration: "images: { process: false }\n")
        try plain.build()
        let copied = try plain.read("index.html")
        #expect(copied.contains("<img src=\"/images/team.png\" alt=\"Team\" width=\"1000\" height=\"800\" loading=\"lazy\" decoding=\"async\">"), "\(copied)")
        #expect(try Self.made(plain, in: "images").isEmpty)
    }

    @Test func badCallsAreErrorsAtTheirTag() throws {
        let cases: [(call: String, expected: [String])] = [
            ("{{#picture}}/images/team.png{{/picture}}", ["has no alt text", "alt=\"\" for a decorative image"]),
            ("{{#picture}}/images/teem.png alt=\"x\"{{/picture}}", ["{{#picture}} names no file"]),
            ("{{#picture}}/images/team.png alt=\"x\" size=\"50vw\"{{/picture}}", ["has no option 'size'", "did you mean 'sizes'"]),
            ("{{#picture}}/images/team.png alt=\"x\" ratio=wide{{/picture}}", ["ratio=\"wide\" is not a ratio"]),
            ("{{#picture}}/images/team.png alt=\"x\" widths=\"320 big\"{{/picture}}", ["is not a list of widths"]),
            ("{{#picture}}/images/team.png alt=\"x\" loading=soon{{/picture}}", ["loading=\"soon\""]),
            ("{{#picture}}/images/team.png alt=\"x{{/picture}}", ["has no closing \""]),
            ("{{#picture}}/content/index.md alt=\"x\"{{/picture}}", ["names no file"]),
            ("{{#picture}}/site.css alt=\"x\"{{/picture}}", ["/site.css is not an image"]),
        ]
        for (call, expected) in cases {
            let site = try Self.site(layout: "<main>\n  <p>" + call + "</p>\n</main>\n", files: ["static/site.css": "body{}"])
            let diagnostics = site.diagnostics()
            let joined = diagnostics.joined(separator: "\n")
            #expect(diagnostics.first?.hasPrefix("themes/mini/layouts/page.mustache:2:6: error:") == true, "\(call): \(joined)")
            for text in expected { #expect(joined.contains(text), "\(call): \(joined)") }
            #expect(!site.exists("index.html"), "a failed build writes nothing")
        }
    }

    @Test func cachedBuildsKeepAndRemakeTemplatePicturesAsAFullBuildWould() throws {
        let site = try Self.site(layout: "{{{content}}}{{#picture}}/images/team.png alt=\"Team\"{{/picture}}", files: [
            "content/other.md": "---\ntitle: Other\n---\nOther.\n",
        ])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        func build() throws { try SiteBuilder(options: options).build() }
        try build()
        let first = try Self.made(site, in: "images")
        #expect(first.count == 4, "320, 640 and 960 in WebP (1000 is within a tenth of 960), and the PNG fallback: \(first)")
        // A body edit keeps every other page: the pictures of the kept pages stay.
        try site.write("content/other.md", "---\ntitle: Other\n---\nOther, edited.\n")
        try build()
        #expect(try Self.made(site, in: "images") == first)
        #expect(try site.differencesFromAFullBuild() == [])
        // New bytes: new names in the HTML, the old files gone.
        try site.write("static/images/team.png", TestImages.png(900, 800))
        try build()
        let second = try Self.made(site, in: "images")
        #expect(Set(first).isDisjoint(with: second) && second.contains { $0.hasSuffix(".900x800.webp") }, "\(second)")
        #expect(try site.read("index.html").contains("width=\"900\" height=\"800\""))
        #expect(try site.differencesFromAFullBuild() == [])
    }

    @Test func argumentsParseQuotedAndBareValuesAndRefuseRepeats() throws {
        let (path, options) = try PictureHelper.parse("  /a.png alt='Say \"cheese\"' sizes=\"50vw, 100vw\"\n class=x  loading=eager ")
        #expect(path == "/a.png")
        #expect(options == ["alt": "Say \"cheese\"", "sizes": "50vw, 100vw", "class": "x", "loading": "eager"])
        for bad in ["/a.png alt=x alt=y", "alt=\"x\"", "", "/a b.png alt=x", "/a.png alt"] {
            #expect(throws: PictureHelper.Problem.self, "\(bad)") { try PictureHelper.parse(bad) }
        }
    }
}
