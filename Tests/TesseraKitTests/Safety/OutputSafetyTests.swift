#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TesseraKit

/// The user's files are sacred: no output folder, path or killed build may destroy them. Every
/// refusal is checked to leave the disk exactly as it was.
@Suite struct OutputSafetyTests {
    /// Every file under `root` with its bytes (and every folder), to prove nothing changed.
    static func snapshot(_ root: String) -> [String: Data] {
        var result: [String: Data] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let relative = enumerator?.nextObject() as? String {
            let path = root + "/" + relative
            result[relative] = FileTree.isDirectory(path) ? Data("<folder>".utf8) : (FileManager.default.contents(atPath: path) ?? Data("<unreadable>".utf8))
        }
        return result
    }

    static func buildError(_ site: TemporarySite, output: String?, force: Bool = false) -> [String] {
        var options = site.options()
        options.outputDirectory = output
        options.force = force
        do {
            try SiteBuilder(options: options).build()
            return []
        } catch let error as TesseraError {
            return error.diagnostics.map { $0.formatted(relativeTo: site.root) }
        } catch {
            return ["\(error)"]
        }
    }

    @Test(arguments: ["content", "themes", "themes/mini", "themes/mini/layouts", ".", "static", "i18n", "data", "layouts", "content/sub", "..", "/"])
    func anOutputFolderThatIsOrHoldsSourceIsRefusedAndNothingChanges(_ output: String) throws {
        let site = try TemporarySite(["static/site.css": "body{}", "i18n/en.yml": "hello: Hi\n", "content/sub/page.md": "---\ntitle: Sub\n---\n"])
        let before = Self.snapshot(site.root)
        let path = output.hasPrefix("/") ? output : site.root + "/" + output
        let errors = Self.buildError(site, output: path, force: true)
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("refusing to use") == true, "\(errors)")
        #expect(Self.snapshot(site.root) == before, "a refused build changes nothing")
    }

    /// A static file at a page's output path would overwrite the page (or be overwritten), and
    /// one where a page needs a folder (or in a folder where a page is a file) could not be
    /// written: refused, before anything is, whichever URL form the page has. Files beside
    /// pages are not.
    @Test(arguments: [
        ("static/about/index.html", "content/about.md", "", "content/about.md:1:1: error: the page /about/ writes about/index.html, which is also the static file static/about/index.html"),
        ("static/index.html", "content/index.md", "", "content/index.md:1:1: error: the page / writes index.html, which is also the static file static/index.html"),
        ("static/404.html", "content/404.md", "", "content/404.md:1:1: error: the page /404.html writes 404.html, which is also the static file static/404.html"),
        ("static/legal.html", "content/legal.md", "slug: legal.html\n", "content/legal.md:3:7: error: the static file static/legal.html and the page /legal.html/ need the same name, one for a file and one for a folder"),
        ("static/404.html/logo.png", "content/404.md", "", "content/404.md:1:1: error: the static file static/404.html/logo.png and the page /404.html need the same name, one for a file and one for a folder"),
    ])
    func aStaticFileWhereAPageIsIsRefused(file: String, page: String, slug: String, message: String) throws {
        let site = try TemporarySite([file: "<p>static</p>", page: "---\ntitle: A page\n\(slug)---\nText.\n"])
        let before = Self.snapshot(site.root)
        #expect(Self.buildError(site, output: nil).map { String($0.prefix { $0 != "\n" }) } == [message])
        #expect(Self.snapshot(site.root) == before, "nothing written")
        let fine = try TemporarySite(["static/about/photo.html": "<p>static</p>", "content/about.md": "---\ntitle: About\n---\nText.\n"])
        #expect(Self.buildError(fine, output: nil) == [])
    }

    @Test func anOutputFolderInSiteYMLIsRefusedAtItsLine() throws {
        let site = try TemporarySite(["site.yml": "title: T\ntheme: mini\noutput: content\n"])
        let before = Self.snapshot(site.root)
        let errors = Self.buildError(site, output: nil)
        #expect(errors == ["site.yml:3:9: error: refusing to use content as the output folder: it is or holds the site's source folder content\n    hint: the output folder is replaced on every build; choose a folder of its own, such as public/"])
        #expect(Self.snapshot(site.root) == before)
    }

    @Test func aFolderOfTheUsersIsReplacedOnlyWithForce() throws {
        let site = try TemporarySite([:])
        let mine = site.root + "/mine"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: true)
        try Data("my notes".utf8).write(to: URL(fileURLWithPath: mine + "/notes.txt"))
        let errors = Self.buildError(site, output: mine)
        #expect(errors.count == 1)
        #expect(errors.first?.contains("refusing to replace") == true && errors.first?.contains("notes.txt") == true, "\(errors)")
        #expect(FileManager.default.contents(atPath: mine + "/notes.txt") == Data("my notes".utf8))
        #expect(Self.buildError(site, output: mine, force: true) == [])
        #expect(!FileManager.default.fileExists(atPath: mine + "/notes.txt"), "--force replaces the folder")
        #expect(FileManager.default.fileExists(atPath: mine + "/.tessera-output"), "and marks it as Tessera's")
    }

    @Test func aMarkedOutputIsReplacedWithoutForceAndAFileIsNeverAnOutput() throws {
        let site = try TemporarySite([:])
        try site.build()
        #expect(site.exists(".tessera-output"))
        #expect(Self.buildError(site, output: nil) == [], "Tessera's own output is replaced freely")
        let file = site.root + "/file.txt"
        try Data("keep".utf8).write(to: URL(fileURLWithPath: file))
        let errors = Self.buildError(site, output: file, force: true)
        #expect(errors.first?.contains("it is a file, not a folder") == true, "\(errors)")
        #expect(FileManager.default.contents(atPath: file) == Data("keep".utf8))
    }

    @Test func aWriteErrorNamesTheFileAndTheSystemsReason() throws {
        let site = try TemporarySite([:])
        try Data("a file".utf8).write(to: URL(fileURLWithPath: site.root + "/blocker"))
        let errors = Self.buildError(site, output: site.root + "/blocker/public")
        #expect(errors.count == 1, "\(errors)")
        // Named in the message, with the system's reason; not quoted as if it were a source.
        #expect(errors.first?.hasPrefix("error: ") == true && errors.first?.contains("/blocker") == true && errors.first?.contains("Not a directory") == true, "\(errors)")
        #expect(FileManager.default.contents(atPath: site.root + "/blocker") == Data("a file".utf8))
    }

    @Test func anotherSiteIsNeverAnOutput() throws {
        let site = try TemporarySite([:])
        let other = try TemporarySite([:])
        let before = Self.snapshot(other.root)
        let errors = Self.buildError(site, output: other.root, force: true)
        #expect(errors.first?.contains("it holds a site") == true, "\(errors)")
        #expect(Self.snapshot(other.root) == before)
    }

    @Test func aSymlinkedOutputIntoTheSourcesIsRefused() throws {
        let site = try TemporarySite([:])
        try FileManager.default.createSymbolicLink(atPath: site.root + "/out", withDestinationPath: site.root + "/content")
        let before = Self.snapshot(site.root + "/content")
        let errors = Self.buildError(site, output: site.root + "/out", force: true)
        #expect(errors.first?.contains("refusing to use") == true, "\(errors)")
        #expect(Self.snapshot(site.root + "/content") == before)
    }

    @Test(arguments: ["../escape", "../../x", "a/../../b", "/abs", "", ".", "..", "a/.", "a/..", "a//b", "a/", "./a", "a\\..\\b", "a\0b"])
    func outputPathsThatLeaveTheFolderAreRefused(_ path: String) {
        #expect(throws: TesseraError.self) { try OutputWriter.checkPath(path) }
    }

    @Test(arguments: ["index.html", "fr/index.html", "a/b/c.css", "..hidden/x", ".well-known/x", "a/.../b", "a/b.", "é/ü.html"])
    func outputPathsInsideTheFolderPass(_ path: String) throws {
        try OutputWriter.checkPath(path)
    }

    // MARK: Killed builds

    @Test func aKilledBuildsStagingFolderIsRemovedByTheNextBuild() throws {
        let site = try TemporarySite([:])
        try site.build()
        let dead = try Self.deadProcessID()
        let staging = site.root + "/.tessera-build-public-\(dead)-7"
        try FileManager.default.createDirectory(atPath: staging + "/half", withIntermediateDirectories: true)
        try Data("partial".utf8).write(to: URL(fileURLWithPath: staging + "/half/index.html"))
        try site.build()
        #expect(!FileManager.default.fileExists(atPath: staging))
        #expect(Self.strays(in: site.root) == [])
    }

    @Test func aBuildKilledBetweenItsRenamesGetsThePreviousOutputBackEvenIfItFails() throws {
        let site = try TemporarySite([:])
        try site.build()
        let built = Self.snapshot(site.output)
        let dead = try Self.deadProcessID()
        // The fallback swap moved the output aside and was killed before moving the new one in.
        let aside = site.root + "/.tessera-old-public-\(dead)-3"
        #expect(rename(site.output, aside) == 0)
        try site.write("content/index.md", "---\ntitle: [broken\n---\n")
        #expect(!Self.buildError(site, output: nil).isEmpty, "this build fails…")
        #expect(Self.snapshot(site.output) == built, "…but the previous site is back in place first")
        #expect(Self.strays(in: site.root) == [])
    }

    @Test func aLiveBuildsStagingFolderIsLeftAlone() throws {
        let site = try TemporarySite([:])
        // Our own parent process is alive: its folder belongs to a build still running.
        let live = site.root + "/.tessera-build-public-\(getppid())-1"
        try FileManager.default.createDirectory(atPath: live, withIntermediateDirectories: true)
        try site.build()
        #expect(FileManager.default.fileExists(atPath: live))
    }

    /// A process id that no process has: a child that has exited and been reaped.
    static func deadProcessID() throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/true")
        try process.run()
        process.waitUntilExit()
        return process.processIdentifier
    }

    static func strays(in folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasPrefix(".tessera-") }.sorted()
    }

    /// Two pages that need one name, one as its file and the other as its folder (`slug:
    /// index.html` beside the home page, a file URL under a folder URL): refused at the `slug:`
    /// line, naming the other page's file, before anything is written; never an error of the
    /// writer placed in the output folder.
    @Test(arguments: [
        (["content/x.md": "---\ntitle: X\nslug: index.html\n---\nText.\n"],
         "content/x.md:3:7: error: the page /index.html/ needs a folder index.html/, where the page / writes its file index.html (content/index.md:1:1)"),
        (["content/a.md": "---\ntitle: A\nslug: 404.html\n---\nText.\n", "content/404.md": "---\ntitle: Not found\n---\nGone.\n"],
         "content/a.md:3:7: error: the page /404.html/ needs a folder 404.html/, where the page /404.html writes its file 404.html (content/404.md:1:1)"),
    ])
    func twoPagesThatNeedOneNameAsFileAndFolderAreRefusedAtTheSlug(files: [String: String], message: String) throws {
        let site = try TemporarySite(files.merging(["content/index.md": "---\ntitle: Home\n---\nHome.\n"]) { new, _ in new })
        let before = Self.snapshot(site.root)
        let errors = Self.buildError(site, output: nil)
        #expect(errors.map { String($0.prefix { $0 != "\n" }) }.contains(message), "\(errors)")
        #expect(!errors.joined().contains(".tessera-build"), "no error names a file of the output")
        #expect(Self.snapshot(site.root) == before, "nothing written")
    }
}
