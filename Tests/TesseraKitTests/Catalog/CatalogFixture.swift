import Foundation
import Testing
@testable import TesseraKit

/// The default theme's catalog, loaded from `themes/default` as a site would load it, with a
/// fixed clock, locale and set of pages, for mapping single components in model tests.
struct CatalogFixture {
    static let buildDate = Date(timeIntervalSince1970: 1_795_338_000) // 2026-11-22T09:00:00Z, as site.yml
    static let themeDirectory = Repository.root + "/themes/default"

    let registry: ComponentRegistry
    let mapper: ViewDataMapper
    /// The theme's strings (`themes/default/i18n/<lang>.yml`), by language code.
    let translations: [String: TranslationTable]

    init() throws {
        let theme = try Theme.load(name: "default", siteDirectory: Repository.root, location: nil)
        let diagnostics = DiagnosticCollector()
        registry = ComponentRegistry.load(theme: theme, diagnostics: diagnostics)
        try diagnostics.throwIfErrors()
        mapper = ViewDataMapper(registry: registry, defaultShell: theme.defaultShell)
        translations = TranslationTable.load(theme: theme, languages: ["en", "fr", "de", "ar"].map { SiteLanguage(code: $0, isDefault: $0 == "en") }, diagnostics: diagnostics)
        try diagnostics.throwIfErrors()
    }

    /// The codes of the theme's own components (not built-ins such as `body`).
    var themeCodes: [String] {
        registry.codes.filter { registry[$0]?.schema.file.hasPrefix(Self.themeDirectory) == true }
    }

    func context(pageURL: String = "/", basePath: String = "/", locale: String = "en_US") -> TransformContext {
        TransformContext(
            locale: Locale(identifier: locale), timeZone: TimeZone(identifier: "UTC")!, buildDate: Self.buildDate,
            markdown: MarkdownRenderer(),
            links: LinkResolver(basePath: basePath, pageURLs: ["/", "/activity/", "/billing/"], files: ["assets/samples/avatar-1.svg"]),
            defaultCurrency: "USD", pageURL: pageURL,
            translator: translations[Locale(identifier: locale).language.languageCode?.identifier ?? "en"].map { Translator(table: $0) })
    }

    /// Maps one component written as YAML, `{ component: stat, value: 3, label: Streak }`.
    func map(_ yaml: String, pageURL: String = "/", basePath: String = "/", locale: String = "en_US") throws -> ComponentView {
        let node = try #require(try YAMLParser.parse(yaml, file: "test.md"))
        let use = try ComponentUse.parse(node, what: "a test component")
        return try mapper.map(use, context: context(pageURL: pageURL, basePath: basePath, locale: locale))
    }

    /// The text of one value of a mapped component.
    func text(_ key: String, of yaml: String, pageURL: String = "/", locale: String = "en_US") throws -> String? {
        try map(yaml, pageURL: pageURL, locale: locale).data[key]?.text
    }
}

/// The example site of the repository (content/ + themes/default), built through the real pipeline.
enum ExampleSite {
    static func build(writingTo output: String? = nil, pipeline: BuildPipeline = .standard) throws -> BuiltSite {
        let options = BuildOptions(
            sourceDirectory: Repository.root, outputDirectory: output ?? temporaryDirectory("tessera-example"),
            buildDate: nil, fallbackBuildDate: Date(timeIntervalSince1970: 0), writesOutput: output != nil)
        return try SiteBuilder(options: options, pipeline: pipeline).run().site
    }

    /// The example site built once in memory for every test that only reads what it made: each
    /// such test building it again cost two seconds of CPU, twelve times a suite run.
    static func built() throws -> BuiltSite { try standard.get() }
    private static let standard = Result { try build() }

    static func html(_ path: String, in state: BuiltSite) throws -> String {
        let file = try #require(state.outputs.first { $0.path == path }, "no output \(path)")
        guard case .data(let data) = file.contents else { throw TesseraError("\(path) is not rendered text") }
        return String(decoding: data, as: UTF8.self)
    }

    static func temporaryDirectory(_ prefix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)").path
    }
}
