import Foundation
import Testing

/// The benchmark's corpora, at a small N, through the real binary: they must keep building with
/// the current default theme, and every cached build of them (nothing changed, one post edited,
/// a post added) must write what a full build writes. Nothing is timed here.
@Suite struct BenchmarkCheckTests {
    @Test func theBenchmarkCorporaBuildAndTheirCachedBuildsAreFullBuilds() throws {
        let work = try EndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let run = try EndToEndTests.run("/usr/bin/env", [
            "python3", EndToEndTests.repositoryRoot + "/Benchmarks/hugo_compare.py", "--check",
            "--tessera", EndToEndTests.binary, "--sizes", "30", "--corpora", "plain,tagged,feed", "--work", work,
        ])
        let stdout = run.stdout
        #expect(run.status == 0, "\(stdout)\n\(run.stderr)")
        let lines = stdout.split(separator: "\n")
        // Three corpora, four builds each, each compared with a full build of the same files.
        #expect(lines.count == 12, "\(stdout)")
        #expect(lines.allSatisfy { $0.contains(": same output as a full build (") }, "\(stdout)")
        #expect(lines.filter { $0.contains("nothing changed since the last build") }.count == 3, "\(stdout)")
        #expect(lines.filter { $0.contains("unchanged pages kept from the last build") }.count == 3, "\(stdout)")
        #expect(stdout.contains("tagged 30, a post added"), "\(stdout)")
    }
}
