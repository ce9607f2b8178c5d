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

/// The bad-input corpus: each folder of `Fixtures/corpus/` is a few files laid over the valid
/// site `Fixtures/corpus-base/` (a `REMOVE` file lists base files to delete). Every one must fail
/// with exactly its golden diagnostics and leave the disk as it was. `README.md` there maps each
/// fixture to the class of bad input it covers.
@Suite struct BadInputCorpusTests {
    static let corpus = Repository.fixture("corpus")

    static func fixtures() -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: corpus)) ?? [])
            .filter { FileTree.isDirectory(corpus + "/" + $0) }.sorted()
    }

    /// Copies `from` over `to`, file by file, keeping symbolic links as links.
    static func overlay(_ from: String, onto to: String) throws {
        let manager = FileManager.default
        for relative in try manager.subpathsOfDirectory(atPath: from) where relative != "REMOVE" {
            let source = from + "/" + relative, target = to + "/" + relative
            var info = stat()
            lstat(source, &info)
            if info.st_mode & S_IFMT == S_IFDIR {
                try manager.createDirectory(atPath: target, withIntermediateDirectories: true)
                continue
            }
            try manager.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try? manager.removeItem(atPath: target)
            if info.st_mode & S_IFMT == S_IFLNK {
                try manager.createSymbolicLink(atPath: target, withDestinationPath: try manager.destinationOfSymbolicLink(atPath: source))
            } else {
                try manager.copyItem(atPath: source, toPath: target)
            }
        }
    }

    @Test func theBaseSiteBuilds() throws {
        let site = FixtureSiteTests.temporaryOutput()
        defer { try? FileManager.default.removeItem(atPath: site) }
        try Self.overlay(Repository.fixture("corpus-base"), onto: site)
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: site, fallbackBuildDate: Date(timeIntervalSince1970: 0))).build()
        #expect(report.pages > 1)
        #expect(report.warnings.isEmpty, "\(report.warnings)")
    }

    @Test func theCorpusCoversEveryClass() {
        #expect(Self.fixtures().count >= 60)
    }

    @Test(arguments: fixtures())
    func badInputGivesItsGoldenDiagnosticsAndChangesNothing(_ name: String) throws {
        let site = FixtureSiteTests.temporaryOutput()
        defer { try? FileManager.default.removeItem(atPath: site) }
        try Self.overlay(Repository.fixture("corpus-base"), onto: site)
        let removals = (try? String(contentsOfFile: Self.corpus + "/\(name)/REMOVE", encoding: .utf8)) ?? ""
        for path in removals.split(separator: "\n") where !path.isEmpty {
            try FileManager.default.removeItem(atPath: site + "/" + path)
        }
        try Self.overlay(Self.corpus + "/" + name, onto: site)
        let before = OutputSafetyTests.snapshot(site)
        var diagnostics: [String] = []
        do {
            try SiteBuilder(options: BuildOptions(sourceDirectory: site, fallbackBuildDate: Date(timeIntervalSince1970: 0))).build()
            Issue.record("\(name) built, but it is bad input")
        } catch let error as TesseraError {
            diagnostics = error.diagnostics.map { $0.formatted(relativeTo: site) }
        }
        #expect(OutputSafetyTests.snapshot(site) == before, "a failed build changes nothing on disk")
        #expect(!diagnostics.isEmpty)
        let text = (diagnostics.joined(separator: "\n") + "\n").replacingOccurrences(of: site, with: "<site>")
        let golden = Self.corpus + "/\(name).expected.txt"
        if FixtureSiteTests.updating { try Data(text.utf8).write(to: URL(fileURLWithPath: golden)) }
        #expect(text == (try String(contentsOfFile: golden, encoding: .utf8)), "\(name)")
    }
}
