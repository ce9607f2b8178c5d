import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TesseraClient
import TesseraKit

/// The client as an app uses it, against the example site built by Tessera and served over HTTP:
/// every page in `api/index.json` decodes, the blog's pages are followed to the end, the menus
/// decode, and a component from a newer schema shows its fallback.
@Suite(.serialized) struct ExampleSiteClientTests {
    static let root: String = {
        var folder = URL(fileURLWithPath: #filePath)
        while folder.path != "/" && !FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
            folder.deleteLastPathComponent()
        }
        return folder.path
    }()

    /// The example site, built once, as `tessera build` writes it.
    static let site: URL = {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-site-\(UUID().uuidString)")
        let options = BuildOptions(
            sourceDirectory: root, outputDirectory: output.path, buildDate: nil, fallbackBuildDate: Date(timeIntervalSince1970: 0), writesOutput: true)
        _ = try? SiteBuilder(options: options).run()
        return output
    }()

    @Test func everyPageOfTheExampleSiteDecodes() async throws {
        let server = try PythonServer(serving: Self.site)
        defer { server.stop() }
        let client = TesseraClient(baseURL: server.baseURL, clientVersion: TesseraVersion("1.0")!)
        let index = try await client.index()
        #expect(index.pages.count >= 60)
        var components = 0, types = Set<String>()
        for entry in index.pages {
            let document = try await client.page(entry.json)
            #expect(document.page.id == entry.id && client.isSupported(document), "\(entry.json)")
            for section in document.sections {
                for component in section.components {
                    components += 1
                    types.insert(component.type)
                }
            }
        }
        #expect(components > 100 && types.count >= 15, "\(components) components of \(types.count) types")
        let site = try await client.site()
        #expect(site.languages.map(\.code) == ["en", "fr", "de", "ar"])
        #expect(site.menus["en"]?["main"]?.isEmpty == false)
    }

    @Test func theBlogIsFollowedToItsLastPageAndRevalidatedFromTheCache() async throws {
        let server = try PythonServer(serving: Self.site)
        defer { server.stop() }
        let client = TesseraClient(baseURL: server.baseURL, clientVersion: TesseraVersion("1.0")!)
        var pages: [TesseraPageDocument] = []
        for try await page in client.allPages(startingAt: "/blog/") { pages.append(page) }
        let pagination = try #require(pages.first?.page.pagination)
        #expect(pages.count == pagination.total && pages.count >= 3)
        #expect(pages.last?.page.pagination?.next == nil)
        let listed = pages.flatMap { $0.sections.flatMap(\.items) }
        #expect(listed.count == pagination.items, "every post once: \(listed.count) of \(pagination.items)")
        #expect(Set(listed.map(\.id)).count == listed.count)
        // Each listed post leads to its page, typed.
        let first = try #require(listed.first?.action)
        #expect(first.type == .navigate && first.json != nil)
        let post = try await client.page(try #require(first.json))
        #expect("page:" + post.page.id == listed.first?.id.split(separator: "/", maxSplits: 1).last.map(String.init))

        let before = await client.statistics
        _ = try await client.page("/blog/")
        let after = await client.statistics
        #expect(after.notModified == before.notModified + 1, "an unchanged page comes from the cache after a 304")
    }

    @Test func aComponentOfANewerSchemaShowsItsFallbackInAnOlderApp() async throws {
        // The home page as a newer build would write it: a type this app has never seen, with a
        // fallback to a stat, and one more that asks to be hidden.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-newer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var home = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.site.appendingPathComponent("index.json"))) as? [String: Any])
        var sections = try #require(home["sections"] as? [[String: Any]])
        var items = try #require(sections[1]["items"] as? [[String: Any]])
        let stat = items[0]
        #expect(stat["type"] as? String == "stat")
        items.insert(["id": "section-2/sparkline-1", "type": "sparkline", "version": 1, "fields": ["points": [1, 3, 2]], "fallback": stat], at: 0)
        items.insert(["id": "section-2/poll-1", "type": "poll", "version": 1, "fields": [:], "fallback": "hide"], at: 1)
        sections[1]["items"] = items
        home["sections"] = sections
        try JSONSerialization.data(withJSONObject: home).write(to: folder.appendingPathComponent("index.json"))
        let server = try PythonServer(serving: folder)
        defer { server.stop() }

        let client = TesseraClient(baseURL: server.baseURL, clientVersion: TesseraVersion("1.0")!)
        let document = try await client.page("/")
        var registry = TesseraComponentRegistry<String>()
        registry.register("stat", upToVersion: 1) { component in
            "\(component.fields["label"]?.text ?? "?"): \(component.fields["value"]?.text ?? "?") \(component.computed["changeText"]?.text ?? "")"
        }
        let section = document.sections[1]
        let resolutions = section.items.map(registry.resolve)
        guard case .fellBack(let from, let shown) = resolutions[0] else { Issue.record("\(resolutions[0])"); return }
        #expect(from == "sparkline" && shown.hasSuffix("+25%"), "\(shown)")
        guard case .hidden(let type) = resolutions[1] else { Issue.record("\(resolutions[1])"); return }
        #expect(type == "poll")
        #expect(section.items.compactMap(registry.view(for:)).count == section.items.count - 1, "every stat and the sparkline's fallback; not the poll")
    }
}
