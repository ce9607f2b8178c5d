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
        /// `PageMapper.otherPagesShown(by:)` when it was mapped.
        var others: UInt64
        var view: PageView
    }

    /// A page that lists others, with the pages each of its sections listed: its view stands
    /// while it and they are as they were (an unchanged page is the same stored page, so the
    /// comparison is a pointer's).
    struct MappedList {
        var page: Page
        var listed: [[Page]?]
        var generation: Int
        var others: UInt64
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
        /// The render hooks' sources: they write the Markdown as it is mapped.
        var hooks: [String: String] = [:]
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
        /// The version of the theme's templates these were checked against last.
        var templatesVersion: Int
        /// The result without its HTML, which is kept as the bytes written: an unchanged page
        /// hands the writer the very same bytes, which it then sees as unchanged at once.
        var result: PageRenderer.Result
        var output: Data
    }

    /// Each page's JSON bytes, with the mapping generation and the view they were encoded from.
    private var documents: [String: (generation: Int, view: PageView, json: Data)] = [:]
    /// Each page's search document (nil: not searched), with the mapping generation and the view
    /// it was made from.
    private var searchDocuments: [String: (generation: Int, view: PageView, document: SearchDocument?)] = [:]
    private var parsed: [String: ParsedPage] = [:]
    private var mapped: [String: MappedPage] = [:]
    /// By URL: the pages of a paginated list share their file.
    private var mappedLists: [String: MappedList] = [:]
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

    /// Changes the record of written files in place.
    func updateWritten(_ change: (inout [String: WrittenFile]) -> Void) {
        lock.withLock { change(&storedWritten) }
    }

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

    // MARK: Files a watcher vouches for

    /// The content files the watcher reported since the last build; nil when unknown (the first
    /// build, or a watcher that lost events), and then every file is read and compared.
    private var watchedChanges: Set<String>?
    /// Per content folder, its files as last listed, when that listing had no symbolic link (a
    /// watcher sees every change below such a folder).
    private var listings: [String: (files: [String], paths: Set<String>)] = [:]

    /// Tells the cache which files changed since the last build, as a watcher of every input
    /// folder saw them (`nil`: unknown). For the next build only, a content file the watcher did
    /// not report keeps its parsed page without being read, and a folder where no file appeared
    /// or went keeps its listing.
    public func expectChanges(_ paths: Set<String>?) {
        lock.withLock {
            guard let paths else {
                watchedChanges = nil
                listings = [:]
                return
            }
            for path in paths {
                // A reported file is read again; its entry stays, for `LocalEdits` to compare the
                // new parse with (and is dropped as soon as the file's text is found different).
                for (folder, listing) in listings where path.hasPrefix(folder + "/") || path == folder {
                    // A file edited in place keeps the listing; anything added, removed or replaced by
                    // a folder lists the folder again, and forgets what was parsed below a changed folder.
                    if listing.paths.contains(path) && FileTree.isRegularFile(path) { continue }
                    listings.removeValue(forKey: folder)
                    for key in parsed.keys where key.hasPrefix(path + "/") { parsed.removeValue(forKey: key) }
                }
            }
            watchedChanges = paths
        }
    }

    /// The files of `directory` as the last build listed them, if the watcher saw nothing appear
    /// or go below it since.
    func watchedListing(of directory: String) -> [String]? {
        lock.withLock { watchedChanges == nil ? nil : listings[directory]?.files }
    }

    /// The paths of `watchedListing(of:)`.
    func watchedListingPaths(of directory: String) -> Set<String>? {
        lock.withLock { watchedChanges == nil ? nil : listings[directory]?.paths }
    }

    func forgetParsed(_ path: String) {
        _ = lock.withLock { parsed.removeValue(forKey: path) }
    }

    /// What the last parse of `path` read and made.
    func parsedEntry(for path: String) -> ParsedPage? {
        lock.withLock { parsed[path] }
    }

    /// The basis of a rebuild of edits that reach only their own pages: the last build, when it succeeded.
    var localEditBasis: LocalEdits.Basis? {
        get { lock.withLock { storedBasis } }
        set { lock.withLock { storedBasis = newValue } }
    }
    private var storedBasis: LocalEdits.Basis?

    /// The search index of each language of the last build, from which the next one is made
    /// (`SearchIndex.update`); taken by the build that updates it, which keeps it again.
    func takeSearchIndex() -> [SearchIndex.Language]? {
        lock.withLock {
            defer { storedSearchIndex = nil }
            return storedSearchIndex
        }
    }

    func keep(searchIndex: [SearchIndex.Language]) {
        lock.withLock { storedSearchIndex = searchIndex }
    }
    private var storedSearchIndex: [SearchIndex.Language]?

    /// The changes a watcher vouched for, for this build.
    var vouchedChanges: Set<String>? { lock.withLock { watchedChanges } }

    /// Remembers a listing made with no symbolic link below `directory`, for `watchedListing`.
    func storeWatchedListing(_ files: [String], of directory: String) {
        lock.withLock { listings[directory] = (files, Set(files.map { directory + "/" + $0 })) }
    }

    /// The page parsed from `path` by a previous build, when the watcher says the file has not
    /// changed since (it is then not even read). Only below a folder listed without symbolic
    /// links: a watcher sees nothing of an edit made through a link's target.
    func unchangedPage(for path: String, parser: PageParser) -> Page? {
        lock.withLock {
            guard let changes = watchedChanges, !changes.contains(path), listings.values.contains(where: { $0.paths.contains(path) }),
                  let entry = parsed[path], entry.parser == parser else { return nil }
            statistics.parseReused += 1
            return entry.page
        }
    }

    /// Ends what `expectChanges` vouched for: the next build checks everything unless told again.
    func endWatchedBuild() {
        lock.withLock { watchedChanges = nil }
    }

    func page(for path: String, text: String, parser: PageParser) -> Page? {
        lock.withLock {
            guard let entry = parsed[path], entry.text == text, entry.parser == parser else {
                // Stale: a file that now fails to parse must not find it again next time.
                parsed.removeValue(forKey: path)
                return nil
            }
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

    func view(for page: Page, generation: Int, others: UInt64) -> PageView? {
        lock.withLock {
            guard let entry = mapped[page.sourcePath], entry.generation == generation, entry.others == others, entry.page == page else { return nil }
            statistics.mapReused += 1
            return entry.view
        }
    }

    func store(_ view: PageView, generation: Int, others: UInt64) {
        lock.withLock {
            mapped[view.page.sourcePath] = MappedPage(page: view.page, generation: generation, others: others, view: view)
            statistics.mapped += 1
        }
    }

    /// The view of a page that lists `listed` (per section), as mapped in `generation`.
    func listView(for page: Page, listed: [[Page]?], generation: Int, others: UInt64) -> PageView? {
        lock.withLock {
            guard let entry = mappedLists[page.url], entry.generation == generation, entry.others == others, entry.page == page, entry.listed == listed else { return nil }
            statistics.mapReused += 1
            return entry.view
        }
    }

    func store(_ view: PageView, listing listed: [[Page]?], generation: Int, others: UInt64) {
        lock.withLock {
            mappedLists[view.page.url] = MappedList(page: view.page, listed: listed, generation: generation, others: others, view: view)
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

    /// The previous HTML of a page, if its view data, every template and fingerprinted asset it
    /// used and the rendering environment are unchanged.
    func rendering(of view: PageView, templates current: [String: String], fingerprints: AssetFingerprints, generation: Int) -> (result: PageRenderer.Result, output: Data)? {
        lock.withLock {
            guard let entry = rendered[view.page.url], entry.generation == generation, entry.view == view,
                  entry.result.assets.allSatisfy({ fingerprints.entries[$0.key] == $0.value }) else { return nil }
            // Each template the page used is compared only when some template changed since.
            if entry.templatesVersion != templatesVersion {
                guard entry.templates.allSatisfy({ current[$0.key] == $0.value }) else { return nil }
                rendered[view.page.url]?.templatesVersion = templatesVersion
            }
            statistics.renderReused += 1
            return (entry.result, entry.output)
        }
    }

    /// Counts the changes of the theme's templates: bumped when `sources` differ from the last
    /// build's (compared once per build instead of once per page).
    func noteTemplates(_ sources: [String: String]) {
        lock.withLock {
            guard sources != templateSources else { return }
            templateSources = sources
            templatesVersion += 1
        }
    }
    private var templateSources: [String: String] = [:]
    private var templatesVersion = 0

    func store(_ result: PageRenderer.Result, output: Data, of view: PageView, templates current: [String: String], generation: Int) {
        let used = current.filter { result.templates.contains($0.key) }
        lock.withLock {
            rendered[view.page.url] = RenderedPage(view: view, generation: generation, templates: used, templatesVersion: templatesVersion, result: result, output: output)
            statistics.rendered += 1
        }
    }

    /// The page's JSON of the last build, if it was encoded from the same view (the mapping cache
    /// hands back the very view it kept, so this is usually an identity check) under the same
    /// mapping environment.
    func document(for view: PageView, generation: Int) -> Data? {
        lock.withLock {
            guard let entry = documents[view.page.url], entry.generation == generation, entry.view == view else { return nil }
            return entry.json
        }
    }

    func store(document json: Data, for view: PageView, generation: Int) {
        lock.withLock { documents[view.page.url] = (generation, view, json) }
    }

    /// The page's search document of the last build (`document(for:generation:)`); the outer
    /// nil when there is none to reuse, the inner when the page was not searched.
    func searchDocument(for view: PageView, generation: Int) -> SearchDocument?? {
        lock.withLock {
            guard let entry = searchDocuments[view.page.url], entry.generation == generation, entry.view == view else { return nil }
            return .some(entry.document)
        }
    }

    func store(searchDocument document: SearchDocument?, for view: PageView, generation: Int) {
        lock.withLock { searchDocuments[view.page.url] = (generation, view, document) }
    }

    /// A site-wide file made from a few fields of every page (the sitemap, the JSON index): the
    /// bytes of the last build when `key` (those fields, and the settings it depends on) is the
    /// same, else `make()`'s. A preview rebuild after a body edit then neither remakes nor
    /// compares the file.
    func derived<Key: Equatable & Sendable>(_ name: String, key: Key, _ make: () -> Data) -> Data {
        derived(name, key: key) { _ in make() }
    }

    /// `derived`, where `update` gets the last build's key and bytes (when there are) to make the
    /// file from: a few entries of a large index changed.
    func derived<Key: Equatable & Sendable>(_ name: String, key: Key, updating update: ((key: Key, data: Data)?) -> Data) -> Data {
        let entry = lock.withLock { derivedFiles[name] }
        let last = entry.flatMap { entry in (entry.key as? Key).map { (key: $0, data: entry.data) } }
        if let last, last.key == key { return last.data }
        let data = update(last)
        lock.withLock { derivedFiles[name] = (key, data) }
        return data
    }
    private var derivedFiles: [String: (key: any Equatable & Sendable, data: Data)] = [:]

    /// Forgets pages whose files are gone, so the cache does not grow with deleted content.
    func retain(sourcePaths: Set<String>, urls: Set<String>) {
        func prune<Value>(_ entries: inout [String: Value], keeping kept: Set<String>) {
            // In place: usually nothing is gone, and a large site's entries are not copied.
            for key in entries.keys.filter({ !kept.contains($0) }) { entries.removeValue(forKey: key) }
        }
        lock.withLock {
            prune(&parsed, keeping: sourcePaths)
            prune(&mapped, keeping: sourcePaths)
            prune(&mappedLists, keeping: urls)
            prune(&rendered, keeping: urls)
            prune(&documents, keeping: urls)
            prune(&searchDocuments, keeping: urls)
        }
    }
}
