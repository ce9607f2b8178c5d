import Foundation

/// What a build knows of an image file once it has looked at it: its bytes' digest, its format
/// and shown size, and its placeholder (the dominant colour and a tiny preview). Kept in the
/// build cache (`ImageIndex`) by the file's `stat`, so an unchanged file is not read again.
struct SourceImage: Sendable, Equatable {
    var digest: UInt64
    var format: ImageFormat
    /// As shown: EXIF orientation applied; 0 × 0 for an SVG that does not say.
    var width: Int, height: Int
    var hasAlpha: Bool
    /// An animated GIF or WebP: copied as it is.
    var animated: Bool
    /// `#3a5f7d`; nil for SVG.
    var color: String?
    /// A WebP of at most 24 pixels a side, base64; nil for SVG.
    var preview: String?

    /// Whether Tessera makes sizes of it (SVG and animations go out as they are).
    var isProcessed: Bool { format != .svg && !animated }

    /// The longest side of the preview.
    static let previewSide = 24

    /// Looks at the image in `data`: refuses a format Tessera does not take and an image of more
    /// than `maxPixels` (before decoding it), then decodes a tiny version of it, which also finds
    /// truncated and corrupt files.
    static func inspect(_ data: Data, maxPixels: Int) throws -> SourceImage {
        // SVG goes out as it is: its size is read from its root element, as before.
        if isSVG(data) {
            // Without width and height, or a viewBox, its size is unknown (0 × 0).
            let size = ImageSize.parse(data)
            return SourceImage(digest: StableDigest.of(data), format: .svg, width: size?.width ?? 0, height: size?.height ?? 0, hasAlpha: true, animated: false)
        }
        let header = try ImageCodec.header(of: data)
        guard let format = ImageFormat(loader: header.loader) else { throw ImageCodec.unpublished(header.loader) }
        let pixels = header.width * header.height
        guard pixels <= maxPixels else {
            throw ImageCodec.Failure(
                description: "the image is \(header.width) × \(header.height) pixels, more than the limit of \(maxPixels) (`images.maxPixels`); it was not decoded",
                hint: "make the image smaller, or raise `images.maxPixels` in site.yml if it is meant to be this large")
        }
        let animated = header.pages > 1 && (format == .gif || format == .webp)
        var image = SourceImage(
            digest: StableDigest.of(data), format: format, width: header.shownWidth, height: header.shownHeight,
            hasAlpha: header.hasAlpha, animated: animated, color: nil, preview: nil)
        guard format != .svg else { return image }
        let scale = Double(previewSide) / Double(max(image.width, image.height))
        let materialized = try ImageCodec.checked(
            data, header: header, width: max(1, Int((Double(image.width) * min(1, scale)).rounded())), height: max(1, Int((Double(image.height) * min(1, scale)).rounded())))
        image.color = dominantColor(try ImageCodec.pixels(of: materialized))
        image.preview = try ImageCodec.encode(materialized, as: .webp, quality: 40, effort: 4).base64EncodedString()
        return image
    }

    /// Whether the bytes are an SVG document: `<svg` before anything but an XML declaration,
    /// comments, a doctype and white space.
    static func isSVG(_ data: Data) -> Bool {
        let head = String(decoding: data.prefix(4096), as: UTF8.self)
        guard let svg = head.range(of: "<svg") else { return false }
        let before = head[..<svg.lowerBound].trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
        return before.isEmpty || before.hasPrefix("<?xml") || before.hasPrefix("<!")
    }

    /// The colour most of the image is: pixels grouped by 4 bits a channel, the fullest group's
    /// average. Transparent pixels do not count.
    static func dominantColor(_ pixels: (width: Int, height: Int, bands: Int, bytes: [UInt8])) -> String {
        let bands = pixels.bands
        let grey = bands < 3
        let alphaBand = bands == 2 || bands == 4 ? bands - 1 : nil
        var counts = [Int](repeating: 0, count: 4096)
        var sums = [(Int, Int, Int)](repeating: (0, 0, 0), count: 4096)
        var index = 0
        while index + bands <= pixels.bytes.count {
            defer { index += bands }
            if let alphaBand, pixels.bytes[index + alphaBand] < 128 { continue }
            let r = Int(pixels.bytes[index]), g = grey ? r : Int(pixels.bytes[index + 1]), b = grey ? r : Int(pixels.bytes[index + 2])
            let bucket = (r >> 4) << 8 | (g >> 4) << 4 | b >> 4
            counts[bucket] += 1
            sums[bucket].0 += r
            sums[bucket].1 += g
            sums[bucket].2 += b
        }
        guard let fullest = counts.indices.max(by: { counts[$0] < counts[$1] }), counts[fullest] > 0 else { return "#808080" }
        let n = counts[fullest]
        let (r, g, b) = sums[fullest]
        return "#" + [r / n, g / n, b / n].map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }

    /// The preview as a `data:` URL of the WebP.
    var previewURL: String? { preview.map { "data:image/webp;base64," + $0 } }

    /// The preview blurred, as an SVG `data:` URL a stylesheet can put behind the image while it
    /// loads (`background-image`): a blur of the tiny WebP, kept opaque at its edges.
    var blurredPreviewURL: String? {
        guard let previewURL else { return nil }
        let svg = "<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 \(width) \(height)'>"
            + "<filter id='b' color-interpolation-filters='sRGB'><feGaussianBlur stdDeviation='\(max(width, height) / 40 + 1)'/>"
            + "<feComponentTransfer><feFuncA type='discrete' tableValues='1 1'/></feComponentTransfer></filter>"
            + "<image width='100%' height='100%' preserveAspectRatio='none' filter='url(#b)' href='\(previewURL)'/></svg>"
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: " =:/.,;+-_()")
        return "data:image/svg+xml;charset=utf-8," + (svg.addingPercentEncoding(withAllowedCharacters: allowed) ?? svg)
    }
}
