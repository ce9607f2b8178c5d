import Foundation
import Testing
@testable import TesseraKit

/// Pages go to a new folder beside the output while the build renders; it replaces the output
/// only when the whole build succeeds.
@Suite struct StagedOutputTests {
    static let files = [
        "content/index.md": "---\ntitle: Home\n---\nHello.\n",
        "content/a.md": "---\ntitle: A\n---\nBody of A.\n",
    ]

    /// The folders Tessera keeps beside `public/` while it writes it.
    static func leftovers(beside site: TemporarySite) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.root).filter { $0.hasPrefix(".tessera-build-") || $0.hasPrefix(".tessera-old-") }
    }

    @Test func aBuildThatFailsAfterItsPagesWereWrittenLeavesTheOutputAsItWas() throws {
        let site = try TemporarySite(Self.files)
        try site.build()
        let before = try site.read("a/index.html")
        // The pages render (and go to the new folder); the redirect step then finds an alias on a page.
        try site.write("content/a.md", "---\ntitle: A, edited\naliases: [/]\n---\nBody of A, edited.\n")
        #expect(throws: TesseraError.self) { try site.build() }
        #expect(try site.read("a/index.html") == before)
        #expect(try Self.leftovers(beside: site).isEmpty)
    }

    @Test func aStreamedBuildWritesEveryFileOnceAndSwapsItIn() throws {
        let site = try TemporarySite(Self.files)
        let report = try site.build()
        let written = Set(FileManager.default.subpaths(atPath: site.output)!.filter { !FileTree.isDirectory(site.output + "/" + $0) })
        #expect(written.contains("a/index.html") && written.contains("a/index.json") && written.contains("index.html") && written.contains("sitemap.xml"))
        #expect(written.count == report.files + 1, "every file the report counts, and the output marker: \(written.sorted())")
        #expect(try Self.leftovers(beside: site).isEmpty)
        #expect(try site.read("a/index.html").contains("Body of A."))
    }

    /// The files the steps after the pages make (search index, page index, sitemap) go to the
    /// new folder as they are made, like pages: none waits in memory for the write stage, and
    /// each is written as a build that keeps them all writes it.
    @Test func theStepsAfterThePagesStreamTheirFiles() throws {
        var files = Self.files
        files["site.yml"] = "title: T\ntheme: mini\nbaseURL: https://example.com/\nbuildDate: 2026-11-22T12:00:00Z\nsearch: { documents: true }\n"
        let site = try TemporarySite(files)
        let built = try SiteBuilder(options: site.options()).run().site
        let streamed = built.outputs.filter { $0.path.hasPrefix("search/") || $0.path.hasPrefix("api/") || $0.path == Sitemap.path }
        #expect(streamed.count >= 6, "\(streamed.map(\.path))")
        for file in streamed {
            guard case .written = file.contents else {
                Issue.record("\(file.path) was held in memory to the end")
                continue
            }
        }
        // The same bytes as a build that holds every file (no new folder: `check`'s way).
        let held = try SiteBuilder(options: site.options(write: false)).run().site
        var compared = 0
        for file in held.outputs where streamed.contains(where: { $0.path == file.path }) {
            guard case .data(let data) = file.contents else { continue }
            #expect(try Data(contentsOf: URL(fileURLWithPath: site.output + "/" + file.path)) == data, "\(file.path)")
            compared += 1
        }
        #expect(compared == streamed.count)
    }

    /// Files wait for the output's thread in batches (it is woken once for many): whatever is
    /// still waiting when the pages are done is written by `finish`, each file once, with its
    /// record; and goes with the folder on `abandon`, leaving the output as it was.
    @Test func filesWaitingForTheWriterAreWrittenByFinishOrGoWithAbandon() throws {
        let site = try TemporarySite(Self.files)
        let writer = OutputWriter(outputDirectory: site.output, siteDirectory: site.root)
        for count in [1, 31, 32, 33, 70, 600] {
            let staged = try StagedOutput(writer: writer, recording: true)
            let added = (0..<count).map { staged.add(OutputFile(path: "f\($0)/index.html", contents: .data(Data("page \($0) of \(count)".utf8)))) }
            let records = try staged.finish(added)
            #expect(records.count == count, "\(count) files")
            for index in [0, count / 2, count - 1] {
                #expect(try site.read("f\(index)/index.html") == "page \(index) of \(count)")
            }
            let written = FileManager.default.subpaths(atPath: site.output)!.filter { $0.hasSuffix(".html") }
            #expect(written.count == count)
        }
        let staged = try StagedOutput(writer: writer, recording: false)
        for index in 0..<5 { staged.add(OutputFile(path: "g\(index).html", contents: .data(Data("g".utf8)))) }
        staged.abandon()
        #expect(try Self.leftovers(beside: site).isEmpty)
        #expect(try site.read("f599/index.html") == "page 599 of 600")
        #expect(!FileManager.default.fileExists(atPath: site.output + "/g0.html"))
    }

    /// The output's thread never woken (its queue held, as the dispatch queue of one core held
    /// it behind the renderer): past the backlog of 512 files the renderer writes them itself,
    /// and `finish` the rest, each once, none waited for.
    @Test func filesAreWrittenWhenTheWriterNeverWakes() throws {
        let site = try TemporarySite(Self.files)
        let writer = OutputWriter(outputDirectory: site.output, siteDirectory: site.root)
        let stalled = DispatchQueue(label: "never")
        stalled.suspend()
        defer { stalled.resume() }
        for count in [10, 513, 1_300] {
            let staged = try StagedOutput(writer: writer, recording: true, wakingOn: stalled)
            let added = (0..<count).map { staged.add(OutputFile(path: "w\($0)/index.html", contents: .data(Data("page \($0) of \(count)".utf8)))) }
            let records = try staged.finish(added)
            #expect(records.count == count, "\(count) files")
            for index in [0, 511, 512, count - 1] where index < count {
                #expect(try site.read("w\(index)/index.html") == "page \(index) of \(count)")
            }
            #expect(FileManager.default.subpaths(atPath: site.output)!.filter { $0.hasSuffix(".html") }.count == count)
        }
        let staged = try StagedOutput(writer: writer, recording: false, wakingOn: stalled)
        for index in 0..<600 { staged.add(OutputFile(path: "x\(index).html", contents: .data(Data("x".utf8)))) }
        staged.abandon()
        #expect(try Self.leftovers(beside: site).isEmpty)
        #expect(!FileManager.default.fileExists(atPath: site.output + "/x0.html"))
    }

    /// More files than the writer holds back at once (512): renderers wait for the disk, and
    /// every file is written.
    @Test func moreFilesThanTheBacklogAreAllWritten() throws {
        var files = Self.files
        for index in 0..<400 { files["content/p\(index).md"] = "---\ntitle: P\(index)\n---\nBody \(index).\n" }
        let site = try TemporarySite(files)
        try site.build()
        for index in [0, 199, 399] {
            #expect(try site.read("p\(index)/index.html").contains("Body \(index)."))
            #expect(try site.read("p\(index)/index.json").contains("Body \(index)."))
        }
        #expect(try Self.leftovers(beside: site).isEmpty)
    }
}
