import Foundation

/// Component codes → definitions, filled from schemas on disk and Swift models.
///
/// Adding a component is adding its files (or a `ComponentModel` to `ComponentRegistry.standardModels`);
/// nothing switches over codes.
public struct ComponentRegistry: Sendable {
    public private(set) var definitions: [String: ComponentDefinition] = [:]
    /// Codes whose schema exists but did not load; already reported, so their uses are not
    /// reported again as unknown components.
    public private(set) var brokenCodes: Set<String> = []

    public init(definitions: [ComponentDefinition] = []) {
        for definition in definitions { self.definitions[definition.code] = definition }
    }

    public subscript(code: String) -> ComponentDefinition? { definitions[code] }

    public var codes: [String] { definitions.keys.sorted() }

    /// The Swift view-data models Tessera ships.
    public static let standardModels: [AnyComponentModel] = [AnyComponentModel(BodyComponent.self)] + CatalogModels.all

    /// Reads `components/<code>.yml` and `components/<code>.mustache` from the site and the theme,
    /// then attaches Swift models by code. Problems go to `errors`; the components that load are kept.
    public static func load(theme: Theme, models: [AnyComponentModel] = standardModels, diagnostics errors: DiagnosticCollector) -> ComponentRegistry {
        let files = theme.files(in: .components, problems: errors)
        var schemas: [String: String] = [:], templates: [String: String] = [:]
        for (relative, path) in files {
            let ext = (relative as NSString).pathExtension
            let code = (relative as NSString).deletingPathExtension
            switch ext {
            case "yml", "yaml": schemas[code] = path
            case "mustache": templates[code] = path
            default:
                errors.report(Diagnostic(.warning, "ignoring \(relative): components/ holds <code>.yml schemas and <code>.mustache templates", at: SourceLocation(file: path)))
            }
        }
        // The Swift models of the built-in components belong to the default theme (built in or
        // ejected, and the site's overrides of it): another theme's `stat` is a component of its own.
        let models = theme.folderName.isEmpty || theme.folderName == DefaultTheme.name ? models : models.filter { $0.code == BodyComponent.code }
        let modelsByCode = Dictionary(models.map { ($0.code, $0) }, uniquingKeysWith: { _, last in last })
        var registry = ComponentRegistry()
        for (code, path) in schemas.sorted(by: { $0.key < $1.key }) {
            guard let schema = errors.attempt(at: SourceLocation(file: path), { try ComponentSchema.load(code: code, path: path) }) else {
                registry.brokenCodes.insert(code)
                continue
            }
            let model = modelsByCode[code]
            guard templates[code] != nil || model?.defaultTemplate != nil else {
                registry.brokenCodes.insert(code)
                errors.report(Diagnostic(.error, "component '\(code)' has a schema but no template", at: SourceLocation(file: path), hint: "add components/\(code).mustache beside it"))
                continue
            }
            registry.definitions[code] = ComponentDefinition(schema: schema, templatePath: templates[code], model: model)
        }
        for (code, path) in templates where schemas[code] == nil {
            if let model = modelsByCode[code], let schema = model.defaultSchema {
                registry.definitions[code] = ComponentDefinition(schema: schema, templatePath: path, model: model)
            } else {
                registry.brokenCodes.insert(code)
                errors.report(Diagnostic(.error, "component template '\(code)' has no schema", at: SourceLocation(file: path), hint: "add components/\(code).yml declaring its fields, even if it has none (`fields: {}`)"))
            }
        }
        for model in models where registry.definitions[model.code] == nil {
            if let schema = model.defaultSchema, model.defaultTemplate != nil {
                registry.definitions[model.code] = ComponentDefinition(schema: schema, templatePath: nil, model: model)
            }
        }
        ComponentSchema.checkFallbacks(in: registry.definitions, errors: errors)
        return registry
    }
}
