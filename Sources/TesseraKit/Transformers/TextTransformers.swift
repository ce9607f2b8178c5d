import Foundation

/// Text, Markdown, enumerations, flags and lists of words.
enum TextTransformers {
    static func string(_ node: ContentNode, _ field: FieldSpec) throws -> String {
        switch node.value {
        case .string(let s): return s
        case .int, .double, .bool, .timestamp: return node.scalarText ?? ""
        default: throw TransformerRegistry.wrongType(node, field: field, expected: "text", hint: "quote the value: `\(field.name): \"…\"`")
        }
    }

    static let text = Transformer("text") { node, field, _ in
        .string(try string(node, field))
    }

    static let markdown = Transformer("markdown") { node, field, context in
        let text = try string(node, field)
        do {
            return .string(try context.markdown.html(text, links: context.markdownLinks(in: node)))
        } catch let error as MarkdownURLError {
            throw error.diagnostics(in: node, what: "field '\(field.name)'")
        }
    }

    static let inlineMarkdown = Transformer("inline-markdown") { node, field, context in
        let text = try string(node, field)
        let inline: String?
        do {
            inline = try context.markdown.inlineHTML(text, links: context.markdownLinks(in: node))
        } catch let error as MarkdownURLError {
            throw error.diagnostics(in: node, what: "field '\(field.name)'")
        }
        guard let html = inline else {
            throw TesseraError(
                "field '\(field.name)' is inline Markdown but holds several paragraphs or a block", at: node.location,
                hint: "keep it to one paragraph, or make the field `type: markdown`")
        }
        return .string(html)
    }

    /// An enum renders as its value and exposes `{{#field.value}}` flags, so templates can branch
    /// on it without logic: `{{#tone.warning}}…{{/tone.warning}}`.
    static let enumeration = Transformer("enum") { node, field, _ in
        let value = try string(node, field)
        guard field.values.contains(value) else {
            throw TesseraError(
                "'\(value)' is not a value of field '\(field.name)'", at: node.location,
                hint: (Suggestions.didYouMean(value, in: field.values).map { $0 + " " } ?? "") + "the values are \(field.values.joined(separator: ", "))")
        }
        return .formatted(value, ViewObject([("value", .string(value))] + field.values.map { ($0, .bool($0 == value)) }))
    }

    static let bool = Transformer("bool") { node, field, _ in
        guard let flag = node.bool else { throw TransformerRegistry.wrongType(node, field: field, expected: "true or false") }
        return .bool(flag)
    }

    /// A list of texts to iterate; with `format: and` or `format: or` it prints as one
    /// localized phrase ("a, b, and c", "a, b et c") and keeps the items under `items`.
    static let list = Transformer("list") { node, field, context in
        guard let items = node.list else {
            throw TransformerRegistry.wrongType(node, field: field, expected: "a list", hint: "write `\(field.name): [first, second]`")
        }
        let texts = try items.map { try string($0, field) }
        switch field.format {
        case nil: return .list(texts.map(ViewValue.string))
        case "and", "or":
            let type: ListFormatStyle<StringStyle, [String]>.ListType = field.format == "and" ? .and : .or
            let phrase = texts.formatted(.list(type: type).locale(context.locale))
            return .formatted(phrase, ["items": .list(texts.map(ViewValue.string))])
        default:
            throw TesseraError("list format must be 'and' or 'or', found '\(field.format ?? "")'", at: field.location, hint: "remove `format:` to iterate the items yourself")
        }
    }
}

extension String {
    /// Nothing but spaces, tabs and line breaks (or nothing): a scan of the bytes up to the first
    /// other one, where `trimmingCharacters` would copy the whole text through NSString.
    var isBlank: Bool {
        utf8.allSatisfy { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
    }
}
