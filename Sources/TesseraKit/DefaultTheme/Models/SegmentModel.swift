import Foundation

/// `segment`: whether this option of a segmented menu is the page being built, for
/// `aria-current="page"` and the selected look.
struct SegmentModel: ComponentModel {
    static let code = "segment"
    static let computed: [ComputedValue] = [
        .bool("current", "The option leads to the page that shows it (the selected segment)"),
    ]

    struct ViewData: Encodable {
        let current: Bool
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let pageURL = context.links.basePath + context.pageURL.dropFirst()
        let link = fields["link"]
        let isExternal = link?["external"] == .bool(true)
        return ViewData(current: !isExternal && isCurrent(link: link?["url"]?.text ?? "", pageURL: pageURL))
    }

    /// A link is current when it leads to the page itself; a `#fragment` is a place on the page,
    /// not the page, and a `?query` does not change a static page.
    static func isCurrent(link: String, pageURL: String) -> Bool {
        guard !link.contains("#") else { return false }
        let path = link.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? link
        return path == pageURL
    }
}
