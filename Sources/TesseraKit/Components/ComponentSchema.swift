import Foundation

/// What a component accepts and how it is wrapped, read from `components/<code>.yml`.
public struct ComponentSchema: Sendable, Equatable {
    /// The schema's fields, shared by its copies (`CopyOnWrite`): a schema is copied for every
    /// component a build maps, renders, writes as JSON and indexes.
    private struct Stored: Sendable, Equatable {
        var code: String
        var description: String?
        var shell: String?
        var shellLocation: SourceLocation?
        var fields: [FieldSpec]
        var example: ContentNode?
        var file: String
        var version = 1
        var searchable = true
        var fallback: ComponentFallback?
        var minClientVersion: ClientVersion?
        var accessibility: ComponentAccessibility?
    }

    private var stored: CopyOnWrite<Stored>

    public var code: String {
        get { stored.read.code }
        _modify { yield &stored.write.code }
    }
    public var description: String? {
        get { stored.read.description }
        _modify { yield &stored.write.description }
    }
    /// `shells/<shell>.mustache` wraps the body; nil means the theme's default shell, `none` means bare.
    public var shell: String? {
        get { stored.read.shell }
        _modify { yield &stored.write.shell }
    }
    public var shellLocation: SourceLocation? {
        get { stored.read.shellLocation }
        _modify { yield &stored.write.shellLocation }
    }
    public var fields: [FieldSpec] {
        get { stored.read.fields }
        _modify { yield &stored.write.fields }
    }
    /// Sample values, rendered by the gallery and by tests.
    public var example: ContentNode? {
        get { stored.read.example }
        _modify { yield &stored.write.example }
    }
    public var file: String {
        get { stored.read.file }
        _modify { yield &stored.write.file }
    }
    /// `version:`: raised when a change would break apps that decode the component's JSON.
    public var version: Int {
        get { stored.read.version }
        _modify { yield &stored.write.version }
    }
    /// `search: false`: the component's text is left out of the search index (navigation,
    /// calls to action, legal notes).
    public var searchable: Bool {
        get { stored.read.searchable }
        _modify { yield &stored.write.searchable }
    }
    /// `fallback:`: what an app that does not know this component (or this version of it) shows.
    public var fallback: ComponentFallback? {
        get { stored.read.fallback }
        _modify { yield &stored.write.fallback }
    }
    /// `minClientVersion:`: the first release of the app that shows this component at this version.
    public var minClientVersion: ClientVersion? {
        get { stored.read.minClientVersion }
        _modify { yield &stored.write.minClientVersion }
    }
    /// `accessibility:`: templates of the label and hint screen readers get, for the web and apps.
    public var accessibility: ComponentAccessibility? {
        get { stored.read.accessibility }
        _modify { yield &stored.write.accessibility }
    }

    public init(code: String, description: String? = nil, shell: String? = nil, fields: [FieldSpec] = [], example: ContentNode? = nil, file: String) {
        stored = CopyOnWrite(Stored(code: code, description: description, shell: shell, fields: fields, example: example, file: file))
    }

    public static func == (a: ComponentSchema, b: ComponentSchema) -> Bool {
        a.stored.shares(b.stored) || a.stored.read == b.stored.read
    }

    public func field(_ name: String) -> FieldSpec? { fields.first { $0.name == name } }

    /// Whether the schema declares `name` (without copying the field).
    public func declares(_ name: String) -> Bool { fields.contains { $0.name == name } }

    static let keys = ["description", "shell", "fields", "example", "version", "search", "fallback", "minClientVersion", "accessibility"]
    /// Names templates already use for the rendering context; a field may not shadow them.
    // `t`, `asset`, `integrity` and `picture` are the template helpers: a field of that name would be hidden.
    // `action` is the item's typed action in content; `accessibilityLabel`/`Hint` are set from `accessibility:`.
    static let reservedFieldNames = ["component", "componentCode", "site", "page", "body", "section", "id", "action", "t", "asset", "integrity", "picture", "accessibilityLabel", "accessibilityHint"]

    static func load(code: String, path: String) throws -> ComponentSchema {
        let root = try YAMLParser.parseMapping(try FileTree.readText(path), file: path, what: "a component schema")
        var schema = ComponentSchema(code: code, file: path)
        let errors = DiagnosticCollector()
        for entry in root.entries ?? [] {
            switch entry.key {
            case "description": schema.description = entry.value.scalarText
            case "shell":
                schema.shell = entry.value.scalarText
                schema.shellLocation = entry.value.location
            case "example": schema.example = entry.value
            case "fallback": schema.fallback = errors.attempt { try ComponentFallback.parse(entry.value) }
            case "minClientVersion": schema.minClientVersion = errors.attempt { try ClientVersion.parse(entry.value) }
            case "accessibility": schema.accessibility = errors.attempt { try ComponentAccessibility.parse(entry.value) }
            case "search":
                guard case .bool(let flag) = entry.value.value else {
                    errors.report(Diagnostic(.error, "a schema's 'search' must be true or false, found \(entry.value.scalarText ?? entry.value.kindDescription)", at: entry.value.location, hint: "write `search: false` to leave the component's text out of the search index"))
                    continue
                }
                schema.searchable = flag
            case "version":
                if case .int(let number) = entry.value.value, number > 0 { schema.version = number } else {
                    errors.report(Diagnostic(.error, "a schema's 'version' must be a positive whole number, found \(entry.value.scalarText ?? entry.value.kindDescription)", at: entry.value.location, hint: "write `version: 2` when the component's fields change in a way apps must know"))
                }
            case "fields":
                guard let fields = entry.value.entries else {
                    errors.report(Diagnostic(.error, "'fields' must be a mapping of field names to specs", at: entry.value.location, hint: "write `title: { type: text, required: true }`"))
                    continue
                }
                schema.fields = fields.compactMap { field in errors.attempt { try parseField(field) } }
            default:
                errors.report(Diagnostic(.error, "unknown schema key '\(entry.key)'", at: entry.keyLocation, hint: Suggestions.didYouMean(entry.key, in: keys) ?? "a schema has \(keys.joined(separator: ", "))"))
            }
        }
        try errors.throwIfErrors()
        return schema
    }

    private static func parseField(_ entry: ContentNode.Entry) throws -> FieldSpec {
        if reservedFieldNames.contains(entry.key) {
            throw TesseraError("'\(entry.key)' cannot be a field name", at: entry.keyLocation, hint: "templates already use '\(entry.key)'; pick another name")
        }
        let node = entry.value
        // `title: text` is shorthand for `title: { type: text }`.
        let spec: [ContentNode.Entry]
        if case .string = node.value {
            spec = [.init(key: "type", keyLocation: node.location, value: node)]
        } else if let entries = node.entries {
            spec = entries
        } else {
            throw TesseraError("field '\(entry.key)' must be a type name or a mapping", at: node.location, hint: "write `\(entry.key): { type: text }`")
        }
        var field = FieldSpec(name: entry.key, type: .text, location: entry.keyLocation)
        var sawType = false
        for option in spec {
            let value = option.value
            switch option.key {
            case "type":
                let name = value.scalarText ?? ""
                guard let type = FieldType(rawValue: name) else {
                    throw TesseraError(
                        "unknown field type '\(name)'", at: value.location,
                        hint: Suggestions.didYouMean(name, in: FieldType.allCases.map(\.rawValue)) ?? "the types are \(FieldType.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                field.type = type
                sawType = true
            case "required":
                guard let flag = value.bool else { throw TesseraError("'required' must be true or false", at: value.location) }
                field.required = flag
            case "default": field.defaultValue = value
            case "description": field.description = value.scalarText
            case "format": field.format = value.scalarText
            case "currency":
                let code = value.scalarText?.uppercased() ?? ""
                try NumberTransformers.checkCurrency(code, at: value.location)
                field.currency = code
            case "values", "accepts":
                guard let list = value.list, list.allSatisfy({ $0.scalarText != nil }) else {
                    throw TesseraError("'\(option.key)' must be a list of names", at: value.location, hint: "write `\(option.key): [a, b]`")
                }
                if option.key == "values" { field.values = list.compactMap(\.scalarText) } else { field.accepts = list.compactMap(\.scalarText) }
            case "sizes":
                guard let sizes = value.scalarText, !sizes.isEmpty else {
                    throw TesseraError("'sizes' must be the width the image is shown at, as HTML's `sizes` attribute says it", at: value.location, hint: "write `sizes: \"(min-width: 48rem) 33vw, 100vw\"`")
                }
                field.image.sizes = sizes
            case "ratio":
                guard let text = value.scalarText, let ratio = ImageRequest.ratio(text) else {
                    throw TesseraError("'ratio' must be a width to height, such as \"16:9\" or \"1:1\"", at: value.location, hint: "quote it: `ratio: \"4:3\"`")
                }
                field.image.ratio = ratio
            case "widths":
                guard let list = value.list, !list.isEmpty, list.allSatisfy({ if case .int(let width) = $0.value { (16...8192).contains(width) } else { false } }) else {
                    throw TesseraError("'widths' must be a list of widths in pixels, from 16 to 8192", at: value.location, hint: "write `widths: [160, 320, 640]`")
                }
                field.image.widths = list.compactMap { if case .int(let width) = $0.value { width } else { nil } }
            default:
                throw TesseraError("unknown field option '\(option.key)'", at: option.keyLocation, hint: Suggestions.didYouMean(option.key, in: FieldSpec.keys) ?? "a field takes \(FieldSpec.keys.joined(separator: ", "))")
            }
        }
        guard sawType else {
            throw TesseraError("field '\(entry.key)' has no type", at: entry.keyLocation, hint: "add `type:`, one of \(FieldType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        if let format = field.format, let location = spec.first(where: { $0.key == "format" })?.value.location {
            try FieldFormat.check(format, for: field.type, at: location)
        }
        if field.type != .image, let option = spec.first(where: { ["sizes", "ratio", "widths"].contains($0.key) }) {
            throw TesseraError("'\(option.key)' is an option of image fields", at: option.keyLocation, hint: "remove it, or make the field `type: image`")
        }
        if field.type == .enum && field.values.isEmpty {
            throw TesseraError("enum field '\(entry.key)' lists no values", at: entry.keyLocation, hint: "add `values: [first, second]`")
        }
        return field
    }
}
