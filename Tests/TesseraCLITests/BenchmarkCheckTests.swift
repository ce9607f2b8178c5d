import Foundation
import Testing

/// The benchmark's corpora, at a small N, through the real binary: they must keep building with
/// the current default theme, and every cached build of them (nothing changed, one post edited,
/// a post added) must write what a full build writes. Nothing is timed here.
@Suite struct BenchmarkCheckTests {
    @Test func theBenchmarkCorporaBuildAndTheirCachedBuildsAreFullBuilds() throws {
        let work = try EndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: work) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", EndToEndTests.repositoryRoot + "/Benchmarks/hugo_compare.py", "--check",
            "--tessera", EndToEndTests.binary, "--sizes", "30", "--corpora", "plain,tagged,feed", "--work", work,
        ]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let stderr = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "\(stdout)\n\(stderr)")
        let lines = stdout.split(separator: "\n")
        // Three corpora, four builds each, each compared with a full build of the same files.
        #expect(lines.count == 12, "\(stdout)")
        #expect(lines.allSatisfy { $0.contains(": same output as a full build (") }, "\(stdout)")
        #expect(lines.filter { $0.contains("nothing changed since the last build") }.count == 3, "\(stdout)")
        #expect(lines.filter { $0.contains("unchanged pages kept from the last build") }.count == 3, "\(stdout)")
        #expect(stdout.contains("tagged 30, a post added"), "\(stdout)")
    }
}
