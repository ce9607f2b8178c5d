import Foundation

/// Everything Tessera knows about one component code.
public struct ComponentDefinition: Sendable {
    /// Shared by the definition's copies (`CopyOnWrite`): every component mapped, rendered,
    /// written as JSON or indexed looks its definition up, and a lookup is a copy.
    private struct Stored: Sendable {
        var schema: ComponentSchema
        var templatePath: String?
        var model: AnyComponentModel?
    }

    private var stored: CopyOnWrite<Stored>

    public var schema: ComponentSchema {
        get { stored.read.schema }
        _modify { yield &stored.write.schema }
    }
    /// `components/<code>.mustache`; nil when a Swift model supplies the template.
    public var templatePath: String? {
        get { stored.read.templatePath }
        _modify { yield &stored.write.templatePath }
    }
    public var model: AnyComponentModel? {
        get { stored.read.model }
        _modify { yield &stored.write.model }
    }

    public init(schema: ComponentSchema, templatePath: String?, model: AnyComponentModel?) {
        stored = CopyOnWrite(Stored(schema: schema, templatePath: templatePath, model: model))
    }

    public var code: String { stored.read.schema.code }
}
