import Foundation
import Testing
@testable import TesseraClient

@Suite struct ClientTests {
    let transport = FakeTransport(files: Fixtures.files)
    let client: TesseraClient

    init() throws {
        client = TesseraClient(baseURL: try #require(URL(string: "https://example.com/")), clientVersion: TesseraVersion(1, 4), transport: transport)
    }

    @Test(arguments: [
        ("/blog/index.json", "https://example.com/blog/index.json"),
        ("/blog/", "https://example.com/blog/index.json"),
        ("/blog", "https://example.com/blog/index.json"),
        ("/404.html", "https://example.com/404.json"),
        ("/", "https://example.com/index.json"),
        ("", "https://example.com/index.json"),
        ("/blog/#comments", "https://example.com/blog/index.json"),
        ("https://example.com/tags/swift/", "https://example.com/tags/swift/index.json"),
        ("https://cdn.example.org/a/b.json", "https://cdn.example.org/a/b.json"),
    ])
    func pathsMapToJSON(input: String, expected: String) throws {
        #expect(try client.jsonURL(for: input).absoluteString == expected)
    }

    @Test func pageIndexSiteAndSupport() async throws {
        let home = try await client.page("/")
        #expect(home.page.title == "Learning")
        #expect(client.isSupported(home)) // needs 1.2, app is 1.4
        let old = TesseraClient(baseURL: client.baseURL, clientVersion: TesseraVersion(1, 1), transport: transport)
        #expect(!old.isSupported(home))
        #expect(try await client.page("/404.html").page.title == "Not found")
        #expect(try await client.index().pages.count == 2)
        #expect(try await client.site().title == "Learning")
        #expect(await transport.requestedPaths == ["/index.json", "/404.json", "/api/index.json", "/api/site.json"])
    }

    @Test func paginationIsFollowedToTheEnd() async throws {
        var ids: [String] = []
        for try await page in client.allPages(startingAt: "/blog/") { ids.append(page.page.id) }
        #expect(ids == ["blog", "blog/page/2", "blog/page/3"])
        #expect(await transport.requestedPaths == ["/blog/index.json", "/blog/page/2/index.json", "/blog/page/3/index.json"])
    }

    @Test func paginationLoopIsStopped() async throws {
        await transport.set("/blog/page/3/index.json", to: Fixtures.blogPage(3, next: "/blog/page/2/"))
        var ids: [String] = []
        await #expect {
            for try await page in client.allPages(startingAt: "/blog/index.json") { ids.append(page.page.id) }
        } throws: { error in
            guard case TesseraClientError.paginationLoop(let url) = error else { return false }
            return url.path == "/blog/page/2/index.json"
        }
        #expect(ids == ["blog", "blog/page/2", "blog/page/3"])
        #expect(await transport.requests.count == 3)
    }

    @Test func pagesAreFetchedOnlyAsIterated() async throws {
        for try await _ in client.allPages(startingAt: "/blog/") { break }
        #expect(await transport.requests.count == 1)
    }

    @Test func sectionEndpointPages() async throws {
        let home = try await client.page("/index.json")
        let more = try #require(home.sections.first?.more)
        var items: [String] = []
        for try await page in client.allSectionPages(of: more) { items += page.section.items.map(\.id) }
        #expect(items == ["dashboard/stat-1", "dashboard/stat-2"])
        #expect(try await client.section(more.json).pagination?.current == 1)
    }

    @Test func secondFetchIsA304ServedFromCache() async throws {
        let first = try await client.page("/blog/")
        let second = try await client.page("/blog/index.json")
        #expect(first == second)
        #expect(await client.statistics == .init(requests: 2, notModified: 1, downloaded: 1))
        let requests = await transport.requests
        #expect(requests[0].value(forHTTPHeaderField: "If-None-Match") == nil)
        #expect(requests[1].value(forHTTPHeaderField: "If-None-Match")?.hasPrefix("\"") == true)
    }

    @Test func changedBytesReplaceTheCache() async throws {
        _ = try await client.page("/404.html")
        await transport.set("/404.json", to: Fixtures.notFound.replacingOccurrences(of: "Not found", with: "Gone"))
        #expect(try await client.page("/404.html").page.title == "Gone")
        #expect(try await client.page("/404.html").page.title == "Gone") // now a 304 of the new bytes
        #expect(await client.statistics == .init(requests: 3, notModified: 1, downloaded: 2))
        await client.removeCachedData()
        _ = try await client.page("/404.html")
        #expect(await client.statistics.downloaded == 3)
    }

    @Test func httpErrorsAndDecodingErrorsNameTheURL() async throws {
        await #expect {
            try await client.page("/missing/")
        } throws: { error in
            guard case TesseraClientError.http(404, let url) = error else { return false }
            return url.absoluteString == "https://example.com/missing/index.json"
        }
        // A section endpoint fetched as a page: a decoding error carrying the URL and the reason.
        await #expect {
            try await client.page("/index/sections/dashboard/")
        } throws: { error in
            guard case TesseraClientError.decoding(let url, let underlying) = error,
                  case TesseraClientError.wrongFormat(expected: "tessera.page", found: "tessera.section") = underlying else { return false }
            return url.path == "/index/sections/dashboard/index.json"
                && "\(error)".contains("expected a \"tessera.page\" document, found \"tessera.section\"")
        }
    }
}
