import Foundation

/// `{ component: body }` places the page's Markdown body inside its feed.
public struct BodyComponent: ComponentModel {
    public static let code = "body"

    public struct ViewData: Encodable {
        /// The body as HTML: `{{{content}}}`.
        public let content: String
    }

    public static var defaultSchema: ComponentSchema? {
        ComponentSchema(code: code, description: "The page's Markdown body, placed in the feed", shell: "none", file: "(built in)")
    }

    public static var defaultTemplate: String? {
        "<div class=\"prose\">{{{content}}}</div>"
    }

    public static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        ViewData(content: fields.pageContent ?? "")
    }
}
