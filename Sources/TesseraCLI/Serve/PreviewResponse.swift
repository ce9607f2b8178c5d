import Foundation
import Hummingbird

/// Builds the preview's responses, so every one carries the same caching and sniffing headers.
enum PreviewResponse {
    /// A response with a body. HTML gets the live-reload script; nothing is cached, because the
    /// next rebuild may change any file and the browser must ask again after a reload.
    static func bytes(
        _ contents: Data, contentType: String, status: HTTPResponse.Status = .ok, headers extraHeaders: HTTPFields = [:]
    ) -> Response {
        let body = ContentType.isHTML(contentType) ? LiveReloadInjection.inject(into: contents) : contents
        var headers = extraHeaders
        headers[.contentType] = contentType
        headers[.cacheControl] = "no-store"
        headers[.xContentTypeOptions] = "nosniff"
        return Response(status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// A short plain-text response, for refusals and redirects.
    static func text(_ message: String, status: HTTPResponse.Status, headers: HTTPFields = [:]) -> Response {
        bytes(Data(message.utf8), contentType: ContentType.plainText, status: status, headers: headers)
    }
}
