import Foundation
import Testing

/// How the real binary reports bad input: exit codes, `--format json`, the cap on long lists, and
/// refusals that leave the user's files alone.
@Suite(.serialized) struct DiagnosticsOutputTests {
    /// A new site with `count` pages that each name an unknown component.
    static func brokenSite(errors count: Int) throws -> String {
        let root = try EndToEndTests.temporaryDirectory()
        let created = try EndToEndTests.tessera(["new", "site"], in: root)
        #expect(created.status == 0, "\(created.stderr)")
        for index in 0..<count {
            try Data("---\ntitle: P\(index)\ncomponents:\n  - { component: noticee, message: Hi }\n---\n".utf8)
                .write(to: URL(fileURLWithPath: root + "/site/content/broken\(String(format: "%03d", index)).md"))
        }
        return root + "/site"
    }

    @Test func jsonFormatPrintsOneObjectPerDiagnosticOnStandardOutput() throws {
        let site = try Self.brokenSite(errors: 2)
        let run = try EndToEndTests.tessera(["build", "--format", "json"], in: site)
        #expect(run.status == 1)
        let lines = run.stdout.split(separator: "\n")
        #expect(lines.count == 2, "\(run.stdout)")
        for (index, line) in lines.enumerated() {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
            #expect(object?["severity"] as? String == "error")
            #expect(object?["file"] as? String == "content/broken00\(index).md")
            #expect(object?["line"] as? Int == 4)
            #expect(object?["column"] as? Int == 18)
            #expect((object?["message"] as? String)?.contains("unknown component 'noticee'") == true)
            #expect((object?["hint"] as? String)?.contains("did you mean 'notice'") == true)
        }
        #expect(run.stderr.contains("build failed with 2 errors"))
        #expect(!FileManager.default.fileExists(atPath: site + "/public"), "nothing is written")
    }

    @Test func aLongListIsCappedInTextButCompleteInJSON() throws {
        let site = try Self.brokenSite(errors: 60)
        let text = try EndToEndTests.tessera(["check"], in: site)
        #expect(text.status == 1)
        let shown = text.stderr.split(separator: "\n").filter { $0.contains(": error: ") }
        #expect(shown.count == 50)
        #expect(text.stderr.contains("… and 10 more (`--format json` lists them all)"))
        let json = try EndToEndTests.tessera(["check", "--format", "json"], in: site)
        #expect(json.stdout.split(separator: "\n").count == 60)
    }

    @Test func aUsageErrorKeepsTheArgumentParsersExitCode() throws {
        let run = try EndToEndTests.tessera(["build", "--format", "xml"])
        #expect(run.status == 64, "\(run.stderr)")
        #expect(run.stderr.contains("xml"))
    }

    @Test(arguments: ["content", "themes", ".", "themes/default/static"])
    func anOutputIntoTheSourcesIsRefusedAndTheFilesStay(_ output: String) throws {
        let site = try Self.brokenSite(errors: 0)
        let before = try FileManager.default.subpathsOfDirectory(atPath: site).sorted()
        let run = try EndToEndTests.tessera(["build", "--output", output, "--force"], in: site)
        #expect(run.status == 1)
        #expect(run.stderr.contains("refusing to use"), "\(run.stderr)")
        #expect(try FileManager.default.subpathsOfDirectory(atPath: site).sorted() == before)
    }

    @Test func anUnmarkedFolderNeedsForce() throws {
        let site = try Self.brokenSite(errors: 0)
        let mine = site + "/../mine"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try Data("notes".utf8).write(to: URL(fileURLWithPath: mine + "/notes.txt"))
        let refused = try EndToEndTests.tessera(["build", "--output", mine], in: site)
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("pass --force"), "\(refused.stderr)")
        #expect(FileManager.default.fileExists(atPath: mine + "/notes.txt"))
        let forced = try EndToEndTests.tessera(["build", "--output", mine, "--force"], in: site)
        #expect(forced.status == 0, "\(forced.stderr)")
        #expect(!FileManager.default.fileExists(atPath: mine + "/notes.txt"))
        let again = try EndToEndTests.tessera(["build", "--output", mine], in: site)
        #expect(again.status == 0, "its own output is replaced without --force: \(again.stderr)")
    }
}
