import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How the client talks HTTP. A protocol so tests (and apps with their own networking stack)
/// can answer requests without a server.
public protocol TesseraTransport: Sendable {
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)
}

/// The default transport, over `URLSession`.
public struct URLSessionTransport: TesseraTransport {
    private let session: URLSession

    /// `session` defaults to an ephemeral session without a URL cache: ``TesseraClient`` does its
    /// own revalidation, and URLSession's cache would otherwise answer from its store or turn the
    /// server's 304 into a 200, hiding what actually went over the network.
    public init(session: URLSession? = nil) {
        self.session = session ?? {
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
            return URLSession(configuration: configuration)
        }()
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else {
            throw TesseraClientError.notHTTP(url: request.url)
        }
        return (data, http)
    }
}
