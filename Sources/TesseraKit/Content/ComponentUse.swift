import Foundation

/// One component as written in content: its code and the fields given to it.
public struct ComponentUse: Sendable, Equatable {
    public var code: String
    public var codeLocation: SourceLocation
    /// Every key except `component`/`componentCode`, in written order.
    public var fields: [ContentNode.Entry]
    public var location: SourceLocation
    /// `id:` as written: the component's stable id in the page's JSON.
    public var id: String?
    /// `action:` as written: what tapping the component does in an app (`share`, a typed action).
    public var action: ContentNode?

    /// The value of `field`: found by index, so only the value is copied, not its entry.
    public subscript(field: String) -> ContentNode? {
        fields.firstIndex { $0.key == field }.map { fields[$0].value }
    }

    /// The keys that name the component; `componentCode` is the server-driven-UI spelling (seed 001).
    static let codeKeys = ["component", "componentCode"]

    static func parse(_ node: ContentNode, what: String) throws -> ComponentUse {
        guard let entries = node.entries else {
            throw TesseraError(
                "\(what) must be a mapping with a 'component' key, found \(node.kindDescription)", at: node.location,
                hint: "write it as `{ component: notice, message: Hello }`")
        }
        let codeEntries = entries.filter { codeKeys.contains($0.key) }
        guard let codeEntry = codeEntries.first else {
            throw TesseraError(
                "\(what) has no 'component' key", at: node.location,
                hint: "name the component to render, for example `component: notice`")
        }
        if codeEntries.count > 1 {
            throw TesseraError(
                "\(what) sets both 'component' and 'componentCode'", at: codeEntries[1].keyLocation,
                hint: "'componentCode' is an alias of 'component'; keep one")
        }
        guard case .string(let code) = codeEntry.value.value, !code.isEmpty else {
            throw TesseraError(
                "the component code must be text, found \(codeEntry.value.kindDescription)", at: codeEntry.value.location,
                hint: "write the code of a component of the theme, for example `component: notice`")
        }
        var use = ComponentUse(
            code: code, codeLocation: codeEntry.value.location,
            fields: entries.filter { !codeKeys.contains($0.key) && $0.key != "id" && $0.key != "action" }, location: node.location)
        use.action = entries.first(where: { $0.key == "action" })?.value
        if let id = entries.first(where: { $0.key == "id" })?.value {
            guard let text = id.scalarText, !text.isEmpty, text.count <= 100,
                  text.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "-_.:".contains($0)) }) else {
                throw TesseraError(
                    "a component's 'id' must be letters, digits, '-', '_', '.' or ':' (at most 100), found '\(id.scalarText ?? id.kindDescription)'", at: id.location,
                    hint: "for example `id: swift-basics`; apps keep it as the component's identity")
            }
            use.id = text
        }
        return use
    }
}
