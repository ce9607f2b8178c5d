import Foundation
import Testing
@testable import TesseraKit

@Suite struct DefaultThemeTests {
    /// `tessera new` writes the embedded copy; it must be exactly themes/default.
    @Test func embeddedThemeMatchesThemesDefault() throws {
        let folder = Repository.root + "/themes/default"
        let onDisk = FileTree.files(in: folder, boundary: nil, problems: DiagnosticCollector())
        let embedded = DefaultTheme.files
        #expect(embedded.map(\.path) == onDisk, "run `make theme` after changing themes/default")
        for file in embedded where onDisk.contains(file.path) {
            let disk = FileManager.default.contents(atPath: folder + "/" + file.path)
            #expect(disk == file.data, "\(file.path) differs: run `make theme`")
        }
    }

    /// A new site holds its own files only; `theme: default` is the theme built into Tessera.
    @Test func scaffoldedSiteBuildsWithTheBuiltInTheme() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-new-\(UUID().uuidString)").path
        let written = try SiteScaffold.create(at: root, title: "Fresh")
        #expect(written.sorted() == [".gitignore", "content/404.md", "content/about.md", "content/index.md", "site.yml"])
        #expect(!FileManager.default.fileExists(atPath: root + "/themes"), "the theme is not copied")
        let gitignore = try String(contentsOfFile: root + "/.gitignore", encoding: .utf8)
        #expect(gitignore.contains("/public/") && gitignore.contains("/.tessera/"))
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: root, fallbackBuildDate: Date(timeIntervalSince1970: 0))).build()
        #expect(report.pages == 3)
        let notFound = try String(contentsOfFile: root + "/public/404.html", encoding: .utf8)
        #expect(notFound.contains("Page not found"))
        #expect(!FileManager.default.fileExists(atPath: root + "/themes"), "building does not copy it either")
        #expect(throws: TesseraError.self) { try SiteScaffold.create(at: root, title: "Again") }
    }

    /// The built-in theme is unpacked into the user's cache folder, never the site, once per
    /// theme digest; a site's own `themes/default/` wins over it.
    @Test func theBuiltInThemeIsUnpackedOutsideTheSiteAndASiteCopyWins() throws {
        let cache = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-cache-\(UUID().uuidString)").path
        let first = try DefaultTheme.installedDirectory(environment: ["XDG_CACHE_HOME": cache])
        #expect(first.hasPrefix(cache + "/tessera/themes/default-"))
        #expect(FileManager.default.fileExists(atPath: first + "/theme.yml"))
        let again = try DefaultTheme.installedDirectory(environment: ["XDG_CACHE_HOME": cache])
        #expect(again == first)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: cache + "/tessera/themes")
        #expect(leftovers == [(first as NSString).lastPathComponent], "no temporary folder left behind")

        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-site-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: site + "/themes/default", withIntermediateDirectories: true)
        let own = try Theme.load(name: "default", siteDirectory: site, location: nil)
        #expect(own.directory == site + "/themes/default" && !own.isBuiltIn)
        try FileManager.default.removeItem(atPath: site + "/themes")
        let builtIn = try Theme.load(name: "default", siteDirectory: site, location: nil)
        #expect(builtIn.isBuiltIn && !builtIn.directory.hasPrefix(site))
    }

    /// `tessera theme eject` writes every file of the theme and refuses to replace anything.
    @Test func ejectingWritesTheThemeAndNeverReplacesAFile() throws {
        let site = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-eject-\(UUID().uuidString)").path
        let written = try DefaultTheme.write(to: site + "/themes/default")
        #expect(written.count == DefaultTheme.files.count)
        let css = site + "/themes/default/static/assets/tessera.css"
        try "/* mine */".write(toFile: css, atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: site + "/themes/default/theme.yml")
        #expect(throws: TesseraError.self) { try DefaultTheme.write(to: site + "/themes/default") }
        #expect(try String(contentsOfFile: css, encoding: .utf8) == "/* mine */", "a file of the user's is never replaced")
    }

    /// `tessera new theme` makes a theme that builds the new site's content.
    @Test func aScaffoldedThemeBuildsTheNewSite() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-theme-\(UUID().uuidString)").path
        try SiteScaffold.create(at: root, title: "Fresh")
        let (directory, files) = try ThemeScaffold.create(named: "ocean", in: root)
        #expect(directory == root + "/themes/ocean")
        #expect(files.contains("theme.yml") && files.contains("layouts/page.mustache") && files.contains("i18n/en.yml"))
        #expect(throws: TesseraError.self) { try ThemeScaffold.create(named: "ocean", in: root) }
        #expect(throws: TesseraError.self) { try ThemeScaffold.create(named: "../escape", in: root) }
        let site = try String(contentsOfFile: root + "/site.yml", encoding: .utf8)
        try site.replacingOccurrences(of: "theme: default", with: "theme: ocean").write(toFile: root + "/site.yml", atomically: true, encoding: .utf8)
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: root, fallbackBuildDate: Date(timeIntervalSince1970: 0))).build()
        #expect(report.pages == 3)
        let home = try String(contentsOfFile: root + "/public/index.html", encoding: .utf8)
        #expect(home.contains("<h2>Next steps</h2>") && home.contains("<article class=\"card\">"))
    }
}
