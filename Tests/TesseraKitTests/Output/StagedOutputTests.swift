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
