import Foundation

/// `comment`: the commenter's initials, shown in place of a missing avatar.
struct CommentModel: ComponentModel {
    static let code = "comment"
    static let computed: [ComputedValue] = [
        .text("initials", "The commenter's initials, shown where there is no avatar"),
    ]

    struct ViewData: Encodable {
        /// "GH" for Grace Hopper, "A" for Ada.
        let initials: String
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        ViewData(initials: initials(of: fields.text("commenter") ?? "", locale: context.locale))
    }

    /// The first letters of the first and last words.
    static func initials(of name: String, locale: Locale) -> String {
        let words = name.split(whereSeparator: { $0.isWhitespace || $0 == "-" })
        let picked = words.count > 1 ? [words.first!, words.last!] : words
        return picked.compactMap { $0.first.map(String.init) }.joined().uppercased(with: locale)
    }
}
