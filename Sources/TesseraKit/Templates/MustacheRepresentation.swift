import Foundation
import Mustache

// How view data appears to swift-mustache: concrete types it knows (String, Bool, arrays,
// `MustacheParent`), so nothing goes through `Mirror`.

extension ViewValue: MustacheCustomRepresentation {
    public var representation: Any? {
        switch self {
        case .null: return nil
        case .bool(let b): return b
        case .string(let s): return s
        case .number: return text
        case .list(let items): return items
        case .object(let object): return object
        case .formatted(let text, let object): return FormattedView(text: text, object: object)
        case .components: return nil
        }
    }
}

extension ViewObject: MustacheParent {
    public func child(named name: String) -> Any? { self[name] }
}

/// A formatted value: `{{updated}}` prints its text, `{{updated.iso}}` reaches a part.
struct FormattedView: MustacheParent, MustacheCustomRenderable {
    let text: String
    let object: ViewObject

    func child(named name: String) -> Any? {
        name == "text" ? text : object[name]
    }

    var renderText: String { text }
    var isNull: Bool { false }
}

/// Rendered components or sections: `{{{items}}}` prints them all, `{{#items}}…{{/items}}`
/// iterates them with `html`, `code`, `description` (the schema's) and `index` for each.
struct RenderedList: MustacheSequence, MustacheCustomRenderable {
    struct Item: MustacheParent {
        let html: String
        let code: String?
        let description: String?
        let index: Int

        func child(named name: String) -> Any? {
            switch name {
            case "html": return html
            case "code": return code.map { $0 as Any } ?? ViewValue.null
            case "description": return description.map { $0 as Any } ?? ViewValue.null
            case "index": return String(index)
            case "position": return String(index + 1)
            default: return nil
            }
        }
    }

    let items: [Item]

    init(_ items: [(html: String, code: String?)], descriptions: [String: String] = [:]) {
        self.items = items.enumerated().map {
            Item(html: $0.element.html, code: $0.element.code, description: $0.element.code.flatMap { descriptions[$0] }, index: $0.offset)
        }
    }

    func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
    var renderText: String { items.map(\.html).joined() }
    var isNull: Bool { items.isEmpty }
}
