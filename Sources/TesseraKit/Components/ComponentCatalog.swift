import Foundation

/// The components a site can use, described for people and tools (`tessera components`).
public struct ComponentCatalog: Sendable {
    public struct Entry: Sendable, Encodable {
        public struct Field: Sendable, Encodable {
            public var name: String
            public var type: String
            public var required: Bool
            public var description: String?
            public var values: [String]?
            public var format: String?
            /// The value used when content leaves the field out, as written in the schema.
            public var `default`: String?
            public var currency: String?
            /// `items`: the component codes the container accepts (nil: any).
            public var accepts: [String]?
        }
        public var code: String
        public var description: String?
        public var shell: String
        public var fields: [Field]
        public var hasSwiftModel: Bool
        public var source: String
    }

    public var entries: [Entry]

    /// The site's theme and its components, with the site's overrides.
    public static func loadRegistry(siteDirectory: String) throws -> (Theme, ComponentRegistry) {
        let configuration = try SiteConfiguration.load(from: siteDirectory)
        let theme = try Theme.load(name: configuration.theme, siteDirectory: siteDirectory, location: configuration.themeLocation)
        let diagnostics = DiagnosticCollector()
        let registry = ComponentRegistry.load(theme: theme, diagnostics: diagnostics)
        try diagnostics.throwIfErrors()
        return (theme, registry)
    }

    /// Loads the site's theme and lists its components, with the site's overrides.
    public static func load(siteDirectory: String) throws -> ComponentCatalog {
        let (theme, registry) = try loadRegistry(siteDirectory: siteDirectory)
        return ComponentCatalog(entries: registry.codes.compactMap { code in
            guard let definition = registry[code] else { return nil }
            let schema = definition.schema
            return Entry(
                code: code, description: schema.description, shell: schema.shell ?? theme.defaultShell,
                fields: schema.fields.map {
                    .init(name: $0.name, type: $0.type.rawValue, required: $0.required, description: $0.description,
                          values: $0.values.isEmpty ? nil : $0.values, format: $0.format,
                          default: $0.defaultValue.map(Self.text(of:)), currency: $0.currency, accepts: $0.accepts.isEmpty ? nil : $0.accepts)
                },
                hasSwiftModel: definition.model != nil,
                source: Diagnostic.displayPath(schema.file, relativeTo: siteDirectory))
        })
    }

    /// A default as a person would write it: `info`, `0.5`, `{ t: sectionHeader.seeAll }`, `[a, b]`.
    static func text(of node: ContentNode) -> String {
        if let scalar = node.scalarText { return scalar }
        if let entries = node.entries { return "{ " + entries.map { "\($0.key): \(text(of: $0.value))" }.joined(separator: ", ") + " }" }
        if let list = node.list { return "[" + list.map(text(of:)).joined(separator: ", ") + "]" }
        return "null"
    }

    /// A readable listing: each component, its shell, then its fields.
    public var text: String {
        entries.map { entry in
            var lines = ["\(entry.code)  (shell: \(entry.shell))" + (entry.description.map { " — \($0)" } ?? "")]
            for field in entry.fields {
                var line = "    \(field.name): \(field.type)"
                if field.required { line += ", required" }
                if let values = field.values { line += " [\(values.joined(separator: "|"))]" }
                if let value = field.default { line += ", default \(value)" }
                if let format = field.format { line += ", format \(format)" }
                if let currency = field.currency { line += ", currency \(currency)" }
                if let accepts = field.accepts { line += ", accepts \(accepts.joined(separator: "|"))" }
                if let description = field.description { line += " — \(description)" }
                lines.append(line)
            }
            if entry.fields.isEmpty { lines.append("    (no fields)") }
            return lines.joined(separator: "\n")
        }.joined(separator: "\n")
    }
}
