import Foundation

/// Maps components as written in content to view data: validates fields against the schema,
/// runs each field's transformer, adds the Swift model's values, picks the shell.
public struct ViewDataMapper: Sendable {
    public var registry: ComponentRegistry
    public var transformers: TransformerRegistry
    /// The theme's shell for schemas that name none.
    public var defaultShell: String

    public init(registry: ComponentRegistry, transformers: TransformerRegistry = .standard, defaultShell: String) {
        self.registry = registry
        self.transformers = transformers
        self.defaultShell = defaultShell
    }

    /// Components nested deeper than this are refused where the limit is crossed: mapping and
    /// rendering recurse per level, and no real feed comes near it.
    public static let maxNesting = 32

    /// Maps one component and its children; every problem of the component is reported, not just the first.
    public func map(_ use: ComponentUse, context: TransformContext, pageContent: String? = nil) throws -> ComponentView {
        try map(use, context: context, pageContent: pageContent, depth: 1)
    }

    private func map(_ use: ComponentUse, context: TransformContext, pageContent: String?, depth: Int) throws -> ComponentView {
        guard depth <= Self.maxNesting else {
            throw TesseraError(
                "components nested more than \(Self.maxNesting) deep", at: use.location,
                hint: "flatten the feed: put these components side by side in a section, or split them over pages")
        }
        guard let definition = registry[use.code] else {
            // The schema's own error is already reported; fail this component without repeating it.
            if registry.brokenCodes.contains(use.code) { throw TesseraError(diagnostics: []) }
            let near = Suggestions.nearest(to: use.code, in: registry.codes)
            throw TesseraError(
                "unknown component '\(use.code)'", at: use.codeLocation,
                hint: near.isEmpty
                    ? "the theme's components are: \(registry.codes.joined(separator: ", "))"
                    : "did you mean \(near.map { "'\($0)'" }.joined(separator: " or "))? `tessera components` lists them all")
        }
        let schema = definition.schema
        let errors = DiagnosticCollector()
        for entry in use.fields where !schema.declares(entry.key) {
            let known = schema.fields.map(\.name)
            errors.report(Diagnostic(
                .error, "unknown field '\(entry.key)' for component '\(use.code)'", at: entry.keyLocation,
                hint: Suggestions.didYouMean(entry.key, in: known)
                    ?? (known.isEmpty ? "'\(use.code)' takes no fields" : "'\(use.code)' takes \(known.joined(separator: ", "))")))
        }
        var values: [(String, ViewValue)] = []
        values.reserveCapacity(schema.fields.count)
        for field in schema.fields {
            let node: ContentNode?
            if let given = use[field.name] {
                node = given
            } else if let fallback = field.defaultValue {
                node = errors.attempt { try Self.translatedDefault(fallback, context: context) }
            } else {
                node = nil
            }
            guard let node, !node.isNull else {
                if field.required {
                    errors.report(Diagnostic(
                        .error, "component '\(use.code)' needs field '\(field.name)'", at: use.location,
                        hint: "add `\(field.name):` (\(field.type.rawValue))" + (field.description.map { ": \($0)" } ?? "")))
                }
                values.append((field.name, .null))
                continue
            }
            let value = errors.attempt { try self.value(of: node, field: field, in: use, context: context, pageContent: pageContent, depth: depth) }
            values.append((field.name, value ?? .null))
        }
        try errors.throwIfErrors()
        var data = ViewObject(values)
        if let model = definition.model {
            let fields = ComponentFields(values: data, pageContent: pageContent)
            let extra: [(String, ViewValue)]?
            do { extra = try model.members(fields, context) } catch { throw TesseraError.wrapping(error, at: use.location) }
            if let extra { data = data.merging(extra) }
        }
        if let accessibility = schema.accessibility { data = data.merging(accessibility.values(for: data)) }
        let shell = schema.shell ?? defaultShell
        var view = ComponentView(code: use.code, data: data, shell: shell == "none" ? nil : shell, location: use.location)
        view.id = use.id
        if let action = use.action {
            do { view.action = try ComponentAction.parse(action, context: context) } catch { throw TesseraError.wrapping(error, at: action.location) }
        }
        return view
    }

    /// A schema default written `{ t: key }` is the page language's translation of `key`.
    static func translatedDefault(_ node: ContentNode, context: TransformContext) throws -> ContentNode {
        guard let entries = node.entries, entries.count == 1, entries[0].key == "t", let key = entries[0].value.scalarText else { return node }
        do {
            return ContentNode(.string(try context.translator.text(key)), at: node.location)
        } catch let error as TesseraError {
            throw TesseraError(diagnostics: error.diagnostics.map { var d = $0; d.location = node.location; return d })
        }
    }

    private func value(of node: ContentNode, field: FieldSpec, in use: ComponentUse, context: TransformContext, pageContent: String?, depth: Int) throws -> ViewValue {
        if field.type == .items {
            guard let list = node.list else {
                throw TransformerRegistry.wrongType(node, field: field, expected: "a list of components", hint: "start each child with '- component:'")
            }
            let errors = DiagnosticCollector()
            let children = list.compactMap { item -> ComponentView? in
                errors.attempt {
                    let child = try ComponentUse.parse(item, what: "a child of '\(use.code)'")
                    if !field.accepts.isEmpty && !field.accepts.contains(child.code) {
                        throw TesseraError(
                            "'\(use.code)' does not accept '\(child.code)' in '\(field.name)'", at: child.codeLocation,
                            hint: "it accepts \(field.accepts.joined(separator: ", "))")
                    }
                    return try map(child, context: context, pageContent: pageContent, depth: depth + 1)
                }
            }
            try errors.throwIfErrors()
            return .components(children)
        }
        guard let transformer = transformers[field.type] else {
            throw TesseraError("no transformer named '\(field.type.rawValue)'", at: field.location)
        }
        return try transformer.transform(node, field, context)
    }
}
