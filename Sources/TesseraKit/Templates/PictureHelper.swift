import Foundation

/// `{{#picture}}/images/team.jpg alt="The team" sizes="(min-width: 60rem) 50vw, 100vw"{{/picture}}`:
/// a `<picture>` of any image file of the site or theme that no field or Markdown shows, made
/// like theirs (sizes, modern formats, dimensions, placeholder). The section's tags are filled
/// in first, so `{{#picture}}{{site.params.hero}} alt="{{site.title}}"{{/picture}}` works.
///
/// Options: `alt` (required; `alt=""` for a decorative image), `sizes`, `ratio` (`16:9`: cropped
/// to cover), `focus` (`"50% 30%"`, `top`), `widths` (`"320 640"`), `class`, `loading`
/// (`lazy`, the default, or `eager` for the first image a reader sees).
struct PictureHelper: Sendable {
    /// Nil when the site does not process images (`images.process: false`): the file is linked as it is.
    let images: ImageProcessor?
    let links: LinkResolver

    /// What one call printed, and the files it needs written.
    struct Use: Sendable, Equatable {
        /// The section's text, its tags filled in.
        var argument: String
        var html: String
        var files: [String]
    }

    struct Problem: Error, Sendable, Equatable {
        var message: String
        var hint: String
    }

    static let options = ["alt", "sizes", "ratio", "focus", "widths", "class", "loading"]

    /// The `<picture>` (or `<img>`, for what is not processed) the argument asks for.
    func picture(_ argument: String, pageURL: String) -> Result<Use, Problem> {
        Result {
            let (path, options) = try Self.parse(argument)
            guard let alt = options["alt"] else {
                throw Problem(
                    message: "{{#picture}} \(path) has no alt text",
                    hint: "describe the image for readers who cannot see it: alt=\"A lighthouse at dusk\" (alt=\"\" for a decorative image)")
            }
            var request = ImageRequest(sizes: options["sizes"] ?? images?.options.sizes)
            if let text = options["ratio"] {
                guard let ratio = ImageRequest.ratio(text) else {
                    throw Problem(message: "ratio=\"\(text)\" is not a ratio", hint: "write the width to the height, such as ratio=16:9, ratio=1:1 or ratio=1.5")
                }
                request.ratio = ratio
            }
            if let text = options["focus"] {
                guard let focus = ImageRequest.focus(text) else {
                    throw Problem(message: "focus=\"\(text)\" is not a point of the image", hint: "write focus=\"50% 30%\" (from the left, from the top) or a side: top, bottom left, center")
                }
                (request.focusX, request.focusY) = focus
            }
            if let text = options["widths"] {
                let words = text.split { $0 == " " || $0 == "," }
                let widths = words.compactMap { Int($0) }.filter { (1...10_000).contains($0) }
                guard !widths.isEmpty, widths.count == words.count else {
                    throw Problem(message: "widths=\"\(text)\" is not a list of widths", hint: "write pixel widths from 1 to 10000, such as widths=\"320 640 960\"")
                }
                request.widths = widths
            }
            let lazy: Bool
            switch options["loading"] {
            case nil, "lazy": lazy = true
            case "eager": lazy = false
            case let other?: throw Problem(message: "loading=\"\(other)\" is not a way to load an image", hint: "write loading=lazy (the default) or loading=eager for an image seen without scrolling")
            }
            let resolved: LinkResolver.Resolution
            do {
                resolved = try links.resolve(path, from: pageURL, filesOnly: true)
            } catch let error as TesseraError {
                let first = error.diagnostics.first
                throw Problem(message: "{{#picture}} names no file: " + (first?.message ?? path), hint: first?.hint ?? "give the path of an image of static/, such as /images/hero.jpg")
            }
            let file = resolved.isExternal ? nil : links.sourceFile(of: resolved.url)
            if let file, !ImageFormat.isImagePath(file.relative) {
                throw Problem(message: "{{#picture}} \(path) is not an image", hint: "give a JPEG, PNG, WebP, AVIF, GIF, TIFF, HEIC or SVG file")
            }
            if let file, let images {
                let image: ResponsiveImage
                do {
                    image = try images.image(at: file.source, relative: file.relative, url: resolved.url, request: request, reference: nil)
                } catch let failure as ImageCodec.Failure {
                    throw Problem(message: "broken image in {{#picture}}: \(path): \(failure)", hint: failure.hint)
                }
                let files = image.variants.map(\.variant.path)
                if image.fallback != nil {
                    return Use(argument: argument, html: image.pictureHTML(alt: alt, title: nil, lazy: lazy, sizes: request.sizes ?? "100vw", className: options["class"]), files: files)
                }
                return Use(argument: argument, html: Self.img(resolved.url, alt: alt, size: image.width > 0 ? ImageSize(width: image.width, height: image.height) : nil, lazy: lazy, className: options["class"]), files: files)
            }
            // Remote, or not processed: linked as it is, with its size when the file gives it.
            let size = file == nil ? nil : links.imageSize(of: resolved.url)
            return Use(argument: argument, html: Self.img(resolved.url, alt: alt, size: size, lazy: lazy, className: options["class"]), files: [])
        }.mapError { $0 as? Problem ?? Problem(message: "\($0)", hint: "") }
    }

    /// An `<img>` of a file linked as it is.
    static func img(_ url: String, alt: String, size: ImageSize?, lazy: Bool, className: String?) -> String {
        let escape = HTMLEscape.escaped
        var html = "<img src=\"\(escape(url))\" alt=\"\(escape(alt))\""
        if let className { html += " class=\"\(escape(className))\"" }
        if let size { html += " width=\"\(size.width)\" height=\"\(size.height)\"" }
        if lazy { html += " loading=\"lazy\"" }
        return html + " decoding=\"async\">"
    }

    /// `path key="value" key='value' key=value`: the path, and each option once.
    static func parse(_ argument: String) throws -> (path: String, options: [String: String]) {
        var rest = Substring(TemplateScope.trimmed(argument))
        func word() -> Substring {
            let end = rest.firstIndex(where: { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "=" }) ?? rest.endIndex
            defer { rest = rest[end...] }
            return rest[..<end]
        }
        func skipSpace() { rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" } }
        let path = String(word())
        guard !path.isEmpty, !path.contains("=") else {
            throw Problem(message: "{{#picture}} needs the path of an image first", hint: "write {{#picture}}/images/hero.jpg alt=\"…\"{{/picture}}")
        }
        var options: [String: String] = [:]
        skipSpace()
        while !rest.isEmpty {
            let key = String(word())
            guard rest.first == "=" else {
                throw Problem(message: "'\(key)' in {{#picture}} \(path) has no value", hint: "write options as name=\"value\", such as alt=\"A lighthouse\"")
            }
            guard Self.options.contains(key) else {
                throw Problem(
                    message: "{{#picture}} has no option '\(key)'",
                    hint: (Suggestions.didYouMean(key, in: Self.options).map { $0 + " " } ?? "") + "its options are: " + Self.options.joined(separator: ", "))
            }
            guard options[key] == nil else { throw Problem(message: "'\(key)' is given twice in {{#picture}} \(path)", hint: "keep one of them") }
            rest = rest.dropFirst()
            if let quote = rest.first, quote == "\"" || quote == "'" {
                rest = rest.dropFirst()
                guard let end = rest.firstIndex(of: quote) else {
                    throw Problem(message: "the value of '\(key)' in {{#picture}} \(path) has no closing \(quote)", hint: "end it with \(quote)")
                }
                options[key] = String(rest[..<end])
                rest = rest[rest.index(after: end)...]
            } else {
                options[key] = String(word())
            }
            skipSpace()
        }
        return (path, options)
    }
}

/// The pictures one page's templates printed, in order.
final class PictureUse: @unchecked Sendable {
    private(set) var uses: [PictureHelper.Use] = []
    func record(_ use: PictureHelper.Use) { uses.append(use) }
}
