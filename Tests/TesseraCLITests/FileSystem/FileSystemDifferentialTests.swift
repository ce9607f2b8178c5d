#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The build cache equals a full build whatever happens on the file system: random operations
/// (files and folders created, deleted, renamed, replaced by links, FIFOs or folders; link loops,
/// dangling links, links out of the site; `chmod 000`; rewrites that keep size and times, `cp -a`,
/// `git checkout`; case-only renames; folders moved out and back; a clock stepped back) at random
/// moments after a build (the same clock tick, within the second, after two seconds). After each,
/// `tessera build` (cached) and `tessera build --no-cache` must exit alike, print the same
/// diagnostics and, when they succeed, write the same bytes.
///
/// `TESSERA_FS_OPS=N` runs N operations per seed (the suite runs 30 of one seed),
/// `TESSERA_FS_SEEDS=K` K seeds (or a list), `TESSERA_FS_REPORT=1` prints what each seed compared.
@Suite(.serialized) struct FileSystemDifferentialTests {
    static let environment = ProcessInfo.processInfo.environment
    static let operations = environment["TESSERA_FS_OPS"].flatMap(Int.init) ?? 30
    /// `TESSERA_FS_SEEDS`: a count (seeds 1...N) or a list (`7,8,9`, for runs side by side).
    static let seeds: [UInt64] = {
        let text = environment["TESSERA_FS_SEEDS"] ?? "1"
        if text.contains(",") { return text.split(separator: ",").compactMap { UInt64($0) } }
        return Array(1...max(1, UInt64(text) ?? 1))
    }()

    @Test(arguments: seeds)
    func cachedBuildsEqualFullBuildsWhateverHappensToTheFiles(seed: UInt64) throws {
        let site = try FileSystemSite()
        defer { site.remove() }
        var random = SplitMix64(seed: seed)
        #expect(try site.cachedBuild().status == 0)
        var failures = 0, kept = 0, failedLast = false
        for step in 0..<Self.operations {
            // When, after the build, the operation happens: in the same clock tick, within the
            // second, or after the two seconds from which the cache trusts what `stat` says.
            let delays: [Double] = [0, 0, 0, 0.002, 0.01, 0.3, 1.1, 2.1]
            let delay = delays[Int(random.next() % UInt64(delays.count))]
            if delay > 0 { Thread.sleep(forTimeInterval: delay) }
            // After a failed build, often a repair: successes are compared byte for byte.
            let operation = failedLast && random.next() % 5 < 2 ? site.repair() : try site.randomOperation(&random)
            site.note("\(step): \(operation) (after \(delay) s)")
            let cached = try site.cachedBuild()
            let (full, folder) = try site.fullBuild()
            let context = "seed \(seed)\n" + site.log.joined(separator: "\n")
            #expect(cached == full, "\(context)\ncached: \(cached)\nfull: \(full)")
            guard cached == full else { return }
            failedLast = full.status != 0
            if full.status == 0 {
                let difference = DifferentialSite.difference(site.site + "/public", folder)
                #expect(difference == nil, "\(context)\n\(difference ?? "")")
                if difference != nil { return }
                kept += 1
            } else {
                failures += 1
            }
        }
        // Both kinds of outcome were compared, not only failures or only successes.
        #expect(failures > 0 && kept > 0, "seed \(seed): \(failures) failed builds, \(kept) built")
        if Self.environment["TESSERA_FS_REPORT"] != nil {
            print("seed \(seed): \(Self.operations) operations, \(kept) built alike, \(failures) failed alike, as nobody: \(site.unprivileged)")
        }
    }

    /// The cases a careful user found, each right after a cached build (the same second), with
    /// `cp -a`'d times: each made the cache say "Up to date" where a full build fails or differs.
    @Test func eachCaseFoundByHandGivesWhatAFullBuildGives() throws {
        let cases: [(String, (FileSystemSite) throws -> Void)] = [
            ("a FIFO", { mkfifo($0.path("content/pipe.md"), 0o644) }),
            ("a link loop", { symlink("l2", $0.path("content/l1")); symlink("l1", $0.path("content/l2")) }),
            ("a dangling link", { symlink("gone.md", $0.path("content/dangling.md")) }),
            ("an unreadable page", { chmod($0.path("content/about.md"), 0) }),
            ("a new unreadable folder", {
                try $0.write("content/sub/page.md", "---\ntitle: Sub\n---\nHidden.\n")
                chmod($0.path("content/sub"), 0)
            }),
            ("a rewrite with the old size and times", {
                var info = stat()
                lstat($0.path("content/about.md"), &info)
                try Data("---\ntitle: About\nmenu: main\n---\nAbout THIS site.\n".utf8).write(to: URL(fileURLWithPath: $0.path("content/about.md")))
                $0.setTimes($0.path("content/about.md"), info.st_mtim)
            }),
            // Found by the long run: the output updated in place had the last build's file
            // where the new pages need a folder, and the other way round.
            ("an asset replaced by a folder of pages", {
                unlink($0.path("content/blog/cover.txt"))
                try $0.write("content/blog/cover.txt/inside.md", "---\ntitle: Inside\n---\nNow a folder.\n")
            }),
            ("a folder of pages replaced by an asset", {
                _ = try EndToEndTests.run("/bin/rm", ["-rf", $0.path("content/blog/notes")])
                try $0.write("content/blog/notes", "now a file\n")
            }),
        ]
        for (name, operation) in cases {
            let site = try FileSystemSite()
            defer { site.remove() }
            // Times as `cp -a` keeps them: older than the two seconds the cache does not trust.
            for entry in site.entries() { site.setTimes(site.path(entry), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)) }
            #expect(try site.cachedBuild().status == 0)
            try operation(site)
            let cached = try site.cachedBuild()
            let (full, folder) = try site.fullBuild()
            #expect(cached == full, "\(name): cached \(cached), full \(full)")
            if full.status == 0 {
                let difference = DifferentialSite.difference(site.site + "/public", folder)
                #expect(difference == nil, "\(name): \(difference ?? "")")
            }
        }
    }
}
