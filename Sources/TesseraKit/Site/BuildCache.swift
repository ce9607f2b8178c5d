import Foundation

/// What one build keeps for the next, so a rebuild redoes only what its inputs changed.
///
/// Every stage still runs the same code as a full build; the cache only lets a stage reuse its
/// previous result when that result's inputs are equal to last time's. Equality is checked on the
/// inputs themselves (file text, view data, template text), not on timestamps, so an incremental
/// rebuild always gives the same bytes as a full one.
public final class BuildCache: @unchecked Sendable {
    private let lock = NSLock()

    struct ParsedPage {
        var text: String
        /// The parser's settings (languages, time zone): the same text parses differently under others.
        var parser: PageParser
        var page: Page
    }

    struct MappedPage {
        var page: Page
        var generation: Int
        var view: PageView
    }

    /// Everything page mapping depends on besides the page itself.
    struct MappingEnvironment: Equatable {
        var configuration: SiteConfiguration
        var theme: Theme
        var schemas: [ComponentSchema]
        var links: LinkResolver
        var buildDate: Date
        var translations: [String: TranslationTable]
        /// Menus come from every page's `menu:`, and every page shows them.
        var menus: SiteMenus
        /// Query sections may list data records.
        var data: SiteData
    }

    /// Everything rendering depends on besides the view data and the templates: what templates
    /// see as `site`, the translations `{{#t}}` reads, the schemas' descriptions and field names.
    struct RenderingEnvironment: Equatable {
        var configuration: SiteConfiguration
        var theme: Theme
        var schemas: [ComponentSchema]
        var buildDate: Date
        var translations: [String: TranslationTable]
        /// `site.data` in templates.
        var data: SiteData
    }

    struct RenderedPage {
        var view: PageView
        var generation: Int
        var templates: [String: String]
        var result: PageRenderer.Result
    }

    /// Each page's JSON, with the mapping generation and the view it was encoded from.
    private var documents: [String: (generation: Int, view: PageView, json: String)] = [:]
    private var parsed: [String: ParsedPage] = [:]
    private var mapped: [String: MappedPage] = [:]
    private var rendered: [String: RenderedPage] = [:]
    private var environment: MappingEnvironment?
    private var generation = 0
    private var renderingEnvironment: RenderingEnvironment?
    private var renderingGeneration = 0
    /// The files of the last successful write: path → what was written.
    var written: [String: WrittenFile] {
        get { lock.withLock { storedWritten } }
        set { lock.withLock { storedWritten = newValue } }
    }
    private var storedWritten: [String: WrittenFile] = [:]

    enum WrittenFile: Equatable {
        case data(Data)
        case copy(source: String, size: Int, modified: Date)
    }
    /// Counters of the last build, for tests and the serve log.
    public private(set) var statistics = Statistics()

    public struct Statistics: Sendable, Equatable {
        public var parsed = 0, parseReused = 0, mapped = 0, mapReused = 0, rendered = 0, renderReused = 0
    }

    public init() {}

    func resetStatistics() {
        lock.withLock { statistics = Statistics() }
    }

    func page(for path: String, text: String, parser: PageParser) -> Page? {
        lock.withLock {
            guard let entry = parsed[path], entry.text == text, entry.parser == parser else { return nil }
            statistics.parseReused += 1
            return entry.page
        }
    }

    func store(_ page: Page, for path: String, text: String, parser: PageParser) {
        lock.withLock {
            parsed[path] = ParsedPage(text: text, parser: parser, page: page)
            statistics.parsed += 1
        }
    }

    /// The generation of the mapping environment: unchanged while everything mapping depends on
    /// (configuration, schemas, the site's URLs, the build date) stays the same.
    /// The mapping generation of the last build (for stages after mapping).
    var currentGeneration: Int { lock.withLock { generation } }

    func generation(for environment: MappingEnvironment) -> Int {
        lock.withLock {
            if self.environment != environment {
                self.environment = environment
                generation += 1
            }
            return generation
        }
    }

    func view(for page: Page, generation: Int) -> PageView? {
        lock.withLock {
            guard let entry = mapped[page.sourcePath], entry.generation == generation, entry.page == page else { return nil }
            statistics.mapReused += 1
            return entry.view
        }
    }

    func store(_ view: PageView, generation: Int) {
        lock.withLock {
            mapped[view.page.sourcePath] = MappedPage(page: view.page, generation: generation, view: view)
            statistics.mapped += 1
        }
    }

    /// The generation of the rendering environment, as `generation(for:)` is for mapping.
    func generation(for environment: RenderingEnvironment) -> Int {
        lock.withLock {
            if renderingEnvironment != environment {
                renderingEnvironment = environment
                renderingGeneration += 1
            }
            return renderingGeneration
        }
    }

    /// The previous HTML of a page, if its view data, every template it used and the rendering
    /// environment are unchanged.
    /// The previous HTML of a page, if its view data, every template and fingerprinted asset it
    /// used and the rendering environment are unchanged.
    func rendering(of view: PageView, templates current: [String: String], fingerprints: AssetFingerprints, generation: Int) -> PageRenderer.Result? {
        lock.withLock {
            guard let entry = rendered[view.page.url], entry.generation == generation, entry.view == view,
                  entry.templates.allSatisfy({ current[$0.key] == $0.value }),
                  entry.result.assets.allSatisfy({ fingerprints.entries[$0.key] == $0.value }) else { return nil }
            statistics.renderReused += 1
            return entry.result
        }
    }

    func store(_ result: PageRenderer.Result, of view: PageView, templates current: [String: String], generation: Int) {
        let used = current.filter { result.templates.contains($0.key) }
        lock.withLock {
            rendered[view.page.url] = RenderedPage(view: view, generation: generation, templates: used, result: result)
            statistics.rendered += 1
        }
    }

    /// The page's JSON of the last build, if it was encoded from the same view (the mapping cache
    /// hands back the very view it kept, so this is usually an identity check) under the same
    /// mapping environment.
    func document(for view: PageView, generation: Int) -> String? {
        lock.withLock {
            guard let entry = documents[view.page.url], entry.generation == generation, entry.view == view else { return nil }
            return entry.json
        }
    }

    func store(document json: String, for view: PageView, generation: Int) {
        lock.withLock { documents[view.page.url] = (generation, view, json) }
    }

    /// Forgets pages whose files are gone, so the cache does not grow with deleted content.
    func retain(sourcePaths: Set<String>, urls: Set<String>) {
        lock.withLock {
            parsed = parsed.filter { sourcePaths.contains($0.key) }
            mapped = mapped.filter { sourcePaths.contains($0.key) }
            rendered = rendered.filter { urls.contains($0.key) }
            documents = documents.filter { urls.contains($0.key) }
        }
    }
}
