import Foundation

/// A component whose view data is computed in Swift: the ViewData pattern of seed 004.
///
/// The schema still validates and transforms each field; `viewData` adds what needs logic
/// ("42% complete", a sign for an amount). Its properties are merged over the schema's fields.
///
/// ```swift
/// struct CourseProgress: ComponentModel {
///     static let code = "course-progress"
///     struct ViewData: Encodable { let status: String }
///     static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
///         ViewData(status: "\(fields.text("progress") ?? "") complete")
///     }
/// }
/// ```
/// Its type is used from any thread (the registry maps pages on every core), hence `SendableMetatype`.
public protocol ComponentModel: SendableMetatype {
    associatedtype ViewData: Encodable & SendableMetatype
    static var code: String { get }
    /// The schema used when no theme declares this component (built-ins such as `body`).
    static var defaultSchema: ComponentSchema? { get }
    /// The body template used when no theme provides one.
    static var defaultTemplate: String? { get }
    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData
}

extension ComponentModel {
    public static var defaultSchema: ComponentSchema? { nil }
    public static var defaultTemplate: String? { nil }
}

/// The fields of one component after the schema's transformers, for a `ComponentModel` to read.
public struct ComponentFields: Sendable {
    public var values: ViewObject
    /// The page's Markdown body as HTML, for the `body` component.
    public var pageContent: String?

    public subscript(name: String) -> ViewValue? { values[name] }

    /// The field's rendered text (a formatted number, a date in its format, plain text).
    public func text(_ name: String) -> String? { values[name]?.text }

    /// The raw number behind a number, percent or currency field.
    public func number(_ name: String) -> Double? {
        if case .number(let n)? = values[name]?["value"] { return n }
        if case .number(let n)? = values[name] { return n }
        return nil
    }
}

/// A `ComponentModel` with its type erased, as the registry stores it.
public struct AnyComponentModel: Sendable {
    public let code: String
    public let defaultSchema: ComponentSchema?
    public let defaultTemplate: String?
    let make: @Sendable (ComponentFields, TransformContext) throws -> ViewValue

    public init<Model: ComponentModel>(_ model: Model.Type) {
        code = Model.code
        defaultSchema = Model.defaultSchema
        defaultTemplate = Model.defaultTemplate
        make = { fields, context in try ViewValueEncoder().encode(Model.viewData(from: fields, context: context)) }
    }
}
