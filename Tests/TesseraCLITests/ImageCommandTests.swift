import Foundation
import Testing

/// Images through the `tessera` binary: what a build without a cache leaves behind.
@Suite struct ImageCommandTests {
    /// A site of the default theme with one photo (a cover of the example site).
    static func site() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-images-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/static", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: EndToEndTests.repositoryRoot + "/static/images/covers/feeds.jpg", toPath: root + "/static/feeds.jpg")
        try "title: Photos\ntheme: default\n".write(toFile: root + "/site.yml", atomically: true, encoding: .utf8)
        try "---\ntitle: Home\n---\n![A feed](/feeds.jpg)\n".write(toFile: root + "/content/index.md", atomically: true, encoding: .utf8)
        return root
    }

    @Test func aBuildWithoutACacheLeavesNoTemporaryFolder() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The child's temporary folder is one of its own, empty, so anything left in it is the build's.
        let temporary = root + "-tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let run = try EndToEndTests.tessera(["build", "--no-cache"], in: root, environment: ["TMPDIR": temporary + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/public").contains { $0.hasPrefix("feeds.") && $0.hasSuffix(".webp") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }
}

/// `tessera build`'s live progress line: on a terminal only, cleared before the summary.
@Suite struct ProgressLineTests {
    /// Runs `tessera build --no-cache` in `site` under `script`, which gives it a terminal, and
    /// returns what the terminal got.
    static func onATerminal(_ site: String, environment: [String: String], arguments: String = "") throws -> String {
        let command = "'\(EndToEndTests.binary)' build --no-cache" + arguments
        let run = try EndToEndTests.run("/usr/bin/script", ["-q", "-e", "-c", command, "/dev/null"], in: site, environment: environment)
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        return run.stdout
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "needs util-linux's script for a terminal"))
    func aBuildOnATerminalShowsItsProgressAndClearsIt() throws {
        let root = try ImageCommandTests.site()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let shown = try Self.onATerminal(root, environment: ["TESSERA_PROGRESS_DELAY": "0", "CI": ""])
        #expect(shown.contains("\r\u{1B}[2KBuilding · "), "\(shown.debugDescription)")
        #expect(shown.contains(" image files"), "\(shown.debugDescription)")
        // The line is cleared, then the summary is written where it was.
        let summary = try #require(shown.range(of: "Built "))
        #expect(shown[..<summary.lowerBound].hasSuffix("\r\u{1B}[2K"), "\(shown.debugDescription)")
        // Under CI, and piped, nothing but the summary.
        let ci = try Self.onATerminal(root, environment: ["TESSERA_PROGRESS_DELAY": "0", "CI": "true"])
        #expect(!ci.contains("\u{1B}[2K") && ci.contains("Built "), "\(ci.debugDescription)")
        let json = try Self.onATerminal(root, environment: ["TESSERA_PROGRESS_DELAY": "0", "CI": ""], arguments: " --format json")
        #expect(!json.contains("\u{1B}[2K"), "\(json.debugDescription)")
        let piped = try EndToEndTests.tessera(["build", "--no-cache"], in: root, environment: ["TESSERA_PROGRESS_DELAY": "0", "CI": ""])
        #expect(!piped.stdout.contains("\u{1B}[2K") && !piped.stderr.contains("\u{1B}[2K") && piped.stdout.contains("Built "))
    }
}
