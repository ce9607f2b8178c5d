import Foundation
import Synchronization

/// The loading stage: the theme's components, templates and translations load on another core
/// while the `data/` folder and `content/` load on this one.
enum LoadStage {
    /// The parts `--timings` shows before the stage's own line ("load content").
    static let partNames = ["load templates", "load data"]

    static func load(_ configured: consuming ConfiguredSite, context: BuildContext) -> LoadedSite {
        let configured = copy configured
        let configuration = configured.configuration, diagnostics = context.diagnostics
        // After the build cache's check, which needs only the theme's folder: a build with
        // nothing changed reads none of them.
        let theme = Mutex<ThemeFiles?>(nil)
        let themeLoading = context.timed(partNames[0]) {
            SideTask { [configured] in
                let files = ThemeFiles.load(configured.theme, languages: configuration.languages, diagnostics: diagnostics)
                theme.withLock { $0 = files }
            }
        }
        let site = context.siteDirectory
        let boundary = configuration.allowExternalSymlinks ? nil : site
        let data = context.timed(partNames[1]) {
            SiteData.load(directory: site + "/data", boundary: boundary, problems: diagnostics)
        }
        var loader = ContentLoader(
            directory: site + "/content", boundary: boundary, timeZone: configuration.timeZone, includeDrafts: context.options.includeDrafts,
            now: configured.buildDate, includeFuture: context.options.includeFuture, permalinks: configuration.permalinks,
            languages: configuration.languages)
        loader.data = data
        loader.summaryLength = configuration.summaryLength
        loader.markdown = configuration.markdown
        context.reuse.lend(to: &loader)
        let result = loader.load(into: diagnostics)
        // A build that makes every page has their code blocks lexed on the workers from now on
        // (one from the last build lexes those its edits wrote, `IncrementalBuild`; the
        // preview's, those of the pages it renders, as it renders them).
        if let highlighter = configured.highlighter, context.reuse.makesEveryPage {
            highlighter.lexAhead(result.pages.map(\.body))
        }
        context.reuse.contentLoaded(site: site)
        themeLoading.wait()
        let files = theme.withLock { $0 }!
        let tally = ContentTally(
            skippedDrafts: result.skippedDrafts, skippedFuture: result.skippedFuture, skippedExpired: result.skippedExpired,
            assets: result.assets, failedPageURLs: result.failedPageURLs, publishingDates: result.publishingDates)
        return LoadedSite(
            configured: configured, components: files.components, templates: files.templates, translations: files.translations,
            data: data, pages: result.pages, content: tally)
    }
}

/// What the theme brings besides its files: components, compiled templates, translations.
struct ThemeFiles: Sendable {
    var components: ComponentRegistry
    var templates: TemplateLibrary
    var translations: [String: TranslationTable]

    static func load(_ theme: Theme, languages: [SiteLanguage], diagnostics: DiagnosticCollector) -> ThemeFiles {
        let components = ComponentRegistry.load(theme: theme, diagnostics: diagnostics)
        let templates = TemplateLibrary.load(theme: theme, registry: components, diagnostics: diagnostics)
        let translations = TranslationTable.load(theme: theme, languages: languages, diagnostics: diagnostics)
        // A shell named by a schema or the theme must exist, whether or not a page uses it yet.
        for definition in components.definitions.values.sorted(by: { $0.code < $1.code }) {
            let shell = definition.schema.shell ?? theme.defaultShell
            guard shell != "none", templates.shells[shell] == nil, !templates.broken.contains("shells/" + shell) else { continue }
            let location = definition.schema.shell != nil ? definition.schema.shellLocation : (theme.defaultShellLocation ?? SourceLocation(file: theme.directory + "/theme.yml"))
            // The theme's default shell is one mistake however many components use it.
            let message = definition.schema.shell != nil ? "unknown shell '\(shell)' for component '\(definition.code)'" : "unknown default shell '\(shell)'"
            diagnostics.report(Diagnostic(
                .error, message, at: location,
                hint: Suggestions.didYouMean(shell, in: templates.shells.keys) ?? "add shells/\(shell).mustache, or use `shell: none` for a bare body"))
        }
        return ThemeFiles(components: components, templates: templates, translations: translations)
    }
}
