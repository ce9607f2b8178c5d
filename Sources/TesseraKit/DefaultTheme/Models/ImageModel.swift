import Foundation

/// `image`: the aspect ratio as a class-name part: "16:9" becomes `ratio--16x9`.
struct ImageModel: ComponentModel {
    static let code = "image"

    struct ViewData: Encodable {
        let ratioName: String
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        ViewData(ratioName: (fields.text("ratio") ?? "auto").replacingOccurrences(of: ":", with: "x"))
    }
}
