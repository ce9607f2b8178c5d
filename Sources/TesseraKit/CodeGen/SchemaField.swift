import Foundation

/// A component field as `/api/schema.json` describes it: the type the theme declared (`percent`,
/// `inline-markdown`), its format, and the JSON an app decodes.
///
/// Two declared types can share a JSON shape and still mean different things: a `percent` and a
/// `number` are both `{ text, value }`, but `text` reads `27%` for one and `0.27` for the other.
/// `x-tessera-type` carries the declared type so that `schema diff` can tell them apart.
struct SchemaField: Equatable {
    /// The declared type; nil in a schema written before Tessera named it.
    var declared: String?
    /// `x-tessera-format`: a date's `long`, a number's fraction digits.
    var format: String?
    /// An enum's values.
    var values: [String]?
    var shape: Shape

    /// The JSON an app decodes.
    enum Shape: Equatable {
        case string, boolean, strings, components
        /// An object of `$defs` with its keys: `number` → text, value.
        case object(String, keys: [String])

        /// The name a schema without declared types gives the field: the `$defs` name, or the type.
        var name: String {
            switch self {
            case .string: "text"
            case .boolean: "bool"
            case .strings: "list"
            case .components: "items"
            case .object(let name, _): name
            }
        }

        var description: String {
            switch self {
            case .string: "a string"
            case .boolean: "true or false"
            case .strings: "a list of strings"
            case .components: "a list of components"
            case .object(_, let keys): "an object with " + Self.list(keys)
            }
        }

        /// An app that decodes `self` decodes `other` too: the same, or an object with every key
        /// (a `currency` is a `number` with its code; decoders ignore keys they do not know).
        func decodes(_ other: Shape) -> Bool {
            switch (self, other) {
            case (.object(_, let keys), .object(_, let others)): Set(keys).isSubset(of: others)
            default: self == other
            }
        }

        static func list(_ words: [String]) -> String {
            words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " and " + words.last!
        }
    }

    /// The type a message names: the declared one, else the shape's.
    var type: String { declared ?? shape.name }

    /// What an app shows of a value of each declared type, for messages.
    static let meanings: [String: String] = [
        "text": "plain text",
        "markdown": "block HTML in paragraphs",
        "inline-markdown": "inline HTML without paragraphs",
        "number": "a number such as 1,280",
        "percent": "a percentage such as 27% (value 0.27)",
        "currency": "an amount with its currency such as €12.50",
        "date": "a date",
        "link": "a URL",
        "image": "an image",
        "enum": "one of a list of names",
        "bool": "true or false",
        "list": "a list of texts",
        "items": "components",
    ]

    /// Read from a field's definition in the schema; `definitions` are the schema's `$defs`, where
    /// a value object's `required` keys are what every app can rely on.
    init(_ definition: [String: Any], definitions: [String: Any]) {
        declared = definition["x-tessera-type"] as? String
        format = definition["x-tessera-format"] as? String
        values = definition["enum"] as? [String]
        if let reference = definition["$ref"] as? String {
            let name = String(reference.split(separator: "/").last ?? "")
            shape = .object(name, keys: (definitions[name] as? [String: Any])?["required"] as? [String] ?? [])
        } else if values != nil || definition["type"] as? String == "string" {
            shape = .string
        } else if definition["type"] as? String == "array" {
            shape = (definition["items"] as? [String: Any])?["anyOf"] != nil ? .components : .strings
        } else if definition["type"] as? String == "boolean" {
            shape = .boolean
        } else {
            shape = .object(definition["type"] as? String ?? "any", keys: [])
        }
        if values != nil && declared == nil { declared = "enum" }
    }

}
