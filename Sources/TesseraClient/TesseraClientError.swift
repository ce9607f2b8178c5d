import Foundation

/// Everything that can go wrong reading a Tessera site, each case carrying what an app needs to
/// log it: which URL, which status, which format.
public enum TesseraClientError: Error, CustomStringConvertible {
    /// The server answered with a status other than 2xx (or a 304 the client had nothing cached for).
    case http(status: Int, url: URL)
    /// The bytes at `url` are not the expected document; `underlying` says why (often a
    /// `DecodingError`, or ``wrongFormat(expected:found:)`` / ``unsupportedFormatVersion(_:minimum:)``).
    case decoding(url: URL, underlying: any Error)
    /// A document of another kind, e.g. a section endpoint fetched as a page.
    case wrongFormat(expected: String, found: String)
    /// A format version older than this client reads. Newer versions are accepted: they only add keys.
    case unsupportedFormatVersion(Int, minimum: Int)
    /// A path or URL that cannot be resolved against the client's base URL.
    case invalidURL(String)
    /// `pagination.next` led back to a page already read; following it would never end.
    case paginationLoop(url: URL)
    /// The transport returned something that is not an HTTP response.
    case notHTTP(url: URL?)

    public var description: String {
        switch self {
        case .http(let status, let url): "HTTP \(status) for \(url.absoluteString)"
        case .decoding(let url, let underlying): "cannot read \(url.absoluteString): \(Self.describe(underlying))"
        case .wrongFormat(let expected, let found): "expected a \"\(expected)\" document, found \"\(found)\""
        case .unsupportedFormatVersion(let version, let minimum): "format version \(version) is older than \(minimum), the oldest this client reads"
        case .invalidURL(let string): "\"\(string)\" is not a valid path or URL"
        case .paginationLoop(let url): "pagination loops back to \(url.absoluteString)"
        case .notHTTP(let url): "\(url?.absoluteString ?? "a request") did not answer over HTTP"
        }
    }

    /// DecodingError's own description is a dump; name the key path and the reason instead.
    private static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return String(describing: error) }
        let (context, reason): (DecodingError.Context, String) = switch error {
        case .typeMismatch(let type, let context): (context, "expected \(type)")
        case .valueNotFound(let type, let context): (context, "missing \(type) value")
        case .keyNotFound(let key, let context): (context, "missing key \"\(key.stringValue)\"")
        case .dataCorrupted(let context): (context, context.debugDescription)
        @unknown default: (DecodingError.Context(codingPath: [], debugDescription: ""), String(describing: error))
        }
        let path = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined()
        return path.isEmpty ? reason : "\(reason) at \(path)"
    }
}

extension TesseraClientError: LocalizedError {
    public var errorDescription: String? { description }
}
