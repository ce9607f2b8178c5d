import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import TesseraClient

/// A static server in memory: serves `files` by path with an ETag derived from the bytes,
/// answers `If-None-Match` with 304 like a real static server, and records every request.
actor FakeTransport: TesseraTransport {
    private(set) var files: [String: Data]
    private(set) var requests: [URLRequest] = []

    init(files: [String: String]) {
        self.files = files.mapValues { Data($0.utf8) }
    }

    func set(_ path: String, to contents: String) { files[path] = Data(contents.utf8) }

    var requestedPaths: [String] { requests.compactMap { $0.url?.path } }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        requests.append(request)
        guard let url = request.url else { throw URLError(.badURL) }
        guard let data = files[url.path] else { return (Data(), try response(url, 404, [:])) }
        let etag = "\"\(Self.fnv1a(data))\""
        if request.value(forHTTPHeaderField: "If-None-Match") == etag {
            return (Data(), try response(url, 304, ["ETag": etag]))
        }
        return (data, try response(url, 200, ["ETag": etag, "Content-Type": "application/json"]))
    }

    private func response(_ url: URL, _ status: Int, _ headers: [String: String]) throws -> HTTPURLResponse {
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: headers) else {
            throw URLError(.badServerResponse)
        }
        return response
    }

    private static func fnv1a(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
