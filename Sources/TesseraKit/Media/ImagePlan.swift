import Foundation

/// How a layout shows an image: what a component's field, a theme's template or the content asks.
public struct ImageRequest: Sendable, Hashable {
    /// Width ÷ height to crop to (`fit: cover`); nil keeps the image's own shape.
    public var ratio: Double?
    /// The point a crop keeps in view, from the top left (0, 0) to the bottom right (1, 1).
    public var focusX = 0.5, focusY = 0.5
    /// The `sizes` attribute: how wide the image is shown, for the browser to choose a width.
    public var sizes: String?
    /// Widths to make instead of the site's (`images.widths`).
    public var widths: [Int]?
    /// Made at the widths asked for even when the source is smaller (share cards, icons).
    public var upscale = false
    /// The modern formats to make instead of the site's (`[]`: the fallback alone).
    public var formats: [ImageFormat]?

    public init(ratio: Double? = nil, focusX: Double = 0.5, focusY: Double = 0.5, sizes: String? = nil, widths: [Int]? = nil) {
        self.ratio = ratio
        self.focusX = focusX
        self.focusY = focusY
        self.sizes = sizes
        self.widths = widths
    }

    /// What changes the pixels of the variants (not `sizes`, which only the HTML says). The
    /// widths are part of it: the smaller sizes are scaled from the largest of their set, so one
    /// size of two sets may differ in its bytes.
    var identity: String {
        (ratio.map { "r=\($0) f=\(focusX),\(focusY)" } ?? "r=-") + (widths.map { " w=\($0)" } ?? "")
            + (upscale ? " up" : "") + (formats.map { " f=\($0.map(\.rawValue))" } ?? "")
    }

    /// `16:9`, `4:3`, `1:1`, `1.5`: a ratio of width to height.
    static func ratio(_ text: String) -> Double? {
        let parts = text.split(separator: ":")
        if parts.count == 2, let width = Double(parts[0]), let height = Double(parts[1]), width > 0, height > 0 { return width / height }
        if parts.count == 1, let value = Double(text), value > 0 { return value }
        return nil
    }

    /// `"30% 40%"`, `"0.3 0.4"`, `top`, `bottom left`, `center`: a focal point.
    static func focus(_ text: String) -> (x: Double, y: Double)? {
        var x = 0.5, y = 0.5
        var numbers: [Double] = []
        for word in text.lowercased().split(whereSeparator: { $0 == " " || $0 == "," }) {
            switch word {
            case "left": x = 0
            case "right": x = 1
            case "top": y = 0
            case "bottom": y = 1
            case "center", "centre": break
            default:
                let percent = word.hasSuffix("%")
                guard let value = Double(percent ? word.dropLast() : word) else { return nil }
                let fraction = percent ? value / 100 : value
                guard (0...1).contains(fraction) else { return nil }
                numbers.append(fraction)
            }
        }
        guard numbers.count == 0 || numbers.count == 2 else { return nil }
        if numbers.count == 2 { (x, y) = (numbers[0], numbers[1]) }
        return (x, y)
    }
}

/// One file made from an image: a width in a format.
public struct ImageVariant: Sendable, Hashable {
    /// Relative to the output folder: `images/hero.3f9a2c1d0b.640x427.webp`.
    public var path: String
    public var width: Int
    public var height: Int
    public var format: ImageFormat
}

/// The sizes made of one image for one request, and how each is cut from the source.
struct ImagePlan: Sendable, Hashable {
    struct Size: Sendable, Hashable {
        var width: Int, height: Int
        /// The size the source is scaled to before the crop, and the crop; nil without one.
        var scaledWidth: Int, scaledHeight: Int
        var crop: ImageCodec.Crop?
    }

    /// Largest first.
    var sizes: [Size]
    /// The modern formats, each at every size.
    var formats: [ImageFormat]
    /// The size and format of the fallback.
    var fallback: Size
    var fallbackFormat: ImageFormat
    /// What names every file: the source's bytes, the request and the options.
    var key: String

    /// The sizes for `request` of a source shown at `width` × `height`: the widths asked for that
    /// it has pixels for, and its own width when that is less than the largest asked for.
    init(source: SourceImage, request: ImageRequest, options: SiteConfiguration.ImageOptions, libvips version: String) {
        let asked = (request.widths ?? options.widths).sorted()
        // An SVG that gives no size is drawn at the size asked for.
        let width = source.width > 0 ? source.width : asked.last ?? 1200
        let height = source.height > 0 ? source.height : Int((Double(width) / (request.ratio ?? 1)).rounded())
        var widest = width
        var ratio = Double(width) / Double(height)
        if let asked = request.ratio {
            ratio = asked
            widest = min(width, Int((Double(height) * asked).rounded(.down)))
        }
        if request.upscale { widest = max(widest, asked.last ?? widest) }
        var widths = asked.filter { $0 <= widest }
        if widest < (asked.last ?? 0), widths.last.map({ widest - $0 > $0 / 10 }) ?? true { widths.append(widest) }
        widths = Array(Set(widths.map { max(1, $0) })).sorted(by: >)
        func size(_ w: Int) -> Size {
            let h = max(1, Int((Double(w) / ratio).rounded()))
            guard request.ratio != nil else { return Size(width: w, height: h, scaledWidth: w, scaledHeight: h, crop: nil) }
            // Scaled to cover w × h, then the window around the focal point.
            let scale = max(Double(w) / Double(width), Double(h) / Double(height))
            let sw = max(w, Int((Double(width) * scale).rounded())), sh = max(h, Int((Double(height) * scale).rounded()))
            let left = min(max(0, Int((request.focusX * Double(sw) - Double(w) / 2).rounded())), sw - w)
            let top = min(max(0, Int((request.focusY * Double(sh) - Double(h) / 2).rounded())), sh - h)
            let crop = sw == w && sh == h ? nil : ImageCodec.Crop(left: left, top: top, width: w, height: h)
            return Size(width: w, height: h, scaledWidth: sw, scaledHeight: sh, crop: crop)
        }
        sizes = widths.map(size)
        formats = request.formats ?? options.formats
        fallback = sizes.first { $0.width <= options.fallbackWidth } ?? sizes.last!
        fallbackFormat = source.format.fallback(hasAlpha: source.hasAlpha)
        var digest = StableDigest()
        digest.combine(source.digest)
        digest.combine(request.identity)
        digest.combine(options.identity)
        digest.combine("libvips \(version) plan 3")
        key = String(digest.value, radix: 16).leftPadded(to: 16).prefix(10).description
    }

    /// The file name of a size in a format: `<stem>.<key>.<w>x<h>.<ext>`.
    func fileName(stem: String, _ size: Size, _ format: ImageFormat) -> String {
        "\(stem).\(key).\(size.width)x\(size.height).\(format.fileExtension)"
    }

    /// A size in a format of the file published at `relative` (its path in the output folder)
    /// and `url`: the variant, beside the source, and its URL. `suffix` follows the stem (`-card`).
    func variant(_ size: Size, _ format: ImageFormat, relative: String, url: String, suffix: String = "") -> (variant: ImageVariant, url: String) {
        let folder = (relative as NSString).deletingLastPathComponent
        let name = fileName(stem: ((relative as NSString).lastPathComponent as NSString).deletingPathExtension + suffix, size, format)
        let urlFolder = url.prefix(upTo: url.lastIndex(of: "/").map { url.index(after: $0) } ?? url.startIndex)
        return (ImageVariant(path: folder.isEmpty ? name : folder + "/" + name, width: size.width, height: size.height, format: format), urlFolder + name)
    }

    /// The quality and effort a format is encoded with.
    static func encoding(_ format: ImageFormat, options: SiteConfiguration.ImageOptions) -> (quality: Int, effort: Int) {
        switch format {
        case .avif: (options.avifQuality, options.avifEffort)
        case .webp: (options.quality, 4)
        default: (options.quality, 0)
        }
    }
}

extension String {
    func leftPadded(to length: Int) -> String {
        count >= length ? self : String(repeating: "0", count: length - count) + self
    }
}
