#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// A build killed at any moment (reading, rendering, writing, swapping) leaves the output either
/// the complete old site or the complete new one, and the next build succeeds and leaves no
/// stray folder. The real binary is SIGKILLed at delays spread over a whole build.
@Suite(.serialized) struct KillSafetyTests {
    static let pages = 150

    /// Writes a site whose pages all say `version`.
    static func writeSite(at root: String, version: String) throws {
        func write(_ relative: String, _ text: String) throws {
            let path = root + "/" + relative
            try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        try write("site.yml", "title: Kill \(version)\nbuildDate: 2026-11-22T12:00:00Z\n")
        for index in 0..<pages {
            try write("content/p\(index).md", """
                ---
                title: Page \(index) \(version)
                components:
                  - { component: notice, message: "Version **\(version)** of page \(index)", tone: info }
                ---
                \(String(repeating: "Some text of version \(version). ", count: 40))
                """)
        }
    }

    /// Every file of a folder with its bytes; the marker included, so a half-swapped folder shows.
    static func tree(_ folder: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let relative = enumerator?.nextObject() as? String {
            var isFolder: ObjCBool = false
            if FileManager.default.fileExists(atPath: folder + "/" + relative, isDirectory: &isFolder), !isFolder.boolValue {
                result[relative] = FileManager.default.contents(atPath: folder + "/" + relative)
            }
        }
        return result
    }

    static func build(_ site: String, output: String) throws -> EndToEndTests.Run {
        try EndToEndTests.tessera(["build", "--source", site, "--output", output])
    }

    @Test func aKilledBuildLeavesTheOldOrTheNewSiteAndTheNextBuildRecovers() async throws {
        let root = try EndToEndTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let site = root + "/site", output = root + "/public"
        let created = try EndToEndTests.tessera(["new", site])
        #expect(created.status == 0, "\(created.stderr)")
        // The two complete sites, built once without interruption.
        var expected: [String: [String: Data]] = [:]
        for version in ["old", "new"] {
            try Self.writeSite(at: site, version: version)
            let run = try Self.build(site, output: root + "/expected-\(version)")
            #expect(run.status == 0, "\(run.stderr)")
            expected[version] = Self.tree(root + "/expected-\(version)")
        }
        #expect(expected["old"] != expected["new"])
        #expect((expected["new"]?.count ?? 0) > Self.pages)
        // How long the build that is killed takes when it is not (on this machine's load): the
        // content changed from one version to the other, the output holding the first. (Not the
        // build before it, which finds the output up to date and takes a fraction of that.)
        var duration = 0.0
        for (before, after) in [("old", "new"), ("new", "old")] {
            try Self.writeSite(at: site, version: before)
            _ = try Self.build(site, output: output)
            try Self.writeSite(at: site, version: after)
            let started = Date()
            let run = try Self.build(site, output: output)
            duration = max(duration, Date().timeIntervalSince(started))
            #expect(run.status == 0, "\(run.stderr)")
        }

        var outcomes: [String: Int] = [:]
        let attempts = 16
        /// One build killed after `delay` seconds, checked, and the next build's recovery.
        func attempt(_ attempt: Int, after delay: Double) throws {
            let (before, after) = attempt % 2 == 0 ? ("old", "new") : ("new", "old")
            // The output holds `before`, complete; the content now says `after`.
            try Self.writeSite(at: site, version: before)
            let setup = try Self.build(site, output: output)
            #expect(setup.status == 0, "\(setup.stderr)")
            try Self.writeSite(at: site, version: after)

            let process = Process()
            process.executableURL = URL(fileURLWithPath: EndToEndTests.binary)
            process.arguments = ["build", "--source", site, "--output", output]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            // A blocking sleep: an `await` resumes only when the test pool has a free thread,
            // and other tests (a browser run) can hold both for minutes, so the kill came after
            // every build had finished.
            usleep(UInt32(delay * 1_000_000))
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let found = Self.tree(output)
            let state = found == expected[before] ? "old" : found == expected[after] ? "new" : "neither"
            outcomes[state, default: 0] += 1
            #expect(state != "neither", "attempt \(attempt) (killed after \(Int(delay * 1000)) ms): the output is neither site, \(found.count) files")

            let next = try Self.build(site, output: output)
            #expect(next.status == 0, "the next build succeeds: \(next.stderr)")
            #expect(Self.tree(output) == expected[after])
            let strays = try FileManager.default.contentsOfDirectory(atPath: root).filter { $0.hasPrefix(".tessera-") }
            #expect(strays.isEmpty, "no stray folder after attempt \(attempt): \(strays)")
        }
        // Spread over the whole build (timed above), past its end for the last few.
        for number in 0..<attempts { try attempt(number, after: duration * 1.5 * Double(number) / Double(attempts - 1)) }
        // The machine's load changes while other tests run: a build may take several times as
        // long as it did when timed. Later kills until one build has finished before its kill.
        var longer = duration * 3
        for number in attempts..<(attempts + 6) where outcomes["new", default: 0] == 0 {
            try attempt(number, after: longer)
            longer *= 2
        }
        // Both outcomes must have happened, or the delays missed the build.
        #expect(outcomes["old", default: 0] > 0 && outcomes["new", default: 0] > 0, "\(outcomes)")
    }
}
