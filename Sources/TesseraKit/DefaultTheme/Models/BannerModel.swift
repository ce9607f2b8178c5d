import Foundation

/// `banner`: the key under which the browser remembers that the reader dismissed this banner.
/// It comes from the title, so a banner with a new title shows again.
struct BannerModel: ComponentModel {
    static let code = "banner"
    static let computed: [ComputedValue] = [
        .text("dismissKey", "The key under which a dismissal is remembered; a new title shows the banner again"),
    ]

    struct ViewData: Encodable {
        /// "new-course-concurrency-in-practice".
        let dismissKey: String
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        ViewData(dismissKey: slug(fields.text("title") ?? ""))
    }

    /// Lowercase ASCII letters and digits joined by single hyphens.
    static func slug(_ text: String) -> String {
        let folded = text.folding(options: [.diacriticInsensitive, .caseInsensitive], locale: Locale(identifier: "en_US_POSIX")).lowercased()
        let words = folded.split(whereSeparator: { !($0.isASCII && ($0.isLetter || $0.isNumber)) })
        return words.isEmpty ? "banner" : words.joined(separator: "-")
    }
}
