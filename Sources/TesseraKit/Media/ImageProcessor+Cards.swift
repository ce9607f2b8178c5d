#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What Tessera makes of images besides their sizes: share cards, the site's icons, and files it
/// writes itself among them (the web manifest, a favicon.ico).
extension ImageProcessor {
    /// The share card of an image (`og:image`): 1200 × 630, cut around `focus`, a JPEG (a PNG
    /// for an SVG or an image with transparency), made larger when the image is smaller. Social
    /// networks show neither SVG nor, everywhere, WebP.
    func card(at path: String, relative: String, url: String, focus: (x: Double, y: Double), reference: SourceLocation?) throws -> (url: String, variant: ImageVariant)? {
        let source = try source(at: path)
        guard !source.animated, options.process else { return nil }
        var request = ImageRequest(ratio: 1200 / 630, focusX: focus.x, focusY: focus.y, widths: [1200])
        request.upscale = true
        request.formats = []
        let plan = ImagePlan(source: source, request: request, options: options, libvips: libvipsVersion)
        let card = plan.variant(plan.fallback, plan.fallbackFormat, relative: relative, url: url, suffix: "-card")
        schedule(plan, source: path, image: source, variants: [card.variant], reference: reference)
        return (card.url, card.variant)
    }

    /// Files made under a fixed name (icons): `name` in the output folder, the image scaled to
    /// `side` × `side` (cropped to a square), PNG.
    func icon(at path: String, side: Int, name: String, reference: SourceLocation?) throws -> ImageVariant {
        let source = try source(at: path)
        var request = ImageRequest(ratio: 1, widths: [side])
        request.upscale = true
        request.formats = []
        let plan = ImagePlan(source: source, request: request, options: options, libvips: libvipsVersion)
        var variant = ImageVariant(path: name, width: side, height: side, format: .png)
        // Icons are PNGs whatever the source: every browser and home screen takes them.
        variant.format = .png
        schedule(plan, source: path, image: source, variants: [variant], reference: reference)
        return variant
    }

    /// Bytes Tessera writes itself among the images' files (the web manifest, a favicon.ico
    /// around a PNG), by output path.
    func add(_ data: Data, at path: String) {
        let name = String(StableDigest.of(data), radix: 16) + "." + (path as NSString).pathExtension
        let target = store + "/" + name
        if access(target, F_OK) != 0 {
            try? FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
            let temporary = target + ".tmp-" + UUID().uuidString
            if FileManager.default.createFile(atPath: temporary, contents: data), rename(temporary, target) != 0 { unlink(temporary) }
        }
        lock.withLock { outputs[path] = target }
    }

    /// A `favicon.ico` at `path` holding the PNG made for `png`, written once every image is made.
    func addICO(at path: String, holding png: String) {
        lock.withLock { icons.append((path, png)) }
    }

    /// An ICO file of one PNG image (Windows Vista's format, which every browser reads).
    static func ico(holding png: Data, side: Int) -> Data {
        func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
        func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }
        let header = le16(0) + le16(1) + le16(1)
        let entry = [UInt8(side % 256), UInt8(side % 256), 0, 0] + le16(1) + le16(32) + le32(png.count) + le32(6 + 16)
        return Data(header + entry) + png
    }
}
