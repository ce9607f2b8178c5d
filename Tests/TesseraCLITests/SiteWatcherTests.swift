import Foundation
import Testing
@testable import TesseraKit
@testable import TesseraCLI

@Suite struct SiteWatcherTests {
    static func site() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-watch-\(UUID().uuidString)").path
        for folder in ["content/a", "themes/t/components", "public"] {
            try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
        }
        return root
    }

    /// The next batch of changes, or nil after `timeout` seconds.
    static func nextBatch(_ iterator: inout AsyncStream<Set<String>>.Iterator, timeout: Double = 5) async -> Set<String>? {
        await withTaskGroup(of: Set<String>?.self) { group in
            nonisolated(unsafe) var iterator = iterator
            group.addTask { await iterator.next() }
            group.addTask { try? await Task.sleep(for: .seconds(timeout)); return nil }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    @Test func reportsEditsDebouncedIgnoresTemporaryFilesAndWatchesNewFolders() async throws {
        let root = try Self.site()
        let watcher = try SiteWatcher(siteDirectory: root, quiet: .milliseconds(80))
        defer { watcher.stop() }
        #expect(watcher.watchCount == 6, "the site folder and each folder of content/ and themes/, not public/")
        var changes = watcher.changes().makeAsyncIterator()

        // An editor's atomic save: a swap file, a temporary file renamed over the page.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/content/.index.md.swp"))
        try Data("---\ntitle: A\n---\n".utf8).write(to: URL(fileURLWithPath: root + "/content/a/page.md.tmp"))
        try FileManager.default.moveItem(atPath: root + "/content/a/page.md.tmp", toPath: root + "/content/a/page.md")
        try Data("ignored".utf8).write(to: URL(fileURLWithPath: root + "/public/index.html"))
        let first = await Self.nextBatch(&changes)
        #expect(first == [root + "/content/a/page.md"], "one batch, only the real file")

        try FileManager.default.createDirectory(atPath: root + "/content/new/deeper", withIntermediateDirectories: true)
        _ = await Self.nextBatch(&changes)
        try Data("b".utf8).write(to: URL(fileURLWithPath: root + "/content/new/deeper/b.md"))
        let second = await Self.nextBatch(&changes)
        #expect(second?.contains(root + "/content/new/deeper/b.md") == true, "folders created later are watched too")

        // sed -i: a temporary file written, renamed over the original; and a file made and deleted.
        try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/content/sedAbC123"))
        try FileManager.default.removeItem(atPath: root + "/content/sedAbC123")
        try Data("title: X\n".utf8).write(to: URL(fileURLWithPath: root + "/site.yml"))
        #expect(await Self.nextBatch(&changes) == [root + "/site.yml"])
    }

    @Test func temporaryNamesAreIgnored() {
        for name in [".index.md.swp", "index.md~", "#index.md#", "4913", "page.tmp", ".DS_Store"] {
            #expect(SiteWatcher.isIgnored(name), "\(name)")
        }
        #expect(!SiteWatcher.isIgnored("index.md"))
    }
}

@Suite struct PreviewEventChoiceTests {
    static let report = BuildReport(pages: 1, files: 1, staticFiles: 0, skippedDrafts: 0, warnings: [], outputDirectory: "/o", seconds: 0)

    @Test func cssOnlyChangesSwapStylesheetsOthersReloadNothingSaysNothing() {
        #expect(PreviewSession.event(after: .built(Self.report, changed: ["assets/site.css"]), previousFailed: false) == .stylesheets)
        #expect(PreviewSession.event(after: .built(Self.report, changed: ["assets/site.css", "index.html"]), previousFailed: false) == .reload)
        // A stylesheet edit with fingerprinting: every page links the new name, and no page reloads.
        let fingerprinted = ["assets/site.1a2b3c.css", "index.html", "blog/index.html"]
        #expect(PreviewSession.event(after: .built(Self.report, changed: fingerprinted), previousFailed: false, inputs: ["/site/static/assets/site.css"]) == .stylesheets)
        #expect(PreviewSession.event(after: .built(Self.report, changed: fingerprinted), previousFailed: false, inputs: ["/site/static/assets/site.css", "/site/content/index.md"]) == .reload)
        #expect(PreviewSession.event(after: .built(Self.report, changed: fingerprinted + ["index.json"]), previousFailed: false, inputs: ["/site/static/assets/site.css"]) == .reload)
        #expect(PreviewSession.event(after: .built(Self.report, changed: []), previousFailed: false) == nil)
        #expect(PreviewSession.event(after: .built(Self.report, changed: []), previousFailed: true) == .reload, "a fix clears the overlay even if no file changed")
        let error = Diagnostic(.error, "boom", at: SourceLocation(file: "content/a.md", line: 2, column: 3))
        #expect(PreviewSession.event(after: .failed([error, Diagnostic(.warning, "meh")]), previousFailed: false) == .failed([error]))
    }
}
