import Foundation

/// Everything a build knows so far; each step reads it and adds to it.
public final class BuildState: @unchecked Sendable {
    public let options: BuildOptions
    /// Results of the previous build, reused where their inputs are unchanged; nil for one-off builds.
    public let cache: BuildCache?
    public let diagnostics = DiagnosticCollector()
    public internal(set) var configuration: SiteConfiguration
    public internal(set) var theme: Theme?
    public internal(set) var registry = ComponentRegistry()
    public internal(set) var templates: TemplateLibrary?
    /// Language code → its strings, theme's and site's merged.
    public internal(set) var translations: [String: TranslationTable] = [:]
    /// The three above while they load on another core (`BuildStep.loadTemplates`).
    var templatesLoading: SideTask?
    public internal(set) var pages: [Page] = []
    /// The `data/` folder's files.
    public internal(set) var data = SiteData()
    /// What each query section lists, run once by the `paginate` step.
    public internal(set) var querySelections = QuerySelections()
    /// Every menu, per language.
    public internal(set) var menus = SiteMenus()
    /// Fingerprinted copies of stylesheets and scripts, for `{{#asset}}…{{/asset}}`.
    public internal(set) var fingerprints = AssetFingerprints()
    public internal(set) var skippedDrafts = 0
    public internal(set) var skippedFuture = 0
    public internal(set) var skippedExpired = 0
    /// Page files that failed to parse, by content reference, with the URL they would have.
    var failedPageURLs: [(reference: String, url: String)] = []
    /// Files copied as they are: the theme's and site's `static/`, assets beside content.
    public internal(set) var staticFiles: [OutputFile] = []
    public internal(set) var links = LinkResolver()
    public internal(set) var pageViews: [PageView] = []
    /// Template keys each page used, by page URL.
    public internal(set) var pageTemplates: [String: Set<String>] = [:]
    public internal(set) var outputs: [OutputFile] = []
    /// What `tessera build` reuses of the previous build; nil without a build cache.
    var incremental: IncrementalBuild?
    /// The previous build being read, until the inputs are compared with it.
    var lastBuild: IncrementalBuild?
    /// Fingerprinted assets each page's HTML linked, by page URL.
    var pageAssets: [String: [String]] = [:]
    /// Pages whose rendering gave warnings, by URL: never kept, so the warnings come again.
    var warnedPages: Set<String> = []
    /// The dates and expiry dates of every page read, drafts aside: where the set of published
    /// pages changes.
    var publishingDates: [Date] = []
    /// With a build cache: how this build mapped, rendered and encoded pages, for a preview's next
    /// rebuild of edits that reach only their own pages.
    var pageMapper: PageMapper?
    var pageRendering: (renderer: PageRenderer, templates: [String: String], generation: Int)?
    var documentWriter: PageDocument?
    /// Output paths written, changed or removed by this build (all of them for a fresh folder).
    public internal(set) var changedOutputs: [String] = []

    /// Waits until the theme's components, templates and translations are loaded.
    func awaitTemplates() {
        templatesLoading?.wait()
        templatesLoading = nil
    }

    init(options: BuildOptions, cache: BuildCache? = nil) {
        self.options = options
        self.cache = cache
        self.configuration = SiteConfiguration(file: options.sourceDirectory + "/site.yml")
    }

    public var siteDirectory: String { options.sourceDirectory }

    /// HTML pages written or kept, per language code.
    var languagePageCounts: [String: Int] {
        renderedPages.merging(incremental?.reusedHTMLPages ?? [:], uniquingKeysWith: +)
    }
    /// HTML pages rendered by this build, per language code.
    var renderedPages: [String: Int] = [:]

    public var outputDirectory: String {
        let configured = options.outputDirectory ?? configuration.output
        return configured.hasPrefix("/") ? configured : siteDirectory + "/" + configured
    }

    /// Writes this build's output, checked against the site's own folders.
    var outputWriter: OutputWriter {
        var folders = ["content", "themes", "data", "archetypes"] + Theme.Folder.allCases.map(\.rawValue)
        folders = folders.map { siteDirectory + "/" + $0 }
        if let theme { folders.append(theme.directory) }
        if let cache = options.cacheDirectory { folders.append(cache) }
        return OutputWriter(
            outputDirectory: outputDirectory, siteDirectory: siteDirectory, sourceFolders: folders,
            force: options.force, configuredAt: options.outputDirectory == nil ? configuration.outputLocation : nil)
    }

    public var buildDate: Date { options.buildDate ?? configuration.buildDate ?? options.fallbackBuildDate }

    /// Formats, strings and plural rules of one language.
    func transformContext(for language: String) -> TransformContext {
        TransformContext(
            locale: Locale(identifier: language), timeZone: configuration.timeZone, buildDate: buildDate,
            markdown: MarkdownRenderer(options: configuration.markdown), links: links,
            defaultCurrency: configuration.currency,
            translator: Translator(table: translations[language] ?? TranslationTable(language: language)))
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
            ("title", .string(configuration.language(language)?.title ?? configuration.defaultLanguage.title ?? configuration.title)),
            ("languages", .list(languages)),
            ("baseURL", .string(configuration.baseURL)),
            ("basePath", .string(configuration.basePath)),
            ("origin", .string(configuration.origin)),
            ("language", .string(configuration.language)),
            ("buildDate", DateTransformer.view(of: buildDate, format: "iso", hasTime: true, context: context)),
            ("params", .object(ViewObject(configuration.params.map { ($0.key, ViewValue(plain: $0.value)) }, isOpen: true))),
            ("generator", .string("Tessera \(Tessera.version)")),
            ("data", data.view),
        ])
    }
}

/// The engine's name and version, for `site.generator` and `--version`.
public enum Tessera {
    public static let version = "0.1.0"
}
