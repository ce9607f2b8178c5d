import Foundation

/// A theme's render hooks: templates of `markdown/` (the site's, else the theme's) that write one
/// kind of Markdown element in place of libcmark's HTML. Each gets the element's view data
/// (documented in Themes.md) and `t`; an element without a hook is written as libcmark writes it.
///
/// A class: every copy of a page's transform context holds the renderer and its hooks, and one
/// reference is cheaper to copy than the template library they hold.
public final class MarkdownHooks: Sendable {
    /// The elements a hook can write: `markdown/<element>.mustache`.
    public enum Element: String, Sendable, CaseIterable {
        case heading, link, image, codeblock, blockquote, table
    }

    let templates: [Element: CompiledTemplate]
    let renderer: TemplateRenderer
    /// Of the values that cost to make (`costlyValues`), those each hook may read (`reads`),
    /// found once: scanning a hook's tags for each block cost as much as writing its code.
    private let costlyReads: [Element: Set<String>]
    static let costlyValues: Set<String> = ["lines", "tokens"]

    /// The library's hooks, rendered with the strings of `translator`'s language; nil when the
    /// theme and the site have none.
    init?(library: TemplateLibrary, translator: Translator?) {
        let templates = Dictionary(uniqueKeysWithValues: library.hooks.compactMap { name, template in
            Element(rawValue: name).map { ($0, template) }
        })
        guard !templates.isEmpty else { return nil }
        self.templates = templates
        costlyReads = templates.mapValues { template in Self.costlyValues.filter { Self.template(template, reads: $0) } }
        renderer = TemplateRenderer(library: library, translator: translator)
    }

    func has(_ element: Element) -> Bool { templates[element] != nil }

    /// Whether the element's hook may read the value `name` (a tag of it names it, or it includes
    /// a partial, which could): values that cost to make are made only for hooks that read them.
    func reads(_ name: String, in element: Element) -> Bool {
        if Self.costlyValues.contains(name) { return costlyReads[element]?.contains(name) ?? false }
        return templates[element].map { Self.template($0, reads: name) } ?? false
    }

    private static func template(_ template: CompiledTemplate, reads name: String) -> Bool {
        !template.partialNames.isEmpty || template.tags.contains { $0.name == name || $0.name.hasPrefix(name + ".") }
    }

    /// The element's HTML: its hook rendered with `values`.
    func render(_ element: Element, _ values: [(String, ViewValue)]) throws -> String {
        guard let template = templates[element] else { return "" }
        return try renderer.render(template, values.map { ($0.0, .view($0.1)) }, context: "the \(element.rawValue) hook")
    }

    /// GitHub's alerts: a blockquote whose first line is `[!NOTE]`, `[!TIP]`, `[!IMPORTANT]`,
    /// `[!WARNING]` or `[!CAUTION]` (any case).
    static let alerts = ["note", "tip", "important", "warning", "caution"]

    /// The alert a blockquote's first line names, lowercased; nil when the line is not one.
    static func alert(inFirstLine line: String) -> String? {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        guard trimmed.hasPrefix("[!"), trimmed.hasSuffix("]") else { return nil }
        let name = trimmed.dropFirst(2).dropLast().lowercased()
        return alerts.contains(name) ? name : nil
    }
}
