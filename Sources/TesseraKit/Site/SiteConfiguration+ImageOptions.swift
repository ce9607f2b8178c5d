extension SiteConfiguration {
    /// `images:` in site.yml: how raster images are made into responsive sizes and modern formats.
    public struct ImageOptions: Sendable, Equatable {
        /// Process images at all; off, every image is copied as it is (the sizes of its header
        /// still written).
        public var process = true
        /// The widths made of each image, in pixels; an image is never made larger than it is.
        public var widths = [320, 640, 960, 1280, 1920]
        /// The modern formats made, best first: `webp` by default, `avif` opt-in.
        public var formats: [ImageFormat] = [.webp]
        /// Quality (1–100) of WebP and of the JPEG fallback.
        public var quality = 80
        /// Quality of AVIF, whose scale gives the same look at a lower number.
        public var avifQuality = 55
        /// AVIF encoder effort, 0–9: 1 takes about WebP's time (libvips' default, 4, is several
        /// times slower; measured in Benchmarks/README.md).
        public var avifEffort = 1
        /// The width of the fallback in the source's format (JPEG or PNG), for browsers, feeds
        /// and mail readers without the modern formats.
        public var fallbackWidth = 1280
        /// Images of more pixels are refused before they are decoded (decompression bombs).
        public var maxPixels = 100_000_000
        /// The `sizes` attribute of Markdown's images: how wide the text column shows them.
        public var sizes = "100vw"

        public init() {}

        static let names = ["process", "widths", "formats", "quality", "avifQuality", "avifEffort", "fallbackWidth", "maxPixels", "sizes"]

        /// Reads `images:` of site.yml.
        mutating func read(_ node: ContentNode) throws {
            guard let entries = node.entries else {
                throw TesseraError("'images' must be a mapping, found \(node.kindDescription)", at: node.location, hint: "write `images: { widths: [320, 640, 1280], formats: [webp, avif] }`")
            }
            func whole(_ option: ContentNode.Entry, in range: ClosedRange<Int>) throws -> Int {
                guard case .int(let value) = option.value.value, range.contains(value) else {
                    throw TesseraError("'images.\(option.key)' must be a whole number from \(range.lowerBound) to \(range.upperBound)", at: option.value.location)
                }
                return value
            }
            for option in entries {
                switch option.key {
                case "process":
                    guard let flag = option.value.bool else { throw TesseraError("'images.process' must be true or false", at: option.value.location) }
                    process = flag
                case "widths":
                    guard let list = option.value.list, !list.isEmpty else {
                        throw TesseraError("'images.widths' must be a list of widths in pixels", at: option.value.location, hint: "write `widths: [320, 640, 1280]`")
                    }
                    widths = try list.map { item in
                        guard case .int(let width) = item.value, (16...8192).contains(width) else {
                            throw TesseraError("a width of 'images.widths' must be a whole number of pixels from 16 to 8192", at: item.location)
                        }
                        return width
                    }
                    widths = Array(Set(widths)).sorted()
                case "formats":
                    let list = option.value.list ?? [option.value]
                    formats = try list.map { item in
                        guard let name = item.scalarText, let format = ImageFormat(rawValue: name.lowercased()), format == .webp || format == .avif else {
                            throw TesseraError("'images.formats' takes `webp` and `avif`", at: item.location, hint: "write `formats: [webp]` or `formats: [avif, webp]`; the fallback is always the source's format")
                        }
                        return format
                    }
                case "quality": quality = try whole(option, in: 1...100)
                case "avifQuality": avifQuality = try whole(option, in: 1...100)
                case "avifEffort": avifEffort = try whole(option, in: 0...9)
                case "fallbackWidth": fallbackWidth = try whole(option, in: 16...8192)
                case "maxPixels": maxPixels = try whole(option, in: 1...1_000_000_000)
                case "sizes":
                    guard let text = option.value.scalarText, !text.isEmpty else {
                        throw TesseraError("'images.sizes' must be the width Markdown's images are shown at, as HTML's `sizes` attribute says it", at: option.value.location, hint: "write `sizes: \"(min-width: 48rem) 45rem, 100vw\"`")
                    }
                    sizes = text
                default:
                    throw TesseraError("unknown images option '\(option.key)'", at: option.keyLocation, hint: Suggestions.didYouMean(option.key, in: Self.names) ?? "the options are \(Self.names.joined(separator: ", "))")
                }
            }
        }

        /// What changes the bytes of processed images, for their cache keys and names.
        var identity: String {
            "w=\(widths) f=\(formats.map(\.rawValue)) q=\(quality) aq=\(avifQuality) ae=\(avifEffort) fb=\(fallbackWidth)"
        }
    }
}
