import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The command line as a person meets it: colour on a terminal only, source excerpts under
/// located errors, suggestions for mistyped commands and options, and plain words outside a site.
@Suite(.serialized) struct TerminalTests {
    typealias E2E = EndToEndTests

    /// Runs `tessera` with a pseudo-terminal as its standard output and error.
    static func onTerminal(_ arguments: [String], in directory: String, environment: [String: String] = [:]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let script = "import os, pty, sys\nos.environ['TERM'] = 'xterm-256color'\npty.spawn(sys.argv[1:])"
        process.arguments = ["python3", "-c", script, E2E.binary] + arguments
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        var env = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        env.removeValue(forKey: "NO_COLOR")
        env.removeValue(forKey: "FORCE_COLOR")
        // A build slower than a second (a loaded machine) draws its progress line, whose line
        // clearing is no colour: these tests are about colour, and show it only when asked.
        env["TESSERA_PROGRESS_DELAY"] = "3600"
        process.environment = env.merging(environment) { _, new in new }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    static func brokenSite() throws -> String {
        let dir = try E2E.temporaryDirectory()
        #expect(try E2E.tessera(["new", "site"], in: dir).status == 0)
        let page = dir + "/site/content/index.md"
        let text = try String(contentsOfFile: page, encoding: .utf8)
        try text.replacingOccurrences(of: "component: notice", with: "component: notise").write(toFile: page, atomically: true, encoding: .utf8)
        return dir + "/site"
    }

    @Test func aLocatedErrorShowsItsSourceLineWithACaretAndNoColourWhenPiped() throws {
        let site = try Self.brokenSite()
        let run = try E2E.tessera(["build"], in: site)
        #expect(run.status == 1)
        #expect(!run.stderr.contains("\u{1B}["), "no escape codes when piped")
        let lines = run.stderr.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "content/index.md:7:20: error: unknown component 'notise'", "\(run.stderr)")
        #expect(lines.count > 3 && lines[1] == "  7 |       - component: notise", "\(run.stderr)")
        #expect(lines.count > 3 && lines[2] == "    |                    ^" + "", "\(run.stderr)")
        #expect(run.stderr.contains("hint: did you mean 'notice'?"))
    }

    @Test func onATerminalErrorsAreColouredUnlessNoColorOrColorNever() throws {
        let site = try Self.brokenSite()
        let coloured = try Self.onTerminal(["build"], in: site)
        #expect(coloured.contains("\u{1B}[31;1merror:\u{1B}[0m"), "\(coloured)")
        #expect(coloured.contains("\u{1B}[32;1m^\u{1B}[0m"), "the caret is coloured")
        let noColor = try Self.onTerminal(["build"], in: site, environment: ["NO_COLOR": "1"])
        #expect(noColor.contains("error: unknown component 'notise'") && !noColor.contains("\u{1B}["), "\(noColor)")
        let never = try Self.onTerminal(["build", "--color", "never"], in: site)
        #expect(never.contains("error: unknown component") && !never.contains("\u{1B}["), "\(never)")
        let always = try E2E.tessera(["build", "--color=always"], in: site)
        #expect(always.stderr.contains("\u{1B}[31;1merror:"), "--color always colours a pipe too")
    }

    @Test func aMistypedCommandOrOptionGetsASuggestion() throws {
        let dir = try E2E.temporaryDirectory()
        let serv = try E2E.tessera(["serv"], in: dir)
        #expect(serv.status == 64)
        #expect(serv.stderr.hasPrefix("error: 'serv' is not a tessera command; did you mean 'serve'?"), "\(serv.stderr)")
        #expect(!serv.stderr.contains("Usage: tessera build"), "not the build command's usage")
        let option = try E2E.tessera(["serve", "--prot", "8001"], in: dir)
        #expect(option.status == 64)
        #expect(option.stderr.hasPrefix("error: unknown option '--prot'; did you mean '--port'?"), "\(option.stderr)")
        let draft = try E2E.tessera(["build", "--draft"], in: dir)
        #expect(draft.stderr.contains("did you mean '--drafts'?"), "\(draft.stderr)")
        let kind = try E2E.tessera(["new", "thme", "x"], in: dir)
        #expect(kind.status != 0 && kind.stderr.contains("did you mean 'theme'?"), "\(kind.stderr)")
    }

    @Test func outsideASiteCommandsSaySo() throws {
        let dir = try E2E.temporaryDirectory()
        for command in [["build"], ["check"], ["components"], ["serve", "--port", "0"], ["theme", "eject"], ["new", "theme", "x"]] {
            let run = try E2E.tessera(command, in: dir)
            #expect(run.status == 1, "\(command)")
            #expect(run.stderr.contains("error: no site.yml in this folder (\(dir)): this is not a Tessera site"), "\(command): \(run.stderr)")
            #expect(!run.stderr.contains("unknown theme"))
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "nothing was written")
    }

    @Test func newWritesASiteWithoutTheThemeAndEjectAndNewThemeWork() throws {
        let dir = try E2E.temporaryDirectory()
        let created = try E2E.tessera(["new", "site", "blog"], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        let site = dir + "/blog"
        #expect(Set(try FileManager.default.contentsOfDirectory(atPath: site)) == [".gitignore", "content", "site.yml"])
        let built = try E2E.tessera(["build"], in: site)
        #expect(built.status == 0 && built.stdout.hasPrefix("Built 3 pages and "), "\(built.stdout)\(built.stderr)")
        #expect(!built.stdout.contains("Built 3 pages and 3"), "pages are not counted twice")

        let theme = try E2E.tessera(["new", "theme", "ocean"], in: site)
        #expect(theme.status == 0 && theme.stdout.contains("write `theme: ocean` in site.yml"), "\(theme.stdout)\(theme.stderr)")
        let again = try E2E.tessera(["new", "theme", "ocean"], in: site)
        #expect(again.status == 1 && again.stderr.contains("themes/ocean already exists"))

        let eject = try E2E.tessera(["theme", "eject"], in: site)
        #expect(eject.status == 0 && FileManager.default.fileExists(atPath: site + "/themes/default/theme.yml"), "\(eject.stderr)")
        try "/* mine */\n".write(toFile: site + "/themes/default/static/assets/tessera.css", atomically: true, encoding: .utf8)
        let twice = try E2E.tessera(["theme", "eject"], in: site)
        #expect(twice.status == 1 && twice.stderr.contains("already exists"))
        #expect(try String(contentsOfFile: site + "/themes/default/static/assets/tessera.css", encoding: .utf8) == "/* mine */\n")
        let own = try E2E.tessera(["build"], in: site)
        #expect(own.status == 0)
        let css = try FileManager.default.contentsOfDirectory(atPath: site + "/public/assets").filter { $0.hasSuffix(".css") }
        #expect(try css.contains { try String(contentsOfFile: site + "/public/assets/" + $0, encoding: .utf8) == "/* mine */\n" }, "the site's copy wins")
    }

    @Test func theSummaryHasALinePerLanguageAndCheckListsMissingPages() throws {
        let dir = try E2E.temporaryDirectory()
        #expect(try E2E.tessera(["new", "site"], in: dir).status == 0)
        let site = dir + "/site"
        try (try String(contentsOfFile: site + "/site.yml", encoding: .utf8) + "languages:\n  en: {}\n  fr: {}\n").write(toFile: site + "/site.yml", atomically: true, encoding: .utf8)
        try "---\ntitle: Bienvenue\n---\nBonjour.\n".write(toFile: site + "/content/index.fr.md", atomically: true, encoding: .utf8)
        let built = try E2E.tessera(["build"], in: site)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("\n  en  3 pages (English)\n  fr  1 page (Français)"), "\(built.stdout)")
        let check = try E2E.tessera(["check"], in: site)
        #expect(check.stdout.contains("fr: 1 of 3 pages, missing: 404.md, about.md"), "\(check.stdout)")
        let french = try String(contentsOfFile: site + "/public/about/index.html", encoding: .utf8)
        #expect(french.contains("href=\"/fr/\""), "the switcher links French readers to the French home")
        let noFrenchAbout = !FileManager.default.fileExists(atPath: site + "/public/fr/about/index.html")
        #expect(noFrenchAbout)
    }

    @Test func portZeroPicksAFreePort() throws {
        let dir = try E2E.temporaryDirectory()
        #expect(try E2E.tessera(["new", "site"], in: dir).status == 0)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: E2E.binary)
        process.arguments = ["serve", "--port", "0"]
        process.currentDirectoryURL = URL(fileURLWithPath: dir + "/site")
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        // SIGKILL: the in-process preview tests leave SIGTERM ignored, and children inherit that.
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
        var log = ""
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline, !log.contains("Serving at") {
            log += String(decoding: out.fileHandleForReading.availableData, as: UTF8.self)
        }
        let port = log.components(separatedBy: "http://127.0.0.1:").dropFirst().first?.prefix { $0.isNumber }
        #expect(port.flatMap { Int($0) }.map { $0 > 0 } == true, "\(log)")
        #expect(!log.contains("try --port"))
    }
}
