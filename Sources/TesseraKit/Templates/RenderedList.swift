import Foundation

/// Rendered components or sections: `{{{items}}}` prints them all, `{{#items}}…{{/items}}`
/// iterates them with `html`, `code`, `description` (the schema's), `index`, `position`,
/// `source` and `fence` for each.
struct RenderedList {
    struct Item {
        let html: String
        let code: String?
        let description: String?
        let index: Int
        let source: String?
        /// In a grouped list (`group:` of a query): the title of the item's group, and whether the
        /// item starts or ends one.
        var group: String?
        var groupStart = false
        var groupEnd = false

        static let parts = ["html", "code", "description", "index", "position", "source", "fence", "group", "groupStart", "groupEnd"]

        func part(_ name: String) -> TemplateValue? {
            switch name {
            case "html": return .text(html)
            case "code": return code.map(TemplateValue.text) ?? .null
            case "description": return description.map(TemplateValue.text) ?? .null
            case "index": return .text(String(index))
            case "position": return .text(String(index + 1))
            case "source": return source.map(TemplateValue.text) ?? .null
            case "fence": return source.map { .text(ExampleSource.fence(ofItem: $0)) } ?? .null
            case "group": return group.map(TemplateValue.text) ?? .null
            case "groupStart": return .view(.bool(groupStart))
            case "groupEnd": return .view(.bool(groupEnd))
            default: return nil
            }
        }
    }

    private(set) var items: [Item]

    init(_ items: [(html: String, code: String?)], descriptions: [String: String] = [:], sources: [String?] = []) {
        self.items = items.enumerated().map {
            Item(html: $0.element.html, code: $0.element.code, description: $0.element.code.flatMap { descriptions[$0] }, index: $0.offset,
                 source: $0.offset < sources.count ? sources[$0.offset] : nil)
        }
    }

    /// Marks the items' groups: `groups` are consecutive runs, in order.
    func grouped(_ groups: [SectionView.Group]) -> RenderedList {
        var copy = self
        var start = 0
        for group in groups where group.count > 0 {
            let end = min(start + group.count, items.count)
            guard start < end else { break }
            for index in start..<end { copy.items[index].group = group.title }
            copy.items[start].groupStart = true
            copy.items[end - 1].groupEnd = true
            start = end
        }
        return copy
    }

    var renderText: String { items.map(\.html).joined() }
}
