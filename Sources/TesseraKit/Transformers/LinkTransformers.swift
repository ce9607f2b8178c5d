import Foundation

/// Links and images: resolved against the site, checked, and rendered as their URL.
enum LinkTransformers {
    static let link = Transformer("link") { node, field, context in
        let raw = try TextTransformers.string(node, field)
        let resolved = try resolve(raw, node: node, field: field, context: context, filesOnly: false)
        if let target = resolved.fragmentTarget { context.recorder?.record(target, at: node.location) }
        return .formatted(resolved.url, ["url": .string(resolved.url), "external": .bool(resolved.isExternal)])
    }

    /// `hero.jpg` or `{ src: hero.jpg, alt: "A lighthouse", focus: "50% 30%" }`; the field's
    /// options (`sizes`, `ratio`, `widths`) say how the layout shows it.
    static let image = Transformer("image") { node, field, context in
        let sourceNode: ContentNode
        var alt: String?
        var request = field.image
        if let entries = node.entries {
            guard let src = node["src"] else {
                throw TesseraError("field '\(field.name)' needs a 'src'", at: node.location, hint: "write `{ src: /images/hero.jpg, alt: \"…\" }`")
            }
            sourceNode = src
            alt = node["alt"]?.scalarText
            for entry in entries where !["src", "alt"].contains(entry.key) {
                guard entry.key == "focus" else {
                    throw TesseraError("unknown image option '\(entry.key)' in field '\(field.name)'", at: entry.keyLocation, hint: "an image takes `src`, `alt` and `focus`")
                }
                guard let text = entry.value.scalarText, let focus = ImageRequest.focus(text) else {
                    throw TesseraError("'focus' must be the point a crop keeps, such as \"50% 30%\" or `top`", at: entry.value.location, hint: "write `focus: \"50% 30%\"` (from the left, from the top)")
                }
                (request.focusX, request.focusY) = focus
            }
        } else {
            sourceNode = node
        }
        let raw = try TextTransformers.string(sourceNode, field)
        let resolved = try resolve(raw, node: sourceNode, field: field, context: context, filesOnly: true)
        do {
            return try imageView(resolved, alt: alt, request: request, context: context, at: sourceNode.location)
        } catch let failure as ImageCodec.Failure {
            throw TesseraError("broken image in field '\(field.name)': \(raw): \(failure)", at: sourceNode.location, hint: failure.hint)
        }
    }

    /// An image as templates see it, for image fields and `page.image`: prints its URL (the
    /// fallback's, when Tessera makes sizes of it), with the parts `src`, `alt`, `external`, and
    /// `width` and `height` (null when unknown: external or unreadable). A processed image adds
    /// its variants, `srcset`, `sources`, `sizes`, `color` and placeholders (`ResponsiveImage`).
    /// Throws `ImageCodec.Failure` for a file that cannot be processed.
    /// `card`: with the share card made of it (a page's cover): `card` is `{src, width, height, type}`.
    static func imageView(_ resolved: LinkResolver.Resolution, alt: String?, request: ImageRequest, context: TransformContext, at location: SourceLocation?, card: Bool = false) throws -> ViewValue {
        if !resolved.isExternal, let images = context.images, let file = context.links.sourceFile(of: resolved.url), ImageFormat.isImagePath(file.relative) {
            let image = try images.image(at: file.source, relative: file.relative, url: resolved.url, request: request, reference: location)
            context.recorder?.recordImage(image)
            var parts = [("src", ViewValue.string(image.src)), ("alt", .optional(alt)), ("external", .bool(false))] + image.viewParts
            if card, let made = try images.card(at: file.source, relative: file.relative, url: resolved.url, focus: (request.focusX, request.focusY), reference: location) {
                context.recorder?.recordImageFiles([made.variant.path])
                let value = ViewValue.object(ViewObject([
                    ("src", .string(made.url)), ("width", .number(Double(made.variant.width))), ("height", .number(Double(made.variant.height))),
                    ("type", .string(made.variant.format.mediaType)),
                ]))
                parts = parts.map { $0.0 == "card" ? ("card", value) : $0 }
            }
            return .formatted(image.src, ViewObject(parts))
        }
        // As it is (remote, not processed): the same parts, with nothing made of it.
        let size = resolved.isExternal ? nil : context.links.imageSize(of: resolved.url)
        return .formatted(resolved.url, ViewObject([
            ("src", .string(resolved.url)), ("alt", .optional(alt)), ("external", .bool(resolved.isExternal)),
            ("width", size.map { .number(Double($0.width)) } ?? .null), ("height", size.map { .number(Double($0.height)) } ?? .null),
        ] + ResponsiveImage.unprocessedParts(url: resolved.url, sizes: request.sizes)))
    }

    private static func resolve(_ raw: String, node: ContentNode, field: FieldSpec, context: TransformContext, filesOnly: Bool) throws -> LinkResolver.Resolution {
        do {
            return try context.links.resolve(raw, from: context.pageURL, filesOnly: filesOnly)
        } catch let error as TesseraError {
            // The resolver knows what is wrong; the value knows where.
            throw TesseraError(diagnostics: error.diagnostics.map {
                var diagnostic = $0
                let refused = diagnostic.message.hasPrefix("refused URL")
                diagnostic.message = refused
                    ? "refused URL in field '\(field.name)': \(diagnostic.message.dropFirst("refused URL: ".count))"
                    : "broken \(filesOnly ? "image" : "link") in field '\(field.name)': \(diagnostic.message)"
                diagnostic.location = node.location
                return diagnostic
            })
        }
    }
}
