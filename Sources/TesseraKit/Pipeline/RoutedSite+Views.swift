import Foundation

extension RoutedSite {
    /// The build date, from site.yml or the options.
    public var buildDate: Date { loaded.configured.buildDate }
    public var configuration: SiteConfiguration { loaded.configured.configuration }
    public var theme: Theme { loaded.configured.theme }
    public var translations: [String: TranslationTable] { loaded.translations }
    public var data: SiteData { loaded.data }

    /// Formats, strings and plural rules of one language.
    /// The theme's render hooks write the Markdown's elements, with this language's strings.
    func transformContext(for language: String) -> TransformContext {
        let translator = Translator(table: translations[language] ?? TranslationTable(language: language))
        var context = TransformContext(
            locale: Locale(identifier: language), timeZone: configuration.timeZone, buildDate: buildDate,
            markdown: MarkdownRenderer(options: configuration.markdown, hooks: MarkdownHooks(library: loaded.templates, translator: translator), highlighter: loaded.configured.highlighter), links: links,
            defaultCurrency: configuration.currency, translator: translator)
        context.images = loaded.configured.images
        return context
    }

    /// What templates see as `site`, for pages in `language`.
    func siteData(for language: String) -> ViewObject {
        let context = transformContext(for: language)
        let languages = configuration.languages.map { other in
            let url = configuration.basePath + other.urlPrefix.dropFirst() + (other.isDefault ? "" : "/")
            return ViewValue.object([
                "code": .string(other.code), "name": .string(other.name),
                "url": .string(url), "permalink": .string(configuration.origin + url),
                "isDefault": .bool(other.isDefault), "current": .bool(other.code == language),
            ])
        }
        return ViewObject([
            ("title", .string(configuration.title(in: language))),
            ("languages", .list(languages)),
            ("baseURL", .string(configuration.baseURL)),
            ("basePath", .string(configuration.basePath)),
            ("origin", .string(configuration.origin)),
            ("language", .string(configuration.language)),
            ("buildDate", DateTransformer.view(of: buildDate, format: "iso", hasTime: true, context: context)),
            ("params", .object(ViewObject(theme.params(over: configuration.params).map { ($0.key, ViewValue(plain: $0.value)) }, isOpen: true))),
            ("generator", .string("Tessera \(Tessera.version)")),
            ("icons", icons.view(basePath: configuration.basePath)),
            ("search", searchView(for: language)),
            ("data", data.view),
        ])
    }

    /// `site.search`: null without search; else the index's folder, the search page of the
    /// language (a page whose layout is `search`; null when there is none) and the site's host
    /// (for a search engine's `site:` when there is no script).
    private func searchView(for language: String) -> ViewValue {
        guard configuration.search.enabled else { return .null }
        return .object(ViewObject([
            ("index", .string(configuration.basePath + "search/\(language)/")),
            ("url", searchPages[language].map(ViewValue.string) ?? .null),
            ("host", URL(string: configuration.origin)?.host.map(ViewValue.string) ?? .null),
        ]))
    }
}
