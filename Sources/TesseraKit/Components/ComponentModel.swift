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
    /// The values of `ViewData` an app needs to show what the web shows ("+12%", "42% complete"),
    /// published in the page JSON as the component's `computed` object, in the schema and in the
    /// generated types. Values only templates need (a class name) are left out.
    static var computed: [ComputedValue] { get }
}

/// A value a `ComponentModel` computes that apps get beside the fields.
public struct ComputedValue: Sendable, Equatable {
    public enum Kind: Sendable, Equatable {
        case text, bool
        case `enum`([String])
    }
    public var name: String
    public var kind: Kind
    public var description: String

    public static func text(_ name: String, _ description: String) -> ComputedValue { ComputedValue(name: name, kind: .text, description: description) }
    public static func bool(_ name: String, _ description: String) -> ComputedValue { ComputedValue(name: name, kind: .bool, description: description) }
    public static func oneOf(_ name: String, _ values: [String], _ description: String) -> ComputedValue { ComputedValue(name: name, kind: .enum(values), description: description) }
}

extension ComponentModel {
    public static var computed: [ComputedValue] { [] }
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
    public let computed: [ComputedValue]
    /// The members of the model's view data, merged into its component's; nil when the view
    /// data is not an object (nothing is merged).
    let members: @Sendable (ComponentFields, TransformContext) throws -> [(String, ViewValue)]?

    public init<Model: ComponentModel>(_ model: Model.Type) {
        code = Model.code
        defaultSchema = Model.defaultSchema
        defaultTemplate = Model.defaultTemplate
        computed = Model.computed
        members = { fields, context in try ViewValueEncoder().encodeMembers(Model.viewData(from: fields, context: context)) }
    }
}
