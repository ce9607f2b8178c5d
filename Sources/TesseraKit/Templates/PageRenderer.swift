import Foundation

/// Renders a mapped page: each component's body inside its shell, each section in its section
/// layout, the sections inside the page's layout.
struct PageRenderer: Sendable {
    var library: TemplateLibrary
    /// Language code → the `site` value templates of pages in that language receive.
    var sites: [String: ViewObject]
    /// Language code → its strings, for `{{#t}}…{{/t}}`.
    var translators: [String: Translator] = [:]
    /// Whose strings stand in, with a warning, for missing ones when they are warnings.
    var defaultLanguage: String = "en"
    var missingTranslations: Diagnostic.Severity = .error
    /// Every field name any schema declares: a shell may test them all, absent ones are null.
    var shellFieldNames: Set<String> = []
    /// Component code → schema description, offered to section templates per item.
    var descriptions: [String: String] = [:]
    /// For `{{#asset}}…{{/asset}}` and `{{#integrity}}…{{/integrity}}`.
    var fingerprints = AssetFingerprints()
    var basePath = "/"
    /// For `{{#picture}}…{{/picture}}`.
    var pictures: PictureHelper?
    /// List items rendered once and shared by every page that lists the same page the same way
    /// (a post on each of its tags' pages), for one build; nil renders each item every time.
    var sharedItems: SharedItems?

    /// Rendered list items by their view's `sharedKey`, and which components may share theirs.
    final class SharedItems: @unchecked Sendable {
        fileprivate let html = Memo<String, String>(limit: 1_000_000)
        private let shareable = Memo<Templates, Bool>()

        /// A component's template and its shell's, by their keys.
        fileprivate struct Templates: Hashable {
            var body: String
            var shell: String?
        }

        /// An item renders the same on every page when nothing its templates print depends on
        /// the page: no `page`, no helpers (translations may print page values and report
        /// warnings per page; assets are recorded per page), no dynamic partial or changed
        /// delimiters (whose names a scan of the tags cannot see).
        fileprivate func canShare(_ body: CompiledTemplate, shell: CompiledTemplate?, library: TemplateLibrary) -> Bool {
            shareable.value(Templates(body: body.key, shell: shell?.key)) {
                let templates = [body] + (shell.map { [$0] } ?? [])
                let closure = templates + templates.flatMap(library.partialClosure)
                return !closure.contains { template in
                    template.text.contains("{{=") || template.tags.contains { tag in
                        ["page", "t", "asset", "integrity", "picture"].contains(tag.rootName)
                            || ((tag.kind == .partial || tag.kind == .parent) && tag.name.hasPrefix("*"))
                    }
                }
            }
        }
    }

    /// This renderer without items shared by this build, for pages of later builds.
    func forgettingSharedItems() -> PageRenderer {
        var copy = self
        copy.sharedItems = nil
        return copy
    }

    struct Result: Sendable {
        var html: String
        /// Missing translations reported as warnings.
        var warnings: [Diagnostic] = []
        /// Keys of the templates used (`layouts/page`, `components/notice`, `partials/head`), for
        /// rebuilding only the pages a changed template affects.
        var templates: Set<String>
        /// Fingerprinted assets the page links, with the fingerprints it linked.
        var assets: [String: AssetFingerprints.Entry] = [:]
        /// The ids of the page's elements, for the fragments of links to it.
        var ids: [String] = []
        /// What its `{{#picture}}` calls printed, and the image files each needs.
        var pictures: [PictureHelper.Use] = []
    }

    /// Whether each picture of an earlier render would print the same now (its image unchanged),
    /// asking for its files again as it checks.
    func picturesAreCurrent(_ result: Result, of view: PageView) -> Bool {
        guard !result.pictures.isEmpty else { return true }
        guard let pictures else { return false }
        return result.pictures.allSatisfy { use in (try? pictures.picture(use.argument, pageURL: view.page.url).get()) == use }
    }

    /// The page's HTML as the bytes written, and the result without its text (kept by the
    /// preview's cache beside the bytes, which are not held twice).
    func renderBytes(_ view: PageView) throws -> (result: Result, bytes: Data) {
        var result = try render(view)
        let bytes = Data(result.html.utf8)
        result.html = ""
        result.ids = FragmentCheck.ids(in: bytes)
        let repeated = FragmentCheck.repeated(result.ids)
        if !repeated.isEmpty { throw Self.repeatedIDs(repeated, of: view) }
        return (result, bytes)
    }

    /// Ids that a page's HTML holds twice: a link to one could not tell which element it means.
    /// Placed at the body's heading when one of them is its id.
    static func repeatedIDs(_ repeated: [String], of view: PageView) -> TesseraError {
        TesseraError(diagnostics: repeated.map { id in
            let heading = view.headings.first { $0.id == id && $0.line > 0 }
            let location = heading.map { view.page.location(ofBodyLine: $0.line) } ?? view.page.location
            return Diagnostic(
                .error, "the id '\(id)' is on the page \(view.page.url) more than once", at: location,
                hint: heading != nil
                    ? "give the heading another id with {#another-id}; the page's components or templates use this one"
                    : "ids of the page's Markdown, components and templates must differ: rename one of them")
        })
    }

    /// How many items of a page, from its first section on, are `component.early`: about what
    /// a phone shows before the reader scrolls.
    static let earlyItems = 3

    func render(_ view: PageView) throws -> Result {
        let language = view.page.language
        let assetUse = AssetUse(), partialUse = DynamicPartialUse(), pictureUse = PictureUse()
        let renderer = TemplateRenderer(
            library: library, translator: translators[language],
            fallback: language == defaultLanguage ? nil : translators[defaultLanguage],
            missingTranslations: missingTranslations, fingerprints: fingerprints, basePath: basePath, assetUse: assetUse, partialUse: partialUse,
            pictures: pictures.map { ($0, view.page.url, pictureUse) })
        let warnings = DiagnosticCollector()
        var used = Set<String>()
        let errors = DiagnosticCollector()
        let common: [(String, TemplateValue)] = [
            ("site", .view(.object(sites[language] ?? sites.values.first ?? ViewObject([])))), ("page", .view(.object(view.data))),
        ]
        let componentCommon = TemplateScope.Values(common)

        // `{{component.code}}`, and `{{component.early}}`: true for the page's first items,
        // near the top of the screen, whose pictures load at once. One value per both.
        var componentValues: [String: TemplateValue] = [:]
        func componentValue(_ code: String, early: Bool) -> TemplateValue {
            let name = early ? code + "\u{0}" : code
            if let known = componentValues[name] { return known }
            let value = TemplateValue.view(.object(["code": .string(code), "early": .bool(early)]))
            componentValues[name] = value
            return value
        }

        var usedKeys = Set<String>()
        func use(_ template: CompiledTemplate) {
            guard usedKeys.insert(template.key).inserted else { return }
            used.formUnion(library.dependencies[template.key] ?? [template.key])
        }

        func renderComponent(_ component: ComponentView, early: Bool = false) throws -> String {
            guard let body = library.components[component.code] else {
                throw TesseraError("component '\(component.code)' has no template", at: component.location, hint: "add components/\(component.code).mustache")
            }
            // A listed page's item, rendered already for another list: the same templates are used.
            if let key = component.sharedKey, let sharedItems, !component.data.hasComponentLists {
                let shell = component.shell.flatMap { library.shells[$0] }
                if component.shell == nil || shell != nil, sharedItems.canShare(body, shell: shell, library: library) {
                    use(body)
                    if let shell { use(shell) }
                    return try sharedItems.html.value(early ? key + "\u{1}early" : key) { try renderUnshared(component, body: body, early: early) }
                }
            }
            return try renderUnshared(component, body: body, early: early)
        }

        func renderUnshared(_ component: ComponentView, body: CompiledTemplate, early: Bool) throws -> String {
            use(body)
            var values: [(String, TemplateValue)] = [("component", componentValue(component.code, early: early))]
            for (key, children) in component.data.componentLists {
                // The first children of an early container (a carousel at the top) are early too.
                values.append((key, .rendered(RenderedList(try children.enumerated().map { (try renderComponent($1, early: early && $0 < Self.earlyItems), $1.code) }))))
            }
            let html = try renderer.render(body, values, fields: component.data, common: componentCommon, context: "component '\(component.code)'", warnings: warnings)
            guard let shellName = component.shell else { return html }
            guard let shell = library.shells[shellName] else {
                throw TesseraError("unknown shell '\(shellName)' for component '\(component.code)'", at: component.location,
                                   hint: Suggestions.didYouMean(shellName, in: library.shells.keys) ?? "add shells/\(shellName).mustache or set `shell: none`")
            }
            use(shell)
            values.append(("body", .text(html)))
            return try renderer.render(
                shell, values, fields: component.data, common: componentCommon, context: "shell '\(shellName)' (around '\(component.code)')",
                optionalNames: shellFieldNames, warnings: warnings)
        }

        func renderOptional(_ component: ComponentView?) -> TemplateValue {
            guard let component else { return .null }
            return .text(errors.attempt { try renderComponent(component) } ?? "")
        }

        var sectionsHTML: [(html: String, code: String?)] = []
        var itemsBefore = 0
        for (index, section) in view.sections.enumerated() {
            guard let template = library.sections[section.layout] else {
                errors.report(Diagnostic(
                    .error, "unknown section layout '\(section.layout)'", at: section.layoutLocation,
                    hint: Suggestions.didYouMean(section.layout, in: library.sections.keys) ?? "the section layouts are \(library.sections.keys.sorted().joined(separator: ", "))"))
                continue
            }
            use(template)
            var values = common
            values.append(("header", renderOptional(section.header)))
            values.append(("footer", renderOptional(section.footer)))
            values.append(("items", .rendered(RenderedList(
                section.items.map { item in
                    defer { itemsBefore += 1 }
                    return (errors.attempt { try renderComponent(item, early: itemsBefore < Self.earlyItems) } ?? "", item.code)
                }, descriptions: descriptions,
                sources: section.items.map(\.source)).grouped(section.groups))))
            values.append(("section", .view(.object([
                "id": .optional(section.id), "layout": .string(section.layout), "index": .number(Double(index)),
                "layoutOptions": .object(ViewObject(section.layoutOptions.map { ($0.key, ViewValue.scalar($0.value)) })),
                "groups": .list(section.groups.map { .object(["title": .string($0.title), "count": .number(Double($0.count))]) }),
            ]))))
            if let html = errors.attempt(at: section.layoutLocation, { try renderer.render(template, values, context: "section layout '\(section.layout)'", warnings: warnings) }) {
                sectionsHTML.append((html, nil))
            }
        }

        // Components placed in the body, each in its shell, for the markers the body's HTML holds.
        let embedded = view.embedded.map { component in errors.attempt { try renderComponent(component) } ?? "" }

        guard let layout = library.layouts[view.page.layout] else {
            errors.report(Diagnostic(
                .error, "unknown layout '\(view.page.layout)'", at: view.page.layoutLocation,
                hint: Suggestions.didYouMean(view.page.layout, in: library.layouts.keys) ?? "the layouts are \(library.layouts.keys.sorted().joined(separator: ", "))"))
            throw TesseraError(diagnostics: errors.diagnostics)
        }
        try errors.throwIfErrors()
        use(layout)
        var values = common
        values.append(("content", .view(.optional(view.content))))
        values.append(("sections", .rendered(RenderedList(sectionsHTML))))
        var html = try renderer.render(layout, values, context: "layout '\(view.page.layout)'", warnings: warnings)
        if !embedded.isEmpty || !view.code.isEmpty {
            html = MarkdownComponents.replacingMarkers(in: html) { placement in
                switch placement {
                case .component(let index): return embedded.indices.contains(index) ? embedded[index] : ""
                case .code(let index): return view.code.indices.contains(index) ? view.code[index].html : ""
                }
            }
        }
        return Result(html: html, warnings: warnings.diagnostics, templates: used.union(partialUse.keys), assets: assetUse.used, pictures: pictureUse.uses)
    }
}
