import Foundation

/// Maps a parsed page to its view data, reporting every problem of every component.
struct PageMapper: Sendable {
    var mapper: ViewDataMapper
    var context: TransformContext

    func map(_ page: Page) throws -> PageView {
        var context = self.context
        context.pageURL = page.url
        let bodyText = page.body.trimmingCharacters(in: .whitespacesAndNewlines)
        let bodyHTML = bodyText.isEmpty ? nil : context.markdown.html(page.body)
        let errors = DiagnosticCollector()
        var placesBody = false
        let sections = page.sections.map { section -> SectionView in
            func map(_ use: ComponentUse?) -> ComponentView? {
                guard let use else { return nil }
                if use.code == BodyComponent.code { placesBody = true }
                return errors.attempt { try mapper.map(use, context: context, pageContent: bodyHTML) }
            }
            return SectionView(
                id: section.id, layout: section.layout, layoutLocation: section.layoutLocation,
                header: map(section.header), items: section.items.compactMap(map), footer: map(section.footer))
        }
        try errors.throwIfErrors()
        return PageView(page: page, data: Self.data(of: page, context: context), content: placesBody ? nil : bodyHTML, sections: sections)
    }

    /// What templates see as `page`: metadata formatted like any field, never raw front matter.
    static func data(of page: Page, context: TransformContext) -> ViewObject {
        let url = context.links.basePath + page.url.dropFirst()
        return ViewObject([
            ("title", .optional(page.title)),
            ("url", .string(url)),
            ("date", page.date.map { DateTransformer.view(of: $0, format: "medium", hasTime: true, context: context) } ?? .null),
            ("summary", .optional(page.summary)),
            ("tags", .list(page.tags.map(ViewValue.string))),
            ("lang", .optional(page.language)),
            ("layout", .string(page.layout)),
            ("draft", .bool(page.draft)),
            ("source", .string(page.relativePath)),
            ("params", .object(ViewObject(page.params.map { ($0.key, ViewValue(plain: $0.value)) }))),
        ])
    }
}

extension ViewValue {
    /// Custom front matter and site params: passed through as plain values, escaped like any text.
    init(plain node: ContentNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .number(Double(i))
        case .double(let d): self = .number(d)
        case .string(let s), .timestamp(let s): self = .string(s)
        case .list(let items): self = .list(items.map(ViewValue.init(plain:)))
        case .map(let entries): self = .object(ViewObject(entries.map { ($0.key, ViewValue(plain: $0.value)) }))
        }
    }
}
