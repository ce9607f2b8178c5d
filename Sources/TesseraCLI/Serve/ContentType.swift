/// The `content-type` the preview sends for a file, from its extension.
///
/// A deliberate, short table of what a static site contains: guessing from the bytes would let a
/// text file be sniffed as HTML, and anything unknown is served as a download.
enum ContentType {
    static let html = "text/html; charset=utf-8"
    static let javaScript = "text/javascript; charset=utf-8"
    static let plainText = "text/plain; charset=utf-8"
    static let eventStream = "text/event-stream"
    static let fallback = "application/octet-stream"

    static let byExtension: [String: String] = [
        "html": html,
        "htm": html,
        "css": "text/css; charset=utf-8",
        "js": javaScript,
        "mjs": javaScript,
        "json": "application/json",
        "map": "application/json",
        "webmanifest": "application/manifest+json",
        "xml": "application/xml",
        "rss": "application/rss+xml",
        "atom": "application/atom+xml",
        "txt": plainText,
        "md": "text/markdown; charset=utf-8",
        "svg": "image/svg+xml",
        "png": "image/png",
        "jpg": "image/jpeg",
        "jpeg": "image/jpeg",
        "gif": "image/gif",
        "webp": "image/webp",
        "avif": "image/avif",
        "ico": "image/x-icon",
        "woff": "font/woff",
        "woff2": "font/woff2",
        "ttf": "font/ttf",
        "otf": "font/otf",
        "pdf": "application/pdf",
        "mp4": "video/mp4",
        "webm": "video/webm",
    ]

    /// The type for a file path; the extension is matched without regard to case.
    static func forFile(_ path: String) -> String {
        let name = path.split(separator: "/").last ?? ""
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return fallback }
        let fileExtension = name[name.index(after: dot)...].lowercased()
        return byExtension[fileExtension] ?? fallback
    }

    static func isHTML(_ contentType: String) -> Bool { contentType.hasPrefix("text/html") }
}
