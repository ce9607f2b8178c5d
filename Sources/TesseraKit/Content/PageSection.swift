import Foundation

/// A run of components on a page: an optional header, items, an optional footer, and a layout.
public struct PageSection: Sendable, Equatable {
    public var id: String?
    /// Names `sections/<layout>.mustache`: `list`, `grid`, `carousel`, or one a theme adds.
    public var layout: String
    public var layoutLocation: SourceLocation
    /// `layout: { name: grid, columns: 2 }`: the layout's parameters, for its template
    /// (`section.layoutOptions.columns`) and for apps (the section's `layoutOptions`).
    public var layoutOptions: [ContentNode.Entry] = []
    public var header: ComponentUse?
    public var items: [ComponentUse]
    public var footer: ComponentUse?
    /// `examples: all` or `examples: [notice, stat]`: items made from the schemas' `example:`
    /// blocks, for a component gallery. Nil for ordinary sections.
    public var examples: [String]?
    public var examplesLocation: SourceLocation?
    /// Items made from pages of the site (`query:`) instead of written ones.
    public var query: PageQuery?
    public var location: SourceLocation

    public static let defaultLayout = "list"

    /// Whether the section has written components (a query's has none).
    var hasComponents: Bool { header != nil || !items.isEmpty || footer != nil }

    /// The section without its written components, once they are mapped.
    var withoutComponents: PageSection {
        var section = self
        section.header = nil
        section.items = []
        section.footer = nil
        return section
    }
    static let keys = ["id", "layout", "header", "items", "footer", "examples", "query"]

    static func parse(_ node: ContentNode) throws -> PageSection {
        guard let entries = node.entries else {
            throw TesseraError(
                "a section must be a mapping, found \(node.kindDescription)", at: node.location,
                hint: "give each section `items:` and optionally `header:`, `footer:` and `layout:`")
        }
        let errors = DiagnosticCollector()
        for entry in entries where !keys.contains(entry.key) {
            var hint = Suggestions.didYouMean(entry.key, in: keys) ?? "a section takes \(keys.map { "'\($0)'" }.joined(separator: ", "))"
            if entry.key == "component" || entry.key == "componentCode" {
                hint = "a section holds components under `items:`; put this component in a list there"
            }
            errors.report(Diagnostic(.error, "unknown section key '\(entry.key)'", at: entry.keyLocation, hint: hint))
        }
        var section = PageSection(
            id: node["id"]?.scalarText, layout: defaultLayout, layoutLocation: node.location,
            header: nil, items: [], footer: nil, location: node.location)
        if let examples = node["examples"] {
            section.examplesLocation = examples.location
            if case .string("all") = examples.value {
                section.examples = []
            } else if let list = examples.list, list.allSatisfy({ $0.scalarText != nil }) {
                section.examples = list.compactMap(\.scalarText)
            } else {
                errors.report(Diagnostic(.error, "'examples' must be `all` or a list of component codes", at: examples.location, hint: "write `examples: all` or `examples: [notice, stat]`"))
            }
        }
        if let layout = node["layout"] {
            if case .string(let name) = layout.value {
                section.layout = name
                section.layoutLocation = layout.location
            } else if let entries = layout.entries, case .string(let name)? = layout["name"]?.value {
                section.layout = name
                section.layoutLocation = layout["name"]?.location ?? layout.location
                for entry in entries where entry.key != "name" {
                    switch entry.value.value {
                    case .string, .int, .double, .bool: section.layoutOptions.append(entry)
                    default:
                        errors.report(Diagnostic(.error, "the layout's '\(entry.key)' must be text, a number or true/false, found \(entry.value.kindDescription)", at: entry.value.location, hint: "write `layout: { name: grid, columns: 2 }`"))
                    }
                }
            } else {
                errors.report(Diagnostic(
                    .error, "a section layout must be a name, or a mapping with `name:` and the layout's options, found \(layout.kindDescription)", at: layout.location,
                    hint: "use list, grid or carousel, or `{ name: grid, columns: 2 }`"))
            }
        }
        if let header = node["header"], !header.isNull {
            section.header = errors.attempt { try ComponentUse.parse(header, what: "a section header") }
        }
        if let footer = node["footer"], !footer.isNull {
            section.footer = errors.attempt { try ComponentUse.parse(footer, what: "a section footer") }
        }
        if let items = node["items"], !items.isNull {
            if let list = items.list {
                section.items = list.compactMap { item in errors.attempt { try ComponentUse.parse(item, what: "an item") } }
            } else {
                errors.report(Diagnostic(.error, "'items' must be a list of components, found \(items.kindDescription)", at: items.location, hint: "start each item with '- component: …'"))
            }
        }
        if let query = node["query"], !query.isNull {
            if node["items"] != nil {
                errors.report(Diagnostic(
                    .error, "a section takes its items from 'items' or from 'query', not both", at: query.location,
                    hint: "move the written items into a section of their own"))
            }
            section.query = errors.attempt { try PageQuery.parse(query) }
        }
        // A published section's id names its JSON folder (`sections/<id>/`): a name, never a path.
        if section.query?.publish != nil, let id = node["id"], let text = id.scalarText,
           text.isEmpty || text.count > 100 || text.hasPrefix(".") || !text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }) {
            errors.report(Diagnostic(
                .error, "a published section's 'id' names its JSON folder and must be letters, digits, '-', '_', '.' or ':' (at most 100, not starting with '.'), found '\(text)'", at: id.location,
                hint: "for example `id: latest-posts`"))
        }
        try errors.throwIfErrors()
        return section
    }
}
