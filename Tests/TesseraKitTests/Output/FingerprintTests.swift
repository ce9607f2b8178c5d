import Foundation
import Testing
@testable import TesseraKit

/// `{{#asset}}…{{/asset}}` and `{{#integrity}}…{{/integrity}}` through the real pipeline.
@Suite struct FingerprintTests {
    static func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }

    @Test func sha256MatchesTheStandardVectors() {
        #expect(Self.hex(SHA256.hash(Data())) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(Self.hex(SHA256.hash(Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        // Two blocks: the 448-bit message of FIPS 180-4's example.
        #expect(Self.hex(SHA256.hash(Data("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(Self.hex(SHA256.hash(Data(repeating: 0x61, count: 1_000)))
            == "41edece42d63e8d9bf515a9ba6932e1c20cbc9f5a5d134645adb5db1b9737ea3")
    }

    static func site(css: String = "body { color: red }\n", base: String = "https://example.com/docs/", head: String? = nil) throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbaseURL: \(base)\nbuildDate: 2026-11-22T12:00:00Z\n",
            "themes/mini/layouts/page.mustache": head ?? "<head><link rel=\"stylesheet\" href=\"{{#asset}}assets/site.css{{/asset}}\" integrity=\"{{#integrity}}/assets/site.css{{/integrity}}\"></head><main>{{{content}}}</main>",
            "static/assets/site.css": css,
            "static/assets/unused.js": "console.log(1)\n",
        ])
    }

    @Test func aPageLinksTheFingerprintedCopyWithItsIntegrity() throws {
        let css = "body { color: red }\n"
        let site = try Self.site(css: css)
        try site.build()
        let digest = SHA256.hash(Data(css.utf8))
        let name = "assets/site.\(Self.hex(Array(digest.prefix(4)))).css"
        let html = try site.read("index.html")
        #expect(html.contains("href=\"/docs/\(name)\" integrity=\"sha256-\(Data(digest).base64EncodedString())\""))
        #expect(try site.read(name) == css, "the copy has the original's bytes")
        #expect(try site.read("assets/site.css") == css, "the original stays for other links")
        let assets = try FileManager.default.contentsOfDirectory(atPath: site.output + "/assets")
        #expect(!assets.contains { $0.hasPrefix("unused.") && $0 != "unused.js" }, "only linked assets get a copy: \(assets)")
    }

    @Test func aChangedStylesheetGetsANewNameAndRebuildsItsPages() throws {
        let site = try Self.site()
        let cache = BuildCache()
        var options = site.options()
        options.updatesInPlace = true
        _ = try SiteBuilder(options: options, cache: cache).build()
        let before = try site.read("index.html")
        try site.write("static/assets/site.css", "body { color: blue }\n")
        _ = try SiteBuilder(options: options, cache: cache).build()
        let after = try site.read("index.html")
        #expect(before != after)
        let fresh = try Self.site(css: "body { color: blue }\n")
        try fresh.build()
        #expect(after == (try fresh.read("index.html")), "the incremental build equals a full build")
    }

    @Test func anUnknownAssetIsAnErrorAtItsTag() throws {
        let site = try Self.site(head: "<head>\n  <link href=\"{{#asset}}assets/sit.css{{/asset}}\"></head>")
        let diagnostics = site.diagnostics()
        #expect(diagnostics.contains {
            $0.contains("themes/mini/layouts/page.mustache:2:15:") && $0.contains("no stylesheet or script 'assets/sit.css' to fingerprint") && $0.contains("did you mean 'assets/site.css'?")
        }, "\(diagnostics)")
    }

    @Test func theDefaultThemeLinksItsOwnFilesByFingerprint() throws {
        // The example site, written to disk with the default theme.
        let output = ExampleSiteCrawlTests.output
        let html = try String(contentsOfFile: output + "/index.html", encoding: .utf8)
        let css = try #require(html.firstMatch(of: #/href="/(assets/tessera\.[0-9a-f]{8}\.css)" integrity="(sha256-[^"]+)"/#))
        let bytes = try Data(contentsOf: URL(fileURLWithPath: output + "/" + css.1))
        #expect("sha256-" + Data(SHA256.hash(bytes)).base64EncodedString() == String(css.2), "the integrity hash is the served file's")
        #expect(html.firstMatch(of: #/src="/assets/tessera\.[0-9a-f]{8}\.js" integrity="sha256-/#) != nil)
    }
}
