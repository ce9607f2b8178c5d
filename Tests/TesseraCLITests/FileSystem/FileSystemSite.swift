#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import TesseraKit

/// A site on disk that random file system operations are applied to, with the real binary to
/// build it both ways: with the build cache (as `tessera build` runs by default) and with
/// `--no-cache` into a folder of its own. As root, both run as `nobody` (through `setpriv`), so
/// a `chmod 000` really makes a file unreadable to the build.
final class FileSystemSite {
    let root: String
    var site: String { root + "/site" }
    /// Where operations put what they move out of the site, to move it back later.
    var outside: String { root + "/outside" }
    private let runAs: [String]
    /// What each operation did, for the message of a mismatch.
    private(set) var log: [String] = []
    /// Times a "clock stepped back" gives the files written after it (nil: the real clock).
    private var steppedBack: timespec?

    init() throws {
        // Not below TMPDIR: the test run's folder may be closed to other users.
        var template = Array("/tmp/tessera-fs-XXXXXX".utf8CString)
        guard let made = mkdtemp(&template) else { throw TesseraError("cannot make a temporary folder") }
        root = String(cString: made)
        chmod(root, 0o755)
        runAs = Self.unprivilegedUser(root: root)
        try write("site.yml", "title: Files\nbuildDate: 2026-11-22T12:00:00Z\nbaseURL: https://example.org/\n")
        try write("content/index.md", "---\ntitle: Home\n---\nSee [the first post](/blog/first/) and [about](/about/).\n")
        try write("content/about.md", "---\ntitle: About\nmenu: main\n---\nAbout this site.\n\n![A photo](/photo.jpg)\n")
        for (slug, tag) in [("first", "swift"), ("second", "linux"), ("third", "swift")] {
            // The first post has a cover beside it: images are made, kept in the cache, and their files change too.
            let cover = slug == "first" ? "image: photo.jpg\n" : ""
            try write("content/blog/\(slug).md", "---\ntitle: \(slug.capitalized) post\ndate: 2026-11-0\(slug.count % 9 + 1)\ntags: [\(tag)]\n\(cover)---\nThe \(slug) post.\n")
        }
        let photo = try Data(contentsOf: URL(fileURLWithPath: EndToEndTests.repositoryRoot + "/Tests/TesseraKitTests/Fixtures/images/small.jpg"))
        for path in ["static/photo.jpg", "content/blog/first/photo.jpg"] {
            try FileManager.default.createDirectory(atPath: (self.path(path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try photo.write(to: URL(fileURLWithPath: self.path(path)))
        }
        try write("content/blog/notes/deep.md", "---\ntitle: Deep\n---\nA page in a folder.\n")
        try write("content/feed.yml", "title: Feed\ncomponents:\n  - { component: notice, message: \"A **feed** page\", tone: info }\n")
        try write("content/blog/cover.txt", "an asset beside the posts\n")
        try write("static/extra.txt", "a static file\n")
        try write("data/team.yml", "- name: Ada\n- name: Grace\n")
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        if !runAs.isEmpty { _ = chown(root, 65534, 65534); _ = chown(site, 65534, 65534) }
    }

    /// `setpriv` to `nobody` when running as root and `nobody` may run the binary; else nothing.
    private static func unprivilegedUser(root: String) -> [String] {
        guard geteuid() == 0, FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") else { return [] }
        let command = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let probe = try? EndToEndTests.run(command[0], Array(command.dropFirst()) + [EndToEndTests.binary, "--version"], in: root)
        return probe?.status == 0 ? command : []
    }

    var unprivileged: Bool { !runAs.isEmpty }

    func remove() {
        _ = try? EndToEndTests.run("/bin/chmod", ["-R", "u+rwx", root])
        try? FileManager.default.removeItem(atPath: root)
    }

    func write(_ relative: String, _ text: String) throws {
        let path = site + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        if let steppedBack { setTimes(path, steppedBack) }
    }

    // MARK: Building

    struct Outcome: Equatable {
        var status: Int32
        var diagnostics: String
    }

    /// `tessera build` with the cache, into the site's `public/`.
    func cachedBuild() throws -> Outcome { try build([]) }

    /// `tessera build --no-cache` into a new folder (the last one is removed first).
    func fullBuild() throws -> (Outcome, folder: String) {
        let folder = root + "/full"
        try? FileManager.default.removeItem(atPath: folder)
        return (try build(["--no-cache", "--output", folder]), folder)
    }

    private func build(_ arguments: [String]) throws -> Outcome {
        let command = runAs + [EndToEndTests.binary, "build"] + arguments
        // The built-in theme unpacks below the cache or temporary folder, which may be the test
        // run's own (closed to `nobody`): the site's root, which `nobody` owns, serves instead.
        let folders = runAs.isEmpty ? [:] : ["TMPDIR": root, "XDG_CACHE_HOME": root + "/xdg-cache", "HOME": root]
        let run = try EndToEndTests.run(command[0], Array(command.dropFirst()), in: site, environment: folders)
        // The full build names its own output folder where the cached one says `public`.
        return Outcome(status: run.status, diagnostics: run.stderr.replacingOccurrences(of: root + "/full", with: "public"))
    }

    // MARK: Operations

    /// Every path below the site's input folders (files, folders, links and the rest), without
    /// following links, sorted.
    func entries() -> [String] {
        var result: [String] = []
        var pending = ["content", "static", "data"]
        while let folder = pending.popLast() {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: site + "/" + folder) else { continue }
            for name in names {
                let relative = folder + "/" + name
                result.append(relative)
                var info = stat()
                if lstat(site + "/" + relative, &info) == 0, info.st_mode & S_IFMT == S_IFDIR { pending.append(relative) }
            }
        }
        return result.sorted()
    }

    func kind(_ relative: String) -> mode_t? {
        var info = stat()
        return lstat(site + "/" + relative, &info) == 0 ? info.st_mode & S_IFMT : nil
    }

    func note(_ text: String) { log.append(text) }

    func path(_ relative: String) -> String { site + "/" + relative }

    /// Sets both times of `path` (not following a link).
    func setTimes(_ path: String, _ time: timespec) {
        var times = [time, time]
        utimensat(AT_FDCWD, path, &times, AT_SYMLINK_NOFOLLOW)
    }

    /// From now on files written get times an hour before now, as after a clock stepped back.
    func stepClockBack() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        now.tv_sec -= 3600
        steppedBack = now
    }

    func resetClock() { steppedBack = nil }
}
