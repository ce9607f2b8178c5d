import Foundation
import Testing
@testable import TesseraKit

/// The build cache's search documents (`SearchStore`) read back as written, across the writer's
/// buffer boundaries, and a store that cannot be written leaves the old one.
@Suite struct SearchStoreTests {
    /// Documents of every shape: optional fields set and not, non-ASCII text, many terms.
    static func documents(_ count: Int) -> [SearchDocument] {
        (0..<count).map { number in
            // Two spellings of one word, equal as `String`s: a term's bytes are kept as they are.
            let words = (0..<(number % 300)).map { "w\(number % 97)x\($0)" } + ["été", "日本", "e\u{301}te\u{301}"]
            return SearchDocument(
                url: "/posts/\(number)/", json: number % 3 == 0 ? nil : "/posts/\(number)/index.json", language: number % 5 == 0 ? "fr" : "en",
                title: "Post \(number) — “quoted”", section: "posts", date: number % 4 == 0 ? nil : "2026-11-\(10 + number % 18)",
                dateText: number % 4 == 0 ? nil : "Nov \(10 + number % 18), 2026", tags: (0..<(number % 4)).map { "tag-\($0)" },
                summary: String(repeating: "Summary of \(number). ", count: number % 7), id: "post-\(number)",
                text: number % 2 == 0 ? nil : String(repeating: "text ", count: number % 50),
                terms: SearchDocument.SearchTerms(terms: words, weights: words.indices.map { $0 % 9 + 1 }),
                length: words.count)
        }
    }

    @Test func documentsReadBackAsWrittenAcrossTheBuffer() throws {
        let folder = ExampleSite.temporaryDirectory("tessera-search-store")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let documents = Self.documents(900)
        let path = SearchStore.path(in: folder, output: "/site/public")
        SearchStore.write(documents, to: path)
        // More than twice the writer's buffer of 1 MiB.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: path)[.size] as? Int)
        #expect(size > 2 << 20)
        let read = SearchStore.read(path)
        #expect(read.count == documents.count)
        #expect(documents.allSatisfy { read[$0.url] == $0 })
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == [(path as NSString).lastPathComponent])
        #expect(read["/posts/7/"]?.terms.terms.filter { $0 == "été" }.map { Array($0.utf8).count }.sorted() == [5, 7])
    }

    /// A store cut short anywhere reads as none (its pages are made again), never as part of one.
    @Test func aStoreCutShortReadsAsNone() throws {
        let folder = ExampleSite.temporaryDirectory("tessera-search-store")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = SearchStore.path(in: folder, output: "/site/public")
        SearchStore.write(Self.documents(12), to: path)
        let whole = try Data(contentsOf: URL(fileURLWithPath: path))
        #expect(SearchStore.read(path).count == 12)
        let cuts = [0, 3, 4, 8, 9, whole.count - 1] + Array(stride(from: 10, to: whole.count, by: max(1, whole.count / 200)))
        for cut in cuts {
            try whole.prefix(cut).write(to: URL(fileURLWithPath: path))
            #expect(SearchStore.read(path).isEmpty, "cut at \(cut) of \(whole.count)")
        }
    }

    @Test func aStoreThatCannotBeWrittenLeavesTheOldOne() throws {
        let folder = ExampleSite.temporaryDirectory("tessera-search-store")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = SearchStore.path(in: folder, output: "/site/public")
        let old = Self.documents(3)
        SearchStore.write(old, to: path)
        // A folder where the store would go: the rename fails, and nothing is left behind.
        let blocked = folder + "/blocked"
        let name = (path as NSString).lastPathComponent
        try FileManager.default.createDirectory(atPath: blocked + "/" + name, withIntermediateDirectories: true)
        SearchStore.write(Self.documents(50), to: SearchStore.path(in: blocked, output: "/site/public"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: blocked) == [name])
        #expect(SearchStore.read(path).count == 3)
    }

    /// A first build writes its store on another core while its record is saved, and the record
    /// made the cache folder only sometimes first: the store is written into a folder it makes.
    /// (Without it, one first build in five of a busy test run left no store, and the next build
    /// after an edit found no documents and made every page again.)
    @Test func aStoreIsWrittenWhereTheCacheFolderIsNotMadeYet() throws {
        let folder = ExampleSite.temporaryDirectory("tessera-search-store")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = folder + "/.tessera/cache"
        #expect(!FileManager.default.fileExists(atPath: folder))
        let path = SearchStore.path(in: cache, output: "/site/public")
        SearchStore.write(Self.documents(4), to: path)
        #expect(SearchStore.read(path).count == 4)
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache) == [(path as NSString).lastPathComponent])
    }

    /// Through the build: a user's first build leaves the documents the next build keeps pages by.
    @Test func aFirstBuildLeavesItsSearchDocuments() throws {
        for _ in 0..<3 {
            let site = try TemporarySite(["content/a.md": "---\ntitle: A\n---\nAlpha.\n", "content/b.md": "---\ntitle: B\n---\nBeta.\n"])
            var options = site.options()
            options.cacheDirectory = site.root + "/.tessera/cache"
            _ = try SiteBuilder(options: options).run()
            let stores = try FileManager.default.contentsOfDirectory(atPath: site.root + "/.tessera/cache").filter { $0.hasSuffix(".search") }
            #expect(stores.count == 1)
            #expect(stores.first.map { SearchStore.read(site.root + "/.tessera/cache/" + $0).count } ?? 0 >= 2)
        }
    }
}
