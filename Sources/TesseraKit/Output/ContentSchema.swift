import Foundation

/// `/api/schema.json`: a JSON Schema (2020-12) of the page documents this build writes, made
/// from the component schemas, so apps and CI can validate every `index.json`.
struct ContentSchemaWriter {
    var registry: ComponentRegistry
    var origin: String
    var basePath: String

    static let dialect = "https://json-schema.org/draft/2020-12/schema"

    func schema() -> [String: Any] {
        var definitions: [String: Any] = [
            "page": pageDefinition,
            "section": sectionDefinition,
            "markdown": object(["html": ["type": "string"], "text": ["type": "string"]], required: ["html", "text"]),
            "number": object(["text": ["type": "string"], "value": ["type": "number"]], required: ["text", "value"]),
            "currency": object(["text": ["type": "string"], "value": ["type": "number"], "currency": ["type": "string", "pattern": "^[A-Z]{3}$"]], required: ["text", "value", "currency"]),
            "date": object(["text": ["type": "string"], "iso": ["type": "string", "format": "date-time"]], required: ["text", "iso"]),
            "link": object(["url": ["type": "string"], "external": ["type": "boolean"]], required: ["url", "external"]),
            // `src` is the fallback's URL; `variants` every file made of the image, `original` the file as it is.
            "image": object([
                "src": ["type": "string"], "alt": ["type": "string"], "external": ["type": "boolean"],
                "width": ["type": "integer", "minimum": 1], "height": ["type": "integer", "minimum": 1],
                "original": ["type": "string"], "color": ["type": "string", "pattern": "^#[0-9a-f]{6}$"],
                "preview": ["type": "string", "pattern": "^data:image/webp;base64,"],
                "variants": ["type": "array", "items": object([
                    "src": ["type": "string"], "width": ["type": "integer", "minimum": 1], "height": ["type": "integer", "minimum": 1],
                    "format": ["enum": ["jpeg", "png", "webp", "avif"]],
                ], required: ["src", "width", "height", "format"])],
            ], required: ["src", "alt", "external"]),
            "component": ["anyOf": codes.map { ["$ref": "#/$defs/component-\($0)"] }],
            // What tapping a component does: navigate (to a page of the site: its id and JSON),
            // open-external, share, or a type of the app's own with its string parameters.
            "action": [
                "type": "object", "required": ["type"],
                "properties": ["type": ["type": "string", "pattern": "^[a-z][a-z0-9-]*$"], "url": ["type": "string"], "page": ["type": "string"], "json": ["type": "string"], "title": ["type": "string"]],
                "additionalProperties": ["type": "string"],
            ] as [String: Any],
            "accessibility": object(["label": ["type": "string"], "hint": ["type": "string"]], required: []),
            // The body's blocks in reading order: runs of its Markdown's HTML, the components placed
            // in it, and its code blocks (with Pygments' token types, when highlighted).
            "body": ["type": "array", "items": ["oneOf": [
                object(["kind": ["const": "markdown"], "html": ["type": "string"]], required: ["kind", "html"]),
                object(["kind": ["const": "component"], "component": ["$ref": "#/$defs/component"]], required: ["kind", "component"]),
                object([
                    "kind": ["const": "code"], "code": ["type": "string"], "language": ["type": ["string", "null"]], "languageName": ["type": "string"],
                    "title": ["type": "string"], "firstLineNumber": ["type": "integer", "minimum": 0],
                    "markedLines": ["type": "array", "items": ["type": "integer", "minimum": 1]],
                    "tokens": ["type": "array", "items": [
                        "type": "array", "prefixItems": [["type": "string"], ["type": "string"]], "minItems": 2, "maxItems": 2, "items": false,
                    ]],
                ], required: ["kind", "code", "language"]),
            ]]],
            // A heading of the body and the deeper ones after it, for `page.toc`.
            "heading": object(
                ["level": ["type": "integer", "minimum": 1, "maximum": 6], "text": ["type": "string"], "id": ["type": "string"],
                 "children": ["type": "array", "items": ["$ref": "#/$defs/heading"]]],
                required: ["level", "text", "id", "children"]),
        ]
        for code in codes {
            definitions["component-\(code)"] = componentDefinition(code)
        }
        // `<page>/sections/<id>/index.json` and its pages: a published section's whole list.
        definitions["sectionDocument"] = object([
            "format": ["const": PageDocument.sectionFormat], "version": ["const": PageDocument.version], "page": ["type": "string"],
            "section": ["$ref": "#/$defs/section"],
            "pagination": (pageDefinition["properties"] as? [String: Any])?["pagination"] ?? [:],
        ], required: ["format", "version", "page", "section", "pagination"])
        // `api/site.json`: the site's languages and every language's menus.
        let string: [String: Any] = ["type": "string"]
        definitions["menuItem"] = object(
            ["name": string, "url": string, "json": string, "external": ["type": "boolean"], "icon": string, "children": ["type": "array", "items": ["$ref": "#/$defs/menuItem"]]],
            required: ["name", "external"])
        definitions["siteDocument"] = object([
            "format": ["const": SiteDocument.format], "version": ["const": PageDocument.version], "title": string,
            "languages": ["type": "array", "items": object(
                ["code": string, "name": string, "title": string, "direction": ["enum": ["ltr", "rtl"]], "home": string, "json": string],
                required: ["code", "name", "direction", "home"])],
            "menus": ["type": "object", "additionalProperties": ["type": "object", "additionalProperties": ["type": "array", "items": ["$ref": "#/$defs/menuItem"]]]],
        ], required: ["format", "version", "title", "languages", "menus"])
        // `api/search/<lang>.json` (`search.documents: true`): every searched page's text, for an app's own index.
        definitions["searchDocuments"] = object([
            "format": ["const": SearchIndex.documentsFormat], "version": ["const": SearchIndex.documentsVersion], "language": ["type": "string"],
            "documents": ["type": "array", "items": object([
                "id": ["type": "string"], "url": ["type": "string"], "title": ["type": "string"], "summary": ["type": "string"],
                "section": ["type": "string"], "tags": ["type": "array", "items": ["type": "string"]],
                "date": ["type": "string", "format": "date-time"], "text": ["type": "string"],
            ], required: ["id", "url", "title", "section", "tags", "text"])],
        ], required: ["format", "version", "language", "documents"])
        var schema: [String: Any] = [
            "$schema": Self.dialect,
            // The app version that shows every component of this schema as itself.
            "x-tessera-minClientVersion": minClientVersion.description,
            "title": "Tessera page",
            "description": "A page's view data: its sections of components, as the website shows them.",
            "type": "object",
            "required": ["format", "version", "page", "sections"],
            "additionalProperties": false,
            "properties": [
                "format": ["const": PageDocument.format],
                "version": ["const": PageDocument.version],
                "page": ["$ref": "#/$defs/page"],
                "sections": ["type": "array", "items": ["$ref": "#/$defs/section"]],
                "body": ["$ref": "#/$defs/body"],
            ],
            "$defs": definitions,
        ]
        if !origin.isEmpty { schema["$id"] = origin + basePath + "api/schema.json" }
        return schema
    }

    /// Every component a page can hold: the theme's and the site's, and the built-in `body`.
    var codes: [String] { registry.codes }

    var minClientVersion: ClientVersion {
        registry.definitions.values.compactMap(\.schema.minClientVersion).max() ?? .initial
    }

    private func object(_ properties: [String: Any], required: [String]) -> [String: Any] {
        ["type": "object", "properties": properties, "required": required, "additionalProperties": false]
    }

    private var pageDefinition: [String: Any] {
        let string: [String: Any] = ["type": "string"]
        let pageLink = object(["lang": string, "url": string, "json": string], required: ["lang", "url", "json"])
        let count: [String: Any] = ["type": "integer", "minimum": 0]
        let pager = object(
            ["current": ["type": "integer", "minimum": 1], "total": ["type": "integer", "minimum": 1],
             "items": count, "perPage": ["type": "integer", "minimum": 1],
             "first": string, "last": string, "previous": string, "next": string],
            required: ["current", "total", "items", "perPage", "first", "last"])
        return object([
            "id": string, "url": string, "json": string, "permalink": string, "lang": string,
            "title": string, "summary": string, "date": ["type": "string", "format": "date-time"],
            "tags": ["type": "array", "items": string],
            "translations": ["type": "array", "items": pageLink],
            "pagination": pager,
            "toc": ["type": "array", "items": ["$ref": "#/$defs/heading"]],
            "image": ["$ref": "#/$defs/image"],
            "minClientVersion": ["type": "string", "pattern": "^[0-9]+(\\.[0-9]+){0,3}$"],
            "taxonomy": string,
            "terms": ["type": "array", "items": object(["name": string, "url": string, "json": string, "count": count], required: ["name", "url", "json", "count"])],
            "term": object(["name": string, "count": count], required: ["name", "count"]),
        ], required: ["id", "url", "json", "lang", "tags", "minClientVersion"])
    }

    private var sectionDefinition: [String: Any] {
        object([
            "id": ["type": "string"],
            "layout": ["type": "string"],
            "layoutOptions": ["type": "object", "additionalProperties": ["type": ["string", "number", "boolean"]]],
            // A grouped list (`group: year`): its items are runs of `count` under each title.
            "groups": ["type": "array", "items": object(["title": ["type": "string"], "count": ["type": "integer", "minimum": 1]], required: ["title", "count"])],
            // A published section (`publish:`): its whole list, as `sectionDocument`s.
            "more": object(["json": ["type": "string"], "total": ["type": "integer", "minimum": 0]], required: ["json", "total"]),
            "header": ["$ref": "#/$defs/component"],
            "footer": ["$ref": "#/$defs/component"],
            "items": ["type": "array", "items": ["$ref": "#/$defs/component"]],
        ], required: ["id", "layout", "items"])
    }

    private func componentDefinition(_ code: String) -> [String: Any] {
        let schema = registry[code]?.schema
        var fields: [String: Any] = [:]
        var required: [String] = []
        if code == BodyComponent.code {
            fields["content"] = ["$ref": "#/$defs/body"]
            required.append("content")
        }
        for field in schema?.fields ?? [] {
            fields[field.name] = fieldDefinition(field)
            if field.required { required.append(field.name) }
        }
        var properties: [String: Any] = [
            "id": ["type": "string"],
            "type": ["const": code],
            "version": ["const": schema?.version ?? 1],
            "action": ["$ref": "#/$defs/action"],
            "url": ["type": "string"],
            "fields": object(fields, required: required),
            "accessibility": ["$ref": "#/$defs/accessibility"],
        ]
        let computed = registry[code]?.model?.computed ?? []
        if !computed.isEmpty {
            properties["computed"] = object(Dictionary(computed.map { value -> (String, Any) in
                let type: [String: Any]
                switch value.kind {
                case .text: type = ["type": "string"]
                case .bool: type = ["type": "boolean"]
                case .enum(let values): type = ["type": "string", "enum": values]
                }
                return (value.name, type.merging(["description": value.description]) { first, _ in first })
            }, uniquingKeysWith: { first, _ in first }), required: [])
        }
        switch schema?.fallback {
        case .hide?:
            properties["fallback"] = ["const": "hide"]
        case .component(let target, _, _)?:
            properties["fallback"] = ["$ref": "#/$defs/component-\(target)"]
        case nil: break
        }
        var definition = object(properties, required: ["id", "type", "version", "fields"])
        if let description = schema?.description { definition["description"] = description }
        // For `schema diff` and codegen: what an older app shows, and which app shows this.
        switch schema?.fallback {
        case .hide?: definition["x-tessera-fallback"] = "hide"
        case .component(let target, _, _)?: definition["x-tessera-fallback"] = target
        case nil: break
        }
        if let version = schema?.minClientVersion { definition["x-tessera-minClientVersion"] = version.description }
        return definition
    }

    private func fieldDefinition(_ field: FieldSpec) -> [String: Any] {
        var definition: [String: Any]
        switch field.type {
        case .text: definition = ["type": "string"]
        case .markdown, .inlineMarkdown: definition = ["$ref": "#/$defs/markdown"]
        case .number, .percent: definition = ["$ref": "#/$defs/number"]
        case .currency: definition = ["$ref": "#/$defs/currency"]
        case .date: definition = ["$ref": "#/$defs/date"]
        case .link: definition = ["$ref": "#/$defs/link"]
        case .image: definition = ["$ref": "#/$defs/image"]
        case .enum: definition = ["type": "string", "enum": field.values]
        case .bool: definition = ["type": "boolean"]
        case .list: definition = ["type": "array", "items": ["type": "string"]]
        case .items:
            let accepted = field.accepts.isEmpty ? codes : field.accepts
            definition = ["type": "array", "items": ["anyOf": accepted.map { ["$ref": "#/$defs/component-\($0)"] }]]
        }
        if let description = field.description {
            // `$ref` with siblings is fine in 2020-12.
            definition["description"] = description
        }
        // The declared type and format, which the JSON shape does not tell apart (a percent and a
        // number are both `{ text, value }`): `schema diff` compares what a field means.
        // Unknown keywords are annotations in 2020-12; validators ignore them.
        definition["x-tessera-type"] = field.type.rawValue
        if let format = field.format { definition["x-tessera-format"] = format }
        return definition
    }
}
