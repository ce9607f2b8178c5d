import Foundation

/// Everything a build knows so far; each step reads it and adds to it.
public final class BuildState: @unchecked Sendable {
    public let options: BuildOptions
    public let diagnostics = DiagnosticCollector()
    public internal(set) var configuration: SiteConfiguration
    public internal(set) var theme: Theme?
    public internal(set) var registry = ComponentRegistry()
    public internal(set) var templates: TemplateLibrary?
    public internal(set) var pages: [Page] = []
    public internal(set) var skippedDrafts = 0
    /// Files copied as they are: the theme's and site's `static/`, assets beside content.
    public internal(set) var staticFiles: [OutputFile] = []
    public internal(set) var links = LinkResolver()
    public internal(set) var pageViews: [PageView] = []
    /// Template keys each page used, by page URL.
    public internal(set) var pageTemplates: [String: Set<String>] = [:]
    public internal(set) var outputs: [OutputFile] = []

    init(options: BuildOptions) {
        self.options = options
        self.configuration = SiteConfiguration(file: options.sourceDirectory + "/site.yml")
    }

    public var siteDirectory: String { options.sourceDirectory }

    public var outputDirectory: String {
        let configured = options.outputDirectory ?? configuration.output
        return configured.hasPrefix("/") ? configured : siteDirectory + "/" + configured
    }

    public var buildDate: Date { options.buildDate ?? configuration.buildDate ?? options.fallbackBuildDate }

    public var locale: Locale { Locale(identifier: configuration.language) }

    /// The transform context of the site's language, before a page is known.
    var transformContext: TransformContext {
        TransformContext(
            locale: locale, timeZone: configuration.timeZone, buildDate: buildDate,
            markdown: MarkdownRenderer(options: configuration.markdown), links: links,
            defaultCurrency: configuration.currency)
    }

    /// What templates see as `site`.
    var siteData: ViewObject {
        ViewObject([
            ("title", .string(configuration.title)),
            ("baseURL", .string(configuration.baseURL)),
            ("basePath", .string(configuration.basePath)),
            ("language", .string(configuration.language)),
            ("buildDate", DateTransformer.view(of: buildDate, format: "iso", hasTime: true, context: transformContext)),
            ("params", .object(ViewObject(configuration.params.map { ($0.key, ViewValue(plain: $0.value)) }))),
            ("generator", .string("Tessera \(Tessera.version)")),
        ])
    }
}

/// The engine's name and version, for `site.generator` and `--version`.
public enum Tessera {
    public static let version = "0.1.0"
}
