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

    /// libvips, and the hundred libraries it links, are loaded when an image is made, not when
    /// `tessera` starts: the dynamic loader's log (`LD_DEBUG=files`) names it only then.
    @Test func libvipsIsLoadedOnlyWhenAnImageIsMade() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: root) }
        func loadsLibvips(_ arguments: [String]) throws -> Bool {
            let run = try EndToEndTests.tessera(arguments, in: root, environment: ["LD_DEBUG": "files"])
            #expect(run.status == 0, "\(arguments): \(run.stderr.suffix(2000))")
            // The log names every library the process opened, at start and later.
            #expect(run.stderr.contains("libcmark-gfm"), "the loader's log is read")
            return run.stderr.contains("libvips.so")
        }
        func edit(_ text: String) throws {
            try "---\ntitle: About\n---\n\(text)\n".write(toFile: root + "/content/about.md", atomically: true, encoding: .utf8)
        }
        try edit("About us.")
        #expect(try !loadsLibvips(["--version"]))
        #expect(try loadsLibvips(["build"]), "the first build makes the photo's sizes")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/public").contains { $0.hasPrefix("feeds.") && $0.hasSuffix(".webp") })
        #expect(try !loadsLibvips(["build"]), "nothing changed: no image is made")
        // An edit keys the photo and the theme's icons with the version the first build stamped.
        try edit("About us, edited.")
        #expect(try !loadsLibvips(["build"]), "an edit finds its images in the cache")
        // A stamp whose library is not the one the loader finds (another libvips installed):
        // libvips is loaded, and stamped anew for the next build.
        let stamp = root + "/.tessera/cache/images.stamp"
        var json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: stamp))) as? [String: Any])
        let files = try #require(json["files"] as? [String: String])
        #expect(files.keys.contains { $0.hasSuffix("/libvips.so.42") } && files["/etc/ld.so.cache"] != nil, "\(files)")
        json["files"] = files.mapValues { _ in "another" }
        try JSONSerialization.data(withJSONObject: json).write(to: URL(fileURLWithPath: stamp))
        try edit("About us, edited again.")
        #expect(try loadsLibvips(["build"]))
        try edit("About us, edited a third time.")
        #expect(try !loadsLibvips(["build"]))
        // And the output is what a build without the cache makes.
        #expect(try EndToEndTests.tessera(["build", "--no-cache", "--output", "full"], in: root).status == 0)
        #expect(try EndToEndTests.run("/usr/bin/diff", ["-r", "public", "full"], in: root).stdout == "")
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

/// A build ends while libvips still starts in the background (a first build of a site without
/// images). exit() finalises the libraries while that start goes on loading libvips' modules, and
/// a module loaded after libgomp was finalised ran libgomp's constructors again: the build aborted
/// in `goacc_register` after printing its summary. The race is forced here: a preloaded library
/// holds libvips' first module until libgomp is finalised, and holds libgomp's finalisation until
/// the module is open (each for at most half a second).
@Suite struct ExitDuringImageStartTests {
    static let lateModule = #"""
    #define _GNU_SOURCE
    #include <dlfcn.h>
    #include <errno.h>
    #include <pthread.h>
    #include <stdio.h>
    #include <string.h>
    #include <time.h>
    static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
    static pthread_cond_t changed = PTHREAD_COND_INITIALIZER;
    static int gompFinalised, moduleOpen, held;
    static void waitFor(int *flag) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        until.tv_nsec += 500000000;
        if (until.tv_nsec >= 1000000000) { until.tv_sec += 1; until.tv_nsec -= 1000000000; }
        while (!*flag) if (pthread_cond_timedwait(&changed, &lock, &until) == ETIMEDOUT) break;
    }
    static void set(int *flag) { *flag = 1; pthread_cond_broadcast(&changed); }
    void *dlopen(const char *file, int flags) {
        void *(*open)(const char *, int) = (void *(*)(const char *, int))dlsym(RTLD_NEXT, "dlopen");
        if (!file || !strstr(file, "vips-modules")) return open(file, flags);
        pthread_mutex_lock(&lock);
        int first = !held;
        held = 1;
        if (first) waitFor(&gompFinalised);
        pthread_mutex_unlock(&lock);
        void *handle = open(file, flags);
        if (first) {
            fprintf(stderr, "late-module: opened %s %s libgomp was finalised\n", strrchr(file, '/') + 1, gompFinalised ? "after" : "before");
            pthread_mutex_lock(&lock);
            set(&moduleOpen);
            pthread_mutex_unlock(&lock);
        }
        return handle;
    }
    void __cxa_finalize(void *object) {
        void (*finalize)(void *) = (void (*)(void *))dlsym(RTLD_NEXT, "__cxa_finalize");
        Dl_info info;
        if (object && dladdr(object, &info) && info.dli_fname && strstr(info.dli_fname, "libgomp")) {
            pthread_mutex_lock(&lock);
            set(&gompFinalised);
            if (held) waitFor(&moduleOpen);
            pthread_mutex_unlock(&lock);
        }
        finalize(object);
    }
    """#

    @Test func aBuildThatEndsWhileLibvipsStartsExitsCleanly() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-exit-race-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: root) }
        try FileManager.default.createDirectory(atPath: root + "/themes/plain/layouts", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try "title: Plain\ntheme: plain\n".write(toFile: root + "/site.yml", atomically: true, encoding: .utf8)
        try "<!DOCTYPE html><html lang=\"{{page.lang}}\"><title>{{page.title}}</title><main>{{{content}}}</main></html>\n"
            .write(toFile: root + "/themes/plain/layouts/page.mustache", atomically: true, encoding: .utf8)
        try "---\ntitle: Home\n---\nNo images here.\n".write(toFile: root + "/content/index.md", atomically: true, encoding: .utf8)
        try Self.lateModule.write(toFile: root + "/late.c", atomically: true, encoding: .utf8)
        let compiled = try EndToEndTests.run("/usr/bin/env", ["clang", "-shared", "-fPIC", "-o", root + "/late.so", root + "/late.c"])
        try #require(compiled.status == 0, "\(compiled.stderr)")

        let run = try EndToEndTests.tessera(["build"], in: root, environment: ["LD_PRELOAD": root + "/late.so"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.hasPrefix("Built 1 page"), "\(run.stdout)")
        // The start ran during this build: its first module was held at exit, and exit waited for it.
        #expect(run.stderr.contains("late-module: opened vips-"), "\(run.stderr)")
        #expect(!run.stderr.contains("Assertion"), "\(run.stderr)")
    }
}
