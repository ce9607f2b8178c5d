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

        static let parts = ["html", "code", "description", "index", "position", "source", "fence"]

        func part(_ name: String) -> TemplateValue? {
            switch name {
            case "html": return .text(html)
            case "code": return code.map(TemplateValue.text) ?? .null
            case "description": return description.map(TemplateValue.text) ?? .null
            case "index": return .text(String(index))
            case "position": return .text(String(index + 1))
            case "source": return source.map(TemplateValue.text) ?? .null
            case "fence": return source.map { .text(ExampleSource.fence(ofItem: $0)) } ?? .null
            default: return nil
            }
        }
    }

    let items: [Item]

    init(_ items: [(html: String, code: String?)], descriptions: [String: String] = [:], sources: [String?] = []) {
        self.items = items.enumerated().map {
            Item(html: $0.element.html, code: $0.element.code, description: $0.element.code.flatMap { descriptions[$0] }, index: $0.offset,
                 source: $0.offset < sources.count ? sources[$0.offset] : nil)
        }
    }

    var renderText: String { items.map(\.html).joined() }
}
