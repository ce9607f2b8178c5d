import Foundation

/// What an app built before a component existed shows in its place: nothing (`hide`), or
/// another component made from this one's fields (Adaptive Cards' `fallback`, Hub's categories).
///
/// ```yaml
/// fallback: hide
/// fallback: notice                                       # fields copied by name
/// fallback: { component: notice, fields: { message: label } }   # notice's message ← our label
/// ```
public enum ComponentFallback: Sendable, Equatable {
    case hide
    /// `fields`: the fallback's field name → this component's field name.
    case component(String, fields: [(String, String)], location: SourceLocation)

    public static func == (lhs: ComponentFallback, rhs: ComponentFallback) -> Bool {
        switch (lhs, rhs) {
        case (.hide, .hide): return true
        case let (.component(a, x, _), .component(b, y, _)): return a == b && x.elementsEqual(y) { $0 == $1 }
        default: return false
        }
    }

    static func parse(_ node: ContentNode) throws -> ComponentFallback {
        if let name = node.scalarText {
            return name == "hide" ? .hide : .component(name, fields: [], location: node.location)
        }
        guard let entries = node.entries, let code = node["component"]?.scalarText else {
            throw TesseraError(
                "a schema's 'fallback' must be `hide`, a component code, or `{ component: …, fields: … }`", at: node.location,
                hint: "write `fallback: hide`, or `fallback: { component: notice, fields: { message: title } }`")
        }
        for entry in entries where !["component", "fields"].contains(entry.key) {
            throw TesseraError("unknown fallback key '\(entry.key)'", at: entry.keyLocation, hint: "a fallback takes 'component' and 'fields'")
        }
        var fields: [(String, String)] = []
        if let map = node["fields"] {
            guard let pairs = map.entries, pairs.allSatisfy({ $0.value.scalarText != nil }) else {
                throw TesseraError("a fallback's 'fields' maps the fallback's field names to this component's", at: map.location, hint: "write `fields: { message: title }`")
            }
            fields = pairs.map { ($0.key, $0.value.scalarText ?? "") }
        }
        return .component(code, fields: fields, location: node.location)
    }

    /// The fallback's field → this component's field, for every field they share or `fields:` maps.
    func fieldMap(from schema: ComponentSchema, to fallback: ComponentSchema) -> [(String, String)] {
        guard case .component(_, let written, _) = self else { return [] }
        var map = written
        for field in fallback.fields where !map.contains(where: { $0.0 == field.name }) && schema.declares(field.name) {
            map.append((field.name, field.name))
        }
        return map
    }
}

/// An app's version as the contract counts it: dotted numbers ("1", "1.4", "2.10.1"), compared
/// number by number, missing numbers read as 0 ("1" is "1.0").
public struct ClientVersion: Sendable, Comparable, CustomStringConvertible {
    public let parts: [Int]
    public let description: String

    public static let initial = ClientVersion(parts: [1, 0], description: "1.0")

    init(parts: [Int], description: String) {
        self.parts = parts
        self.description = description
    }

    public init?(_ text: String) {
        let pieces = text.split(separator: ".", omittingEmptySubsequences: false)
        guard !pieces.isEmpty, pieces.count <= 4,
              pieces.allSatisfy({ !$0.isEmpty && $0.count <= 6 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else { return nil }
        self.init(parts: pieces.map { Int($0) ?? 0 }, description: text)
    }

    public static func < (lhs: ClientVersion, rhs: ClientVersion) -> Bool {
        for index in 0..<max(lhs.parts.count, rhs.parts.count) {
            let (a, b) = (lhs.parts.indices.contains(index) ? lhs.parts[index] : 0, rhs.parts.indices.contains(index) ? rhs.parts[index] : 0)
            if a != b { return a < b }
        }
        return false
    }

    public static func == (lhs: ClientVersion, rhs: ClientVersion) -> Bool { !(lhs < rhs) && !(rhs < lhs) }

    static func parse(_ node: ContentNode) throws -> ClientVersion {
        // `minClientVersion: 2` and `2.1` arrive as numbers; a version is their text as written.
        guard let text = node.scalarText, let version = ClientVersion(text) else {
            throw TesseraError(
                "'minClientVersion' must be an app version of dotted numbers, found '\(node.scalarText ?? node.kindDescription)'", at: node.location,
                hint: "quote it: `minClientVersion: \"2.1\"`, the first release of your app that shows this component at this version")
        }
        return version
    }
}

/// What screen readers are told about a component, in the page's words: Mustache templates over
/// the component's view data (`"{{label}}: {{value}}"`), the same text for the web
/// (`{{accessibilityLabel}}`) and for apps (`accessibility.label` in the page JSON).
public struct ComponentAccessibility: Sendable, Equatable {
    public var label: String?
    public var hint: String?
    var compiledLabel: MustacheSyntax?
    var compiledHint: MustacheSyntax?

    static let keys = ["label", "hint"]

    public static func == (lhs: ComponentAccessibility, rhs: ComponentAccessibility) -> Bool { lhs.label == rhs.label && lhs.hint == rhs.hint }

    static func parse(_ node: ContentNode) throws -> ComponentAccessibility {
        var accessibility = ComponentAccessibility()
        // `accessibility: "{{title}}"` is the label alone.
        let entries = node.scalarText != nil ? [ContentNode.Entry(key: "label", keyLocation: node.location, value: node)] : node.entries
        guard let entries else {
            throw TesseraError("a schema's 'accessibility' must be a mapping with `label:` and `hint:`", at: node.location, hint: "write `accessibility: { label: \"{{title}}: {{status}}\" }`")
        }
        for entry in entries {
            guard Self.keys.contains(entry.key) else {
                throw TesseraError("unknown accessibility key '\(entry.key)'", at: entry.keyLocation, hint: Suggestions.didYouMean(entry.key, in: keys) ?? "it takes label and hint")
            }
            guard let text = entry.value.scalarText else {
                throw TesseraError("'\(entry.key)' must be text, a Mustache template over the component's fields", at: entry.value.location, hint: "write `\(entry.key): \"{{title}}\"`")
            }
            let syntax: MustacheSyntax
            do { syntax = try MustacheSyntax(parsing: text) } catch {
                throw TesseraError("the accessibility \(entry.key) is not a valid template: \(error)", at: entry.value.location, hint: "use `{{field}}` and `{{#field}}…{{/field}}`")
            }
            if entry.key == "label" { (accessibility.label, accessibility.compiledLabel) = (text, syntax) } else { (accessibility.hint, accessibility.compiledHint) = (text, syntax) }
        }
        return accessibility
    }

    /// The label and hint for a component with `data`, as plain text (nothing escaped), its
    /// spaces collapsed; empty results are left out.
    func values(for data: ViewObject) -> [(String, ViewValue)] {
        func render(_ syntax: MustacheSyntax?) -> ViewValue {
            guard let syntax else { return .null }
            let rendering = MustacheRendering(partials: [:], root: TemplateScope([], fields: data))
            // Plain text: a Markdown field prints its HTML, which a screen reader reads as its text.
            let text = HTMLText.words(HTMLText.plain(rendering.render(syntax, escaping: false)))
            return text.isEmpty ? .null : .string(text)
        }
        return [("accessibilityLabel", render(compiledLabel)), ("accessibilityHint", render(compiledHint))]
    }
}

extension ComponentSchema {
    /// Static problems of the registry's fallbacks: an unknown component, a cycle, a mapped field
    /// either side lacks, a required field of the fallback left empty, or one of another shape.
    static func checkFallbacks(in definitions: [String: ComponentDefinition], errors: DiagnosticCollector) {
        for (code, definition) in definitions.sorted(by: { $0.key < $1.key }) {
            guard case .component(let target, let written, let location)? = definition.schema.fallback else { continue }
            guard let fallback = definitions[target]?.schema else {
                errors.report(Diagnostic(
                    .error, "component '\(code)' falls back to '\(target)', which the theme does not have", at: location,
                    hint: Suggestions.didYouMean(target, in: Array(definitions.keys)) ?? "name one of the theme's components, or write `fallback: hide`"))
                continue
            }
            // A chain that comes back to a component an app lacks would never end.
            var seen = [code], next: String? = target
            while let current = next {
                if seen.contains(current) {
                    errors.report(Diagnostic(.error, "the fallbacks of '\(code)' go round in a circle: \((seen + [current]).joined(separator: " → "))", at: location, hint: "end the chain at a component apps have had from the start, or at `hide`"))
                    break
                }
                seen.append(current)
                if case .component(let following, _, _)? = definitions[current]?.schema.fallback { next = following } else { next = nil }
            }
            let schema = definition.schema
            for (theirs, ours) in written {
                if fallback.field(theirs) == nil {
                    errors.report(Diagnostic(.error, "the fallback '\(target)' has no field '\(theirs)'", at: location, hint: Suggestions.didYouMean(theirs, in: fallback.fields.map(\.name)) ?? "its fields are \(fallback.fields.map(\.name).joined(separator: ", "))"))
                }
                if schema.field(ours) == nil {
                    errors.report(Diagnostic(.error, "'\(code)' has no field '\(ours)' to give its fallback", at: location, hint: Suggestions.didYouMean(ours, in: schema.fields.map(\.name)) ?? "its fields are \(schema.fields.map(\.name).joined(separator: ", "))"))
                }
            }
            let map = definition.schema.fallback?.fieldMap(from: schema, to: fallback) ?? []
            for (theirs, ours) in map {
                guard let theirField = fallback.field(theirs), let ourField = schema.field(ours) else { continue }
                if theirField.type.jsonShape != ourField.type.jsonShape {
                    errors.report(Diagnostic(
                        .error, "'\(code)'s field '\(ours)' (\(ourField.type.rawValue)) cannot fill '\(target)'s field '\(theirs)' (\(theirField.type.rawValue))", at: location,
                        hint: "map a field of the same kind of value, or leave it out"))
                }
            }
            for field in fallback.fields where field.required && field.defaultValue == nil && !map.contains(where: { $0.0 == field.name }) {
                errors.report(Diagnostic(
                    .error, "the fallback '\(target)' needs field '\(field.name)', which '\(code)' does not give it", at: location,
                    hint: "map one: `fallback: { component: \(target), fields: { \(field.name): <a field of \(code)> } }`"))
            }
        }
    }
}

extension FieldType {
    /// The JSON an app decodes for a value of this type: types that share one can stand in for
    /// each other in a fallback (a `percent` shows as a `number`: its text is "42%").
    var jsonShape: String {
        switch self {
        case .text, .enum: "string"
        case .markdown, .inlineMarkdown: "markdown"
        case .number, .percent, .currency: "number"
        default: rawValue
        }
    }
}

/// What tapping a component does in an app, typed (DivKit's actions, Ghost Platform's actions
/// apart from layout): `navigate` to a page of the site, `open-external` for another site,
/// `share`, or a type of the app's own (`add-to-calendar`), with its parameters.
///
/// Written on an item in content (`action: share`, `action: { type: share, title: … }`), or made
/// from the component's first `link` field.
public struct ComponentAction: Sendable, Equatable {
    public var type: String
    /// Resolved, with the base path; nil for a `share` of the page itself.
    public var url: String?
    public var external = false
    public var title: String?
    /// A custom type's other values, in written order.
    public var parameters: [(String, String)] = []

    public static let known = ["navigate", "open-external", "share"]

    public static func == (lhs: ComponentAction, rhs: ComponentAction) -> Bool {
        lhs.type == rhs.type && lhs.url == rhs.url && lhs.external == rhs.external && lhs.title == rhs.title
            && lhs.parameters.elementsEqual(rhs.parameters) { $0 == $1 }
    }

    static func isTypeName(_ text: String) -> Bool {
        guard let first = text.unicodeScalars.first, ("a"..."z").contains(first), text.count <= 40 else { return false }
        return text.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("0"..."9").contains($0) || $0 == "-" }
    }

    /// `node` as written on an item; links are resolved and checked like a `link` field's.
    static func parse(_ node: ContentNode, context: TransformContext) throws -> ComponentAction {
        let entries: [ContentNode.Entry]
        if let name = node.scalarText {
            entries = [.init(key: "type", keyLocation: node.location, value: ContentNode(.string(name), at: node.location))]
        } else if let written = node.entries {
            entries = written
        } else {
            throw TesseraError("'action' must be an action type or a mapping, found \(node.kindDescription)", at: node.location, hint: "write `action: share` or `action: { type: navigate, url: /blog/ }`")
        }
        guard let typeEntry = entries.first(where: { $0.key == "type" }), let type = typeEntry.value.scalarText, isTypeName(type) else {
            throw TesseraError(
                "an action needs a 'type': navigate, open-external, share, or a name of your app's own (lowercase letters, digits and '-')", at: node.location,
                hint: "write `action: { type: share }`")
        }
        var action = ComponentAction(type: type)
        for entry in entries where entry.key != "type" {
            guard let text = entry.value.scalarText else {
                throw TesseraError("the action's '\(entry.key)' must be text, found \(entry.value.kindDescription)", at: entry.value.location)
            }
            switch entry.key {
            case "url":
                let field = FieldSpec(name: "action", type: .link, location: entry.keyLocation)
                let link = try LinkTransformers.link.transform(entry.value, field, context)
                action.url = link["url"]?.text ?? text
                action.external = link["external"] == .bool(true)
            case "title": action.title = text
            default:
                guard !known.contains(type) else {
                    throw TesseraError("unknown key '\(entry.key)' for a '\(type)' action", at: entry.keyLocation, hint: "a \(type) action takes url and title")
                }
                action.parameters.append((entry.key, text))
            }
        }
        switch type {
        case "navigate", "open-external":
            guard let url = action.url else {
                throw TesseraError("a '\(type)' action needs a 'url'", at: node.location, hint: "write `action: { type: \(type), url: \(type == "navigate" ? "/blog/" : "https://example.org/") }`")
            }
            if type == "navigate" && action.external {
                throw TesseraError("'navigate' leads to a page of the site, and \(url) is another site's", at: node.location, hint: "write `type: open-external`")
            }
        default: break
        }
        return action
    }
}
