import Foundation

/// The image formats Tessera reads, and those it writes (JPEG, PNG, WebP, AVIF).
public enum ImageFormat: String, Sendable, CaseIterable, Codable {
    case jpeg, png, webp, avif, gif, tiff, heif, svg

    /// The format libvips' loader reads (`VipsForeignLoadJpegBuffer`); nil for one Tessera does
    /// not take (PDF, Matlab, FITS, raw formats, ...).
    init?(loader: String) {
        switch Self.loaderFormat(loader) {
        case "jpeg": self = .jpeg
        case "png", "pngspng": self = .png
        case "webp": self = .webp
        case "gif", "nsgif": self = .gif
        case "tiff": self = .tiff
        case "heif": self = .heif
        case "svg": self = .svg
        default: return nil
        }
    }

    /// `VipsForeignLoadJpegBuffer` → `jpeg`.
    static func loaderFormat(_ loader: String) -> String {
        var name = loader.lowercased()
        if name.hasPrefix("vipsforeignload") { name.removeFirst("vipsforeignload".count) }
        for suffix in ["buffer", "source", "file"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        return name
    }

    /// Whether a file's name says it is an image Tessera may process (its bytes decide which).
    static func isImagePath(_ path: String) -> Bool {
        let name = path.lowercased()
        return [".jpg", ".jpeg", ".png", ".webp", ".avif", ".gif", ".tif", ".tiff", ".heic", ".heif", ".svg"].contains { name.hasSuffix($0) }
    }

    /// The file name extension Tessera writes.
    var fileExtension: String {
        switch self {
        case .jpeg: "jpg"
        case .tiff: "tif"
        default: rawValue
        }
    }

    /// The media type `<source type>` names.
    public var mediaType: String {
        switch self {
        case .svg: "image/svg+xml"
        default: "image/" + rawValue
        }
    }

    /// The format a browser is sent when it takes none of the modern ones: JPEG for photos,
    /// PNG for anything with transparency or of few colours, WebP as it is.
    func fallback(hasAlpha: Bool) -> ImageFormat {
        switch self {
        case .png, .gif: .png
        case .webp: .webp
        default: hasAlpha ? .png : .jpeg
        }
    }
}
