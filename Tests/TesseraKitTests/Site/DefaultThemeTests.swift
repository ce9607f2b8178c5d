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

    @Test func scaffoldedSiteBuilds() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-new-\(UUID().uuidString)").path
        let written = try SiteScaffold.create(at: root, title: "Fresh")
        #expect(written.contains("site.yml"))
        #expect(written.contains("themes/default/theme.yml"))
        let report = try SiteBuilder(options: BuildOptions(sourceDirectory: root, fallbackBuildDate: Date(timeIntervalSince1970: 0))).build()
        #expect(report.pages == 2)
        #expect(throws: TesseraError.self) { try SiteScaffold.create(at: root, title: "Again") }
    }
}
