import Foundation
import Testing
@testable import TesseraKit

/// Each component of the default theme, rendered from its schema's `example:` through the real
/// pipeline (transformers, Swift model, body template, shell), compared with `Golden/<code>.html`.
/// `TESSERA_UPDATE_GOLDENS=1 swift test --filter Catalog` rewrites the goldens.
@Suite struct CatalogGoldenTests {
    static let updating = ProcessInfo.processInfo.environment["TESSERA_UPDATE_GOLDENS"] == "1"
    static let goldenDirectory = Repository.root + "/Tests/TesseraKitTests/Catalog/Golden"
    static let marker = "<!--golden "

    /// A site with the default theme and one page, `/catalog/`, holding every example. The site
    /// overrides only the page layout and the section layout, so the HTML between markers is
    /// exactly what the theme renders for one component inside its shell.
    static func renderExamples() throws -> [String: String] {
        let root = ExampleSite.temporaryDirectory("tessera-catalog-golden")
        let files: [String: String] = [
            "site.yml": "title: Catalog\nbaseURL: /\ntheme: default\nlanguage: en\ntimeZone: UTC\nbuildDate: 2026-11-22T09:00:00Z\n",
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/catalog.md": "---\ntitle: Catalog\nlayout: golden\nsections:\n  - layout: golden\n    examples: all\n---\n",
            "layouts/golden.mustache": "{{{sections}}}",
            "sections/golden.mustache": "{{#items}}\(marker){{code}}-->\n{{{html}}}{{/items}}",
        ]
        for (path, text) in files {
            let full = root + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: full))
        }
        try FileManager.default.createDirectory(atPath: root + "/themes", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: CatalogFixture.themeDirectory, toPath: root + "/themes/default")
        defer { try? FileManager.default.removeItem(atPath: root) }

        let options = BuildOptions(sourceDirectory: root, fallbackBuildDate: Date(timeIntervalSince1970: 0), writesOutput: false)
        let state = try SiteBuilder(options: options).run().site
        let page = try ExampleSite.html("catalog/index.html", in: state)
        var rendered: [String: String] = [:]
        for chunk in page.components(separatedBy: marker).dropFirst() {
            guard let end = chunk.range(of: "-->\n") else { continue }
            rendered[String(chunk[..<end.lowerBound])] = String(chunk[end.upperBound...]).trimmingCharacters(in: .whitespacesAndNewlines) + "\n"
        }
        return rendered
    }

    static let examples: [String: String] = (try? renderExamples()) ?? [:]

    static func goldenCodes() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: goldenDirectory)) ?? [])
            .filter { $0.hasSuffix(".html") }.map { String($0.dropLast(5)) }.sorted()
    }

    @Test func everyThemeComponentHasAnExampleThatRenders() throws {
        let fixture = try CatalogFixture()
        let rendered = try Self.renderExamples()
        #expect(Set(rendered.keys) == Set(fixture.themeCodes), "each component of themes/default renders its example")
        for code in fixture.themeCodes {
            let schema = try #require(fixture.registry[code]?.schema)
            #expect(schema.description?.isEmpty == false, "\(code) has a description")
            #expect(schema.shell != nil, "\(code) names its shell")
        }
    }

    static let codes = (try? CatalogFixture().themeCodes) ?? []

    @Test(arguments: codes)
    func exampleMatchesGolden(_ code: String) throws {
        let html = try #require(Self.examples[code], "\(code) did not render")
        let path = Self.goldenDirectory + "/\(code).html"
        if Self.updating {
            try Data(html.utf8).write(to: URL(fileURLWithPath: path))
        }
        let golden = try String(contentsOfFile: path, encoding: .utf8)
        #expect(html == golden, "\(code) differs from Golden/\(code).html; if the change is intended, run TESSERA_UPDATE_GOLDENS=1 swift test --filter Catalog")
    }

    @Test func noGoldenWithoutAComponent() throws {
        let codes = Set(try CatalogFixture().themeCodes)
        if Self.updating {
            for stale in Self.goldenCodes() where !codes.contains(stale) {
                try FileManager.default.removeItem(atPath: Self.goldenDirectory + "/\(stale).html")
            }
        }
        #expect(Set(Self.goldenCodes()).subtracting(codes).isEmpty, "golden files of components that no longer exist")
    }
}
