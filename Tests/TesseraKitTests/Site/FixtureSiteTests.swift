import Foundation
import Testing
@testable import TesseraKit

/// Fixture sites on disk: valid ones build to exactly their golden output, invalid ones give
/// exactly their golden diagnostics. `TESSERA_UPDATE_GOLDENS=1 swift test` rewrites the goldens.
@Suite struct FixtureSiteTests {
    static let updating = ProcessInfo.processInfo.environment["TESSERA_UPDATE_GOLDENS"] == "1"

    static func fixtures(_ kind: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: Repository.fixture(kind))) ?? []).filter { !$0.hasPrefix(".") && !$0.hasSuffix(".txt") }.sorted()
    }

    static func temporaryOutput() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("tessera-out-\(UUID().uuidString)").path
    }

    @Test(arguments: fixtures("valid"))
    func validSiteMatchesGoldenOutput(_ name: String) throws {
        let output = Self.temporaryOutput()
        let options = BuildOptions(
            sourceDirectory: Repository.fixture("valid/" + name), outputDirectory: output,
            fallbackBuildDate: Date(timeIntervalSince1970: 0))
        try SiteBuilder(options: options).build()
        let golden = Repository.fixture("golden/" + name)
        if Self.updating {
            try? FileManager.default.removeItem(atPath: golden)
            try FileManager.default.copyItem(atPath: output, toPath: golden)
        }
        let built = FileTree.files(in: output, boundary: nil, problems: DiagnosticCollector()), expected = FileTree.files(in: golden, boundary: nil, problems: DiagnosticCollector())
        #expect(built == expected, "the same files, by path")
        for path in built where expected.contains(path) {
            let actual = try String(contentsOfFile: output + "/" + path, encoding: .utf8)
            let wanted = try String(contentsOfFile: golden + "/" + path, encoding: .utf8)
            #expect(actual == wanted, "\(path) differs from its golden copy")
        }
    }

    @Test(arguments: fixtures("invalid"))
    func invalidSiteGivesGoldenDiagnostics(_ name: String) throws {
        let site = Repository.fixture("invalid/" + name)
        let output = Self.temporaryOutput()
        let options = BuildOptions(sourceDirectory: site, outputDirectory: output, fallbackBuildDate: Date(timeIntervalSince1970: 0))
        var diagnostics: [String] = []
        do {
            try SiteBuilder(options: options).build()
            Issue.record("\(name) built, but it is an invalid fixture")
        } catch let error as TesseraError {
            diagnostics = error.diagnostics.map { $0.formatted(relativeTo: site) }
        }
        #expect(!FileManager.default.fileExists(atPath: output), "a failed build writes nothing")
        let goldenFile = Repository.fixture("invalid/\(name).expected.txt")
        let text = diagnostics.joined(separator: "\n") + "\n"
        if Self.updating { try Data(text.utf8).write(to: URL(fileURLWithPath: goldenFile)) }
        #expect(text == (try String(contentsOfFile: goldenFile, encoding: .utf8)))
    }
}
