import Foundation

/// Everything Tessera knows about one component code.
public struct ComponentDefinition: Sendable {
    public var schema: ComponentSchema
    /// `components/<code>.mustache`; nil when a Swift model supplies the template.
    public var templatePath: String?
    public var model: AnyComponentModel?

    public var code: String { schema.code }
}
