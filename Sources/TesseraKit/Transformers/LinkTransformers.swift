import Foundation

/// Links and images: resolved against the site, checked, and rendered as their URL.
enum LinkTransformers {
    static let link = Transformer("link") { node, field, context in
        let raw = try TextTransformers.string(node, field)
        let resolved = try resolve(raw, node: node, field: field, context: context, filesOnly: false)
        if let target = resolved.fragmentTarget { context.recorder?.record(target, at: node.location) }
        return .formatted(resolved.url, ["url": .string(resolved.url), "external": .bool(resolved.isExternal)])
    }

    /// `hero.jpg` or `{ src: hero.jpg, alt: "A lighthouse" }`.
    static let image = Transformer("image") { node, field, context in
        let sourceNode: ContentNode
        var alt: String?
        if node.entries != nil {
            guard let src = node["src"] else {
                throw TesseraError("field '\(field.name)' needs a 'src'", at: node.location, hint: "write `{ src: /images/hero.jpg, alt: \"…\" }`")
            }
            sourceNode = src
            alt = node["alt"]?.scalarText
        } else {
            sourceNode = node
        }
        let raw = try TextTransformers.string(sourceNode, field)
        let resolved = try resolve(raw, node: sourceNode, field: field, context: context, filesOnly: true)
        return imageView(resolved, alt: alt, links: context.links)
    }

    /// An image as templates see it, for image fields and `page.image`: prints its URL, with the
    /// parts `src`, `alt`, `external`, and `width` and `height` from the file's header (null when
    /// unknown: external or unreadable).
    static func imageView(_ resolved: LinkResolver.Resolution, alt: String?, links: LinkResolver) -> ViewValue {
        let size = resolved.isExternal ? nil : links.imageSize(of: resolved.url)
        return .formatted(resolved.url, [
            "src": .string(resolved.url), "alt": .optional(alt), "external": .bool(resolved.isExternal),
            "width": size.map { .number(Double($0.width)) } ?? .null, "height": size.map { .number(Double($0.height)) } ?? .null,
        ])
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
