import Foundation

/// An image as a page shows it: the files made of it and what a template needs to write a
/// `<picture>` with no layout shift, or an app to pick its size.
struct ResponsiveImage: Sendable {
    var source: SourceImage
    /// The URL of the file as it is (copied with the site's static files).
    var original: String
    var request: ImageRequest
    /// Each variant with its URL, modern formats first, largest first in each.
    var variants: [(variant: ImageVariant, url: String)]
    /// The variant for browsers without the modern formats; nil when the image is not processed
    /// (SVG, an animation, `images.process: false`).
    var fallback: ImageVariant?

    /// The URL `<img src>` takes.
    var src: String {
        guard let fallback else { return original }
        return variants.first { $0.variant == fallback }?.url ?? original
    }

    /// The shown size: the fallback's, else the source's.
    var width: Int { fallback?.width ?? source.width }
    var height: Int { fallback?.height ?? source.height }

    /// `url 640w, url 1280w` of one format.
    func srcset(_ format: ImageFormat) -> String {
        variants.filter { $0.variant.format == format }.reversed().map { "\($0.url) \($0.variant.width)w" }.joined(separator: ", ")
    }

    /// The formats of `<source>`s, best first: all but the fallback's, which is the `<img>`'s own.
    var modernFormats: [ImageFormat] {
        var formats: [ImageFormat] = []
        for entry in variants where entry.variant.format != fallback?.format && !formats.contains(entry.variant.format) {
            formats.append(entry.variant.format)
        }
        return formats
    }

    /// The parts of an image nothing was made of (remote, or `images.process: false`), so a
    /// template reads the same names of every image.
    static func unprocessedParts(url: String, sizes: String?) -> [(String, ViewValue)] {
        [("original", .string(url)), ("type", .null), ("srcset", .null), ("sources", .list([])), ("sizes", .string(sizes ?? "100vw")),
         ("variants", .list([])), ("color", .null), ("opaque", .bool(false)), ("preview", .null), ("placeholder", .null), ("card", .null)]
    }

    /// The view data of the image, beside the `src`, `alt` and `external` every image has.
    var viewParts: [(String, ViewValue)] {
        let sources = modernFormats.map { format in
            ViewValue.object(ViewObject([("type", .string(format.mediaType)), ("srcset", .string(srcset(format)))]))
        }
        let list = variants.map { entry in
            ViewValue.object(ViewObject([
                ("src", .string(entry.url)), ("width", .number(Double(entry.variant.width))), ("height", .number(Double(entry.variant.height))),
                ("format", .string(entry.variant.format.rawValue)),
            ]))
        }
        return [
            ("width", width > 0 ? .number(Double(width)) : .null), ("height", height > 0 ? .number(Double(height)) : .null),
            ("original", .string(original)),
            ("type", .string((fallback?.format ?? source.format).mediaType)),
            ("srcset", fallback.map { .string(srcset($0.format)) } ?? .null),
            ("sources", .list(sources)),
            ("sizes", .string(request.sizes ?? "100vw")),
            ("variants", .list(list)),
            ("color", .optional(source.color)),
            // Whether nothing shows through it: a placeholder behind it is then hidden once it loads.
            ("opaque", .bool(!source.hasAlpha && source.isProcessed)),
            ("preview", .optional(source.previewURL)),
            ("placeholder", .optional(source.blurredPreviewURL)),
            // A page's cover sets its share card (`LinkTransformers.imageView`).
            ("card", .null),
        ]
    }
}

extension ResponsiveImage {
    /// The `<picture>` of a Markdown image: a `<source>` per modern format, the fallback's
    /// `<img>` with its size (no layout shift), lazy but for a text's first image, and the
    /// placeholder behind it while it loads (opaque images only: it would show through the others).
    func pictureHTML(alt: String, title: String?, lazy: Bool, sizes: String, className: String? = nil) -> String {
        let escape = HTMLEscape.escaped
        var html = "<picture>"
        for format in modernFormats {
            html += "<source type=\"\(format.mediaType)\" srcset=\"\(escape(srcset(format)))\" sizes=\"\(escape(sizes))\">"
        }
        html += "<img src=\"\(escape(src))\" alt=\"\(escape(alt))\""
        if let title { html += " title=\"\(escape(title))\"" }
        if let className { html += " class=\"\(escape(className))\"" }
        html += " width=\"\(width)\" height=\"\(height)\""
        if lazy { html += " loading=\"lazy\"" }
        html += " decoding=\"async\""
        if !source.hasAlpha, let color = source.color {
            html += " style=\"background:\(color)" + (source.blurredPreviewURL.map { " url(&quot;\(escape($0))&quot;) center/cover no-repeat" } ?? "") + "\""
        }
        return html + "></picture>"
    }
}
