import Foundation
import Hummingbird
import Logging

/// Answers every request of the preview: the built site, the live-reload script and the event stream.
///
/// A hand-written responder rather than Hummingbird's router and `FileMiddleware`: the file side
/// needs checks the middleware does not make (see ``RequestPath`` and ``OutputFolder``), and
/// with one `switch` the whole URL space of the preview reads in one place. Paths under
/// `/__tessera/` belong to the preview, whatever the site holds there.
struct PreviewResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    static let eventsPath = "/__tessera/events"

    let site: OutputFolder
    let events: PreviewEventStream
    let logger: Logger

    func respond(to request: Request, context: Context) async throws -> Response {
        guard request.method == .get || request.method == .head else {
            return PreviewResponse.text(
                "Method not allowed: the preview only serves GET and HEAD.\n", status: .methodNotAllowed, headers: [.allow: "GET, HEAD"])
        }
        let response = await response(to: request)
        return request.method == .head ? response.createHeadResponse() : response
    }

    private func response(to request: Request) async -> Response {
        switch request.uri.path {
        case LiveReloadInjection.scriptPath:
            return PreviewResponse.bytes(Data(LiveReloadScript.source.utf8), contentType: ContentType.javaScript)
        case Self.eventsPath:
            var response = Response(status: .ok, body: events.makeBody())
            response.headers[.contentType] = ContentType.eventStream
            response.headers[.cacheControl] = "no-cache"
            return response
        case let rawPath:
            return await siteFile(rawPath: rawPath, query: request.uri.query)
        }
    }

    private func siteFile(rawPath: String, query: String?) async -> Response {
        let path: RequestPath
        do {
            path = try RequestPath(rawPath)
        } catch {
            logger.debug("refused a request path", metadata: ["path": "\(rawPath)", "reason": "\(error)"])
            return PreviewResponse.text("Bad request: \(error).\n", status: .badRequest)
        }
        switch site.lookUp(path) {
        case .file(let resolvedPath):
            guard let contents = await site.read(resolvedPath) else { return await notFound(path) }
            return PreviewResponse.bytes(contents, contentType: ContentType.forFile(resolvedPath))
        case .folderWithoutSlash:
            // Built from the encoded names, never from the raw path: `//evil.example` must not
            // become a protocol-relative redirect to another host.
            let location = "/" + path.encodedNames.joined(separator: "/") + "/" + (query.map { "?" + $0 } ?? "")
            return PreviewResponse.text("Moved to \(location)\n", status: .movedPermanently, headers: [.location: location])
        case .notFound:
            return await notFound(path)
        case .outputMissing:
            let page = BuiltInPage.rebuilding(outputDirectory: site.path)
            return PreviewResponse.bytes(
                Data(page.utf8), contentType: ContentType.html, status: .serviceUnavailable, headers: [.retryAfter: "1"])
        }
    }

    /// The site's own `404.html` when it has one (a language's `/fr/404.html` for paths under
    /// `/fr/`), else a plain page; both carry the live-reload script, so a page that does not
    /// exist yet appears by itself once a rebuild creates it.
    private func notFound(_ path: RequestPath) async -> Response {
        var candidates = [RequestPath.notFoundPage]
        if path.names.count > 1, let section = try? RequestPath("/" + path.encodedNames[0] + "/404.html") { candidates.insert(section, at: 0) }
        for candidate in candidates {
            if case .file(let resolvedPath) = site.lookUp(candidate), let contents = await site.read(resolvedPath) {
                return PreviewResponse.bytes(contents, contentType: ContentType.html, status: .notFound)
            }
        }
        let page = BuiltInPage.notFound(path: "/" + path.relativePath)
        return PreviewResponse.bytes(Data(page.utf8), contentType: ContentType.html, status: .notFound)
    }
}

extension RequestPath {
    /// The page a static site shows for a missing file, by the convention of static hosts.
    static let notFoundPage = try! RequestPath("/404.html")
}
