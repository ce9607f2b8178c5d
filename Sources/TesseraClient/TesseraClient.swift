import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Reads a Tessera site's JSON: pages, section endpoints, the index and the site document.
///
/// An actor because it owns a cache that concurrent screens share. Every request revalidates
/// (`If-None-Match` / `If-Modified-Since`) instead of trusting an expiry time: static files
/// change only when the site is rebuilt, a 304 costs a few bytes, and the reader always sees
/// the published version.
public actor TesseraClient {
    /// What went over the network, so tests and debug screens can check the cache works.
    public struct Statistics: Sendable, Equatable {
        /// Requests sent.
        public var requests = 0
        /// 304 answers, served from the cache.
        public var notModified = 0
        /// 2xx answers, whose bytes were returned (and cached when they had a validator).
        public var downloaded = 0
    }

    private struct CacheEntry {
        let data: Data
        let etag: String?
        let lastModified: String?
    }

    /// The site's root, against which paths such as "/blog/" resolve.
    public nonisolated let baseURL: URL
    /// This app's version, compared with each page's `minClientVersion`.
    public nonisolated let clientVersion: TesseraVersion
    private let transport: any TesseraTransport
    private var cache: [URL: CacheEntry] = [:]
    public private(set) var statistics = Statistics()

    public init(baseURL: URL, clientVersion: TesseraVersion, transport: any TesseraTransport = URLSessionTransport()) {
        self.baseURL = baseURL
        self.clientVersion = clientVersion
        self.transport = transport
    }

    // MARK: Documents

    /// A page, by its JSON path ("/blog/index.json"), its page URL ("/blog/", "/404.html") or an
    /// absolute URL of either.
    public func page(_ pathOrURL: String) async throws -> TesseraPageDocument {
        try await load(TesseraPageDocument.self, at: jsonURL(for: pathOrURL))
    }

    /// A section endpoint page, by the `json` of a section's ``TesseraMore`` or a `pagination` link.
    public func section(_ json: String) async throws -> TesseraSectionDocument {
        try await load(TesseraSectionDocument.self, at: jsonURL(for: json))
    }

    /// `/api/index.json`.
    public func index() async throws -> TesseraIndex {
        try await load(TesseraIndex.self, at: jsonURL(for: "/api/index.json"))
    }

    /// `/api/site.json`.
    public func site() async throws -> TesseraSiteDocument {
        try await load(TesseraSiteDocument.self, at: jsonURL(for: "/api/site.json"))
    }

    /// Whether this app can show `document` fully: its `minClientVersion` is not above
    /// ``clientVersion``. Otherwise it still shows the page, with fallbacks in place of what it lacks, and may suggest an update.
    public nonisolated func isSupported(_ document: TesseraPageDocument) -> Bool {
        document.page.minClientVersion <= clientVersion
    }

    // MARK: Pagination

    /// Every page of a paginated list from `start` on, following `pagination.next`. Pages are
    /// fetched as the sequence is iterated, so a consumer that stops early costs no more requests.
    /// A `next` leading back to a page already read ends the sequence with
    /// ``TesseraClientError/paginationLoop(url:)``.
    public nonisolated func allPages(startingAt start: String) -> AsyncThrowingStream<TesseraPageDocument, any Error> {
        paginate(from: start, load: { try await self.load(TesseraPageDocument.self, at: $0) }, next: { $0.page.pagination?.next })
    }

    /// Every page of a section's endpoint, from `more.json` on, as ``allPages(startingAt:)`` does.
    public nonisolated func allSectionPages(of more: TesseraMore) -> AsyncThrowingStream<TesseraSectionDocument, any Error> {
        paginate(from: more.json, load: { try await self.load(TesseraSectionDocument.self, at: $0) }, next: { $0.pagination?.next })
    }

    private nonisolated func paginate<Document: Sendable>(
        from start: String,
        load: @escaping @Sendable (URL) async throws -> Document,
        next: @escaping @Sendable (Document) -> String?
    ) -> AsyncThrowingStream<Document, any Error> {
        let pager = Pager(start: start, resolve: { [self] in try jsonURL(for: $0) }, load: load, next: next)
        return AsyncThrowingStream { try await pager.nextDocument() }
    }

    // MARK: URLs and bytes

    /// The absolute JSON URL for a path or URL: JSON paths are kept, "/x/" becomes
    /// "/x/index.json", "/x.html" becomes "/x.json" (so "/404.html" is "/404.json"), and a path
    /// without extension ("/x") is read as the folder "/x/". Fragments are dropped; relative
    /// paths resolve against ``baseURL`` as a browser would.
    public nonisolated func jsonURL(for pathOrURL: String) throws -> URL {
        // "" is the same-document reference: the base itself (Foundation's URL(string:) rejects it).
        guard let resolved = pathOrURL.isEmpty ? baseURL.absoluteURL : URL(string: pathOrURL, relativeTo: baseURL)?.absoluteURL,
              var components = URLComponents(url: resolved, resolvingAgainstBaseURL: false),
              components.scheme != nil, components.host != nil
        else { throw TesseraClientError.invalidURL(pathOrURL) }
        components.fragment = nil
        let path = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
        components.percentEncodedPath = switch path {
        case let path where path.hasSuffix(".json"): path
        case let path where path.hasSuffix("/"): path + "index.json"
        case let path where path.hasSuffix(".html"): String(path.dropLast(".html".count)) + ".json"
        default: path + "/index.json"
        }
        guard let url = components.url else { throw TesseraClientError.invalidURL(pathOrURL) }
        return url
    }

    /// The bytes at `url`, revalidated against the cache: a 304 returns the cached bytes, a 2xx
    /// replaces them. Other statuses throw ``TesseraClientError/http(status:url:)``.
    public func data(at url: URL) async throws -> Data {
        let cached = cache[url]
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let etag = cached?.etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let lastModified = cached?.lastModified { request.setValue(lastModified, forHTTPHeaderField: "If-Modified-Since") }
        statistics.requests += 1
        let (data, response) = try await transport.send(request)
        switch response.statusCode {
        case 304:
            // `cached` is the entry the request was conditional on, even if another request
            // replaced it while this one was in flight.
            guard let cached else { throw TesseraClientError.http(status: 304, url: url) }
            statistics.notModified += 1
            return cached.data
        case 200..<300:
            statistics.downloaded += 1
            let etag = response.value(forHTTPHeaderField: "ETag")
            let lastModified = response.value(forHTTPHeaderField: "Last-Modified")
            // Without a validator there is nothing to revalidate with, so nothing worth keeping.
            cache[url] = etag == nil && lastModified == nil ? nil : CacheEntry(data: data, etag: etag, lastModified: lastModified)
            return data
        default:
            throw TesseraClientError.http(status: response.statusCode, url: url)
        }
    }

    /// Forgets every cached response (e.g. on memory pressure); the next requests download in full.
    public func removeCachedData() {
        cache.removeAll()
    }

    private func load<Document: Decodable & Sendable>(_ type: Document.Type, at url: URL) async throws -> Document {
        let data = try await data(at: url)
        do {
            return try JSONDecoder().decode(Document.self, from: data)
        } catch {
            throw TesseraClientError.decoding(url: url, underlying: error)
        }
    }
}

/// The state of one pagination walk: the next link and the URLs already read. An actor so the
/// stream's `unfolding` closure can advance it; only one consumer ever calls it at a time.
private actor Pager<Document: Sendable> {
    private var next: String?
    private var seen: Set<URL> = []
    private let resolve: @Sendable (String) throws -> URL
    private let load: @Sendable (URL) async throws -> Document
    private let nextLink: @Sendable (Document) -> String?

    init(start: String, resolve: @escaping @Sendable (String) throws -> URL,
         load: @escaping @Sendable (URL) async throws -> Document, next: @escaping @Sendable (Document) -> String?) {
        self.next = start
        self.resolve = resolve
        self.load = load
        self.nextLink = next
    }

    func nextDocument() async throws -> Document? {
        guard let link = next else { return nil }
        next = nil // a failure below ends the walk
        let url = try resolve(link)
        guard seen.insert(url).inserted else { throw TesseraClientError.paginationLoop(url: url) }
        let document = try await load(url)
        next = nextLink(document)
        return document
    }
}
