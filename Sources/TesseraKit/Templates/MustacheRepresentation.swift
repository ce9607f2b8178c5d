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
    public func child(named name: String) -> Any? {
        guard let part = SubKeys.part(name) else { return self[name] }
        if let value = self[part] { return value }
        if !isOpen { SubKeys.recordMissing(part, available: keys) }
        return nil
    }
}

/// Strict sub-keys. Mustache looks the first name of `{{date.iso}}` up through the context stack,
/// where a miss is normal (the next context may have it), but every later name only on the value
/// found, where a miss prints nothing. Templates are compiled with every later name marked
/// (`date.*iso`), so the value asked knows it is a sub-key and a miss is reported at the tag, with
/// the parts the value has.
enum SubKeys {
    static let marker: Character = "*"

    /// The part a marked name asks for, or nil for a name looked up through the stack.
    @inline(__always)
    static func part(_ name: String) -> String? {
        name.utf8.first == UInt8(ascii: "*") ? String(name.dropFirst()) : nil
    }

    /// A sub-key a value lacked: the name, and the parts it has.
    struct Miss: Sendable, Equatable {
        var name: String
        var available: [String]
    }

    final class Recorder: @unchecked Sendable {
        private(set) var misses: [Miss] = []
        func record(_ miss: Miss) { if !misses.contains(miss) { misses.append(miss) } }
    }

    @TaskLocal static var recorder: Recorder?

    static func recordMissing(_ name: String, available: [String]) {
        recorder?.record(Miss(name: name, available: available))
    }

    /// `text` with every name after the first of a dotted tag name marked: `{{page.date.iso}}` →
    /// `{{page.*date.*iso}}`, closing tags alike. Templates that change delimiters are left as they are.
    static func marked(_ text: String) -> String {
        guard text.contains("."), !text.contains("{{=") else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 16)
        var rest = text[...]
        while let open = rest.range(of: "{{") {
            out += rest[..<open.lowerBound]
            guard let close = rest[open.upperBound...].range(of: "}}") else { rest = rest[open.lowerBound...]; break }
            var inner = rest[open.upperBound..<close.lowerBound]
            var prefix = "{{"
            if let sigil = inner.first, "!><$%=".contains(sigil) {
                out += prefix + inner + "}}"
                rest = rest[close.upperBound...]
                continue
            }
            if let sigil = inner.first, "{&#^/".contains(sigil) {
                prefix.append(sigil)
                inner = inner.dropFirst()
            }
            let name = inner.trimmingCharacters(in: .whitespaces)
            if name.contains("."), !name.hasPrefix("."), !name.hasSuffix("."), !name.contains("(") , !name.contains(" "), !name.contains("..") {
                let parts = name.split(separator: ".")
                out += prefix + parts[0] + parts.dropFirst().map { "." + String(marker) + $0 }.joined()
            } else {
                out += prefix + inner
            }
            out += "}}"
            rest = rest[close.upperBound...]
        }
        out += rest
        return out
    }
}

/// A formatted value: `{{updated}}` prints its text, `{{updated.iso}}` reaches a part.
struct FormattedView: MustacheParent, MustacheCustomRenderable {
    let text: String
    let object: ViewObject

    func child(named name: String) -> Any? {
        guard let part = SubKeys.part(name) else { return name == "text" ? text : object[name] }
        if part == "text" { return text }
        if let value = object[part] { return value }
        SubKeys.recordMissing(part, available: ["text"] + object.keys)
        return nil
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
        let source: String?

        static let parts = ["html", "code", "description", "index", "position", "source"]

        func child(named given: String) -> Any? {
            let part = SubKeys.part(given)
            let name = part ?? given
            switch name {
            case "html": return html
            case "code": return code.map { $0 as Any } ?? ViewValue.null
            case "description": return description.map { $0 as Any } ?? ViewValue.null
            case "index": return String(index)
            case "position": return String(index + 1)
            case "source": return source.map { $0 as Any } ?? ViewValue.null
            default:
                if part != nil { SubKeys.recordMissing(name, available: Self.parts) }
                return nil
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

    func makeIterator() -> IndexingIterator<[Item]> { items.makeIterator() }
    var renderText: String { items.map(\.html).joined() }
    var isNull: Bool { items.isEmpty }
}
