import Foundation
import Testing

/// `tessera build` leaves its highlighting workers for the next build: an edit's build starts no
/// Python. Seen through a Python of the test's own, which logs each start (and the worker's pid).
@Suite(.serialized) struct KeptWorkersTests {
    /// A new site in `dir`, and a Python there that logs each start's pid to `log`.
    static func siteAndLoggedPython(in dir: String) throws -> (site: String, python: String, log: String) {
        #expect(try EndToEndTests.tessera(["new", "site"], in: dir).status == 0)
        let log = dir + "/starts.log"
        let python = dir + "/python-logged"
        try "#!/bin/sh\necho $$ >> '\(log)'\nexec python3 \"$@\"\n".write(toFile: python, atomically: true, encoding: .utf8)
        chmod(python, 0o755)
        return (dir + "/site", python, log)
    }

    @Test func aSecondBuildUsesTheWorkersTheFirstLeftUnlessTheyAreTurnedOff() throws {
        let dir = try EndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (site, python, log) = try Self.siteAndLoggedPython(in: dir)
        func starts() -> [Int32] {
            ((try? String(contentsOfFile: log, encoding: .utf8)) ?? "").split(separator: "\n").compactMap { Int32($0) }
        }
        defer { for pid in starts() { kill(pid, SIGTERM) } }
        func build(_ arguments: [String] = [], _ environment: [String: String] = [:]) throws {
            let run = try EndToEndTests.tessera(["build"] + arguments, in: site, environment: ["TESSERA_PYTHON": python].merging(environment) { _, new in new })
            #expect(run.status == 0 && run.stderr.isEmpty, "\(run.stderr)")
        }
        func write(_ code: String) throws {
            try "---\ntitle: Code\n---\n```kotlin\n\(code)\n```\n".write(toFile: site + "/content/code.md", atomically: true, encoding: .utf8)
        }
        try write("val a = 1")
        try build()
        let first = starts()
        #expect(!first.isEmpty)
        #expect(try String(contentsOfFile: site + "/public/code/index.html", encoding: .utf8).contains("<span class=\"kd\">val</span>"))
        // A new block, lexed by the kept worker: no Python starts.
        try write("val b = 2")
        try build()
        #expect(starts() == first)
        #expect(try String(contentsOfFile: site + "/public/code/index.html", encoding: .utf8).contains("<span class=\"nv\">b</span>"))
        // Turned off, and with --no-cache, a build starts its own.
        try write("val c = 3")
        try build([], ["TESSERA_KEEP_WORKERS": "0"])
        let afterOff = starts()
        #expect(afterOff.count > first.count)
        try write("val d = 4")
        try build(["--no-cache"])
        #expect(starts().count > afterOff.count)
    }

    /// A build of a site without code blocks starts no Python, with a cache or without: lexing
    /// blocks ahead looks for blocks before it asks for the engine, and a build record whose
    /// pages hold no highlighted code does not name one.
    @Test func aSiteWithoutCodeStartsNoPython() throws {
        let dir = try EndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (site, python, log) = try Self.siteAndLoggedPython(in: dir)
        for arguments in [["build", "--no-cache"], ["build", "--no-cache", "--output", "other"], ["build"], ["build"], ["build", "--output", "third"]] {
            let run = try EndToEndTests.tessera(arguments, in: site, environment: ["TESSERA_PYTHON": python, "TESSERA_KEEP_WORKERS": "0"])
            #expect(run.status == 0, "\(run.stderr)")
        }
        #expect(!FileManager.default.fileExists(atPath: log))
    }
}
