import Foundation

/// What the stages ask the cache layer. Each answer without a cache is "nothing is reused": the
/// stage then makes everything, with the same code.
extension CacheLayer {
    // MARK: Loading

    /// Lets loading content take pages parsed before: the preview's, unchanged files' stored
    /// pages, and the listing the cache's check made.
    func lend(to loader: inout ContentLoader) {
        loader.cache = memory
        guard let incremental else { return }
        loader.listing = incremental.contentListing
        loader.stored = incremental.useStoredPages(parser: loader.parser, directory: loader.directory)
        loader.digests = incremental.loadedDigests
    }

    /// The build makes every page anew: it neither starts from the last build of its output
    /// folder (there is none, or it cannot be kept) nor from the preview's memory, which keep
    /// the pages an edit did not change.
    var makesEveryPage: Bool { memory == nil && incremental?.reusesNothing != false }

    /// Content is loaded: the pages parsed are stored for the next build, on another core.
    func contentLoaded(site: String) {
        incremental?.takeLoadedDigests(site: site)
        incremental?.storePages()
    }

    /// Whether every page, URL, list, feed, alias and index stays the last build's (only bodies
    /// of pages that list none changed): the steps that make them are then skipped.
    ///
    /// Not when the last build's search documents lack a list it would keep (the store lost, cut
    /// short or written without it): that page is made again (`planSearch`), and a list made
    /// again in a build that skips the lists showed nothing it lists.
    func keepsLists(of site: LoadedSite, context: BuildContext) -> Bool {
        guard let incremental else { return false }
        let configuration = site.configuration
        // Read (waited for) only when a list is asked about.
        var stored: [String: SearchDocument]?
        return incremental.keepsStructure(site: site, context: context) { page in
            let documents = stored ?? (configuration.search.enabled ? searchStore?.documents ?? [:] : [:])
            stored = documents
            return !Self.lacksSearchDocument(page, in: documents, configuration: configuration)
        }
    }

    /// Whether `page` is searched and the last build's documents (`stored`) have none of it.
    static func lacksSearchDocument(_ page: Page, in stored: [String: SearchDocument], configuration: SiteConfiguration) -> Bool {
        SearchDocument.isSearched(page, options: configuration.search, outputs: configuration.outputs)
            && SearchIndex.storedDocument(of: page, in: stored, basePath: configuration.basePath) == nil
    }

    /// The last build's structure is kept (`keepsLists`).
    var keepsStructure: Bool { incremental?.structureKept == true }

    /// URLs of the last build's pages when its structure is kept: the later pages of paginated
    /// lists are not made again, and links to them hold.
    var keptPageURLs: [String] { incremental?.keptPageURLs ?? [] }

    // MARK: Mapping and rendering

    /// Pages whose output stays as the last build wrote it, by URL.
    var keptPages: [String: BuildManifest.PageRecord] { incremental?.reused ?? [:] }

    /// The preview keeps this build's pages and views to compare the next build with.
    var remembersPages: Bool { memory != nil }

    /// The record of the last build lists which stylesheets and scripts each page linked.
    var recordsPageAssets: Bool { incremental != nil }

    /// Views the preview mapped before, for pages as they were, under the same environment.
    func mappingMemo(for site: RoutedSite, mapper: PageMapper) -> ViewMemo {
        guard let memory else { return ViewMemo(cache: nil, generation: 0) }
        // The preview maps edited pages with it later: without this build's listed views.
        editing.mapper = mapper.forgettingListedViews()
        let generation = memory.generation(for: .init(
            configuration: site.configuration, theme: site.theme, schemas: site.loaded.components.codes.compactMap { site.loaded.components[$0]?.schema },
            links: site.links, buildDate: site.buildDate, translations: site.translations, menus: site.menus, data: site.data,
            hooks: site.loaded.templates.hooks.mapValues(\.text)))
        return ViewMemo(cache: memory, generation: generation)
    }

    /// The pages this build has: the preview forgets the others.
    func mapped(_ pages: [Page]) {
        memory?.retain(sourcePaths: Set(pages.map(\.sourcePath)), urls: Set(pages.map(\.url)))
    }

    /// HTML the preview rendered before, for views, templates and assets as they were.
    func renderingMemo(for site: RoutedSite, renderer: PageRenderer) -> RenderMemo {
        guard let memory else { return RenderMemo(cache: nil, templates: [:], fingerprints: site.fingerprints, generation: 0) }
        let sources = site.loaded.templates.sources
        memory.noteTemplates(sources)
        let generation = memory.generation(for: .init(
            configuration: site.configuration, theme: site.theme, schemas: site.loaded.components.codes.compactMap { site.loaded.components[$0]?.schema },
            buildDate: site.buildDate, translations: site.translations, data: site.data))
        // The preview renders edited pages with it later: without this build's shared items.
        editing.rendering = (renderer.forgettingSharedItems(), sources, generation)
        return RenderMemo(cache: memory, templates: sources, fingerprints: site.fingerprints, generation: generation)
    }

    // MARK: Files made from every page

    /// Whether the last build, kept, wrote `path`.
    func lastBuildWrote(_ path: String) -> Bool {
        incremental?.reference?.files[path] != nil
    }

    /// The paths the last build, kept, wrote that `include` picks.
    func lastBuildOutputs(where include: (String) -> Bool) -> [String] {
        incremental?.reference?.files.keys.filter(include) ?? []
    }

    /// Files of the last build this one no longer makes, when it keeps every other file of it
    /// (`keepsStructure`): the numbered files of a search index that has fewer now.
    func drop(_ paths: [String]) {
        incremental?.dropped.formUnion(paths)
    }

    /// `file` handed to the new output folder, which writes it now, and returned holding no
    /// bytes, when the build fills one (a full build); otherwise `file` as it is. The steps after
    /// the pages stream their files this way: 100,000 pages' search index, page index and
    /// sitemap are 95 MB, which waited in memory beside the build record being made.
    func stream(_ file: OutputFile) -> OutputFile {
        staged?.add(file) ?? file
    }

    /// Output paths the last build wrote that this one keeps.
    var keptOutputs: [String] { incremental?.keptOutputs ?? [] }

    /// Keeps `path` as the last build wrote it if nothing it is made of changed; false: make it.
    func keep(_ path: String) -> Bool {
        incremental?.keepIfUnchanged(path) == true
    }

    /// The page's JSON: the preview's last bytes when its view is the same, else `make()`'s.
    func document(for view: PageView, make: () -> Data) -> Data {
        guard let memory else { return make() }
        let generation = memory.currentGeneration
        if let json = memory.document(for: view, generation: generation) { return json }
        let json = make()
        memory.store(document: json, for: view, generation: generation)
        return json
    }

    /// The page's search document: the preview's last one when its view is the same, else
    /// `make()`'s.
    func searchDocument(for view: PageView, make: () -> SearchDocument?) -> SearchDocument? {
        guard let memory else { return make() }
        let generation = memory.currentGeneration
        if let document = memory.searchDocument(for: view, generation: generation) { return document }
        let document = make()
        memory.store(searchDocument: document, for: view, generation: generation)
        return document
    }

    /// The preview encodes edited pages' JSON with it later.
    func keepForEdits(documents: PageDocument) {
        if memory != nil { editing.documents = documents }
    }

    /// The last build's search index, to update (`SearchIndex.make(_:from:)`), taken: the
    /// preview's, or the one a build of edited bodies makes again from the last build's documents
    /// (`SearchIndex.LastBuilds`); nil without one.
    func takeLastSearchIndex() -> SearchIndex.LastBuilds? {
        if let memory { return memory.takeSearchIndex().map(SearchIndex.LastBuilds.made) }
        defer { lastBuildsSearchIndex = nil }
        return lastBuildsSearchIndex
    }

    /// The preview makes the next build's search index from it.
    func keepForEdits(search: [SearchIndex.Language]) {
        memory?.keep(searchIndex: search)
    }

    /// A site-wide file made from a few fields of every page: the preview's last bytes when
    /// `key` is the same, else `make()`'s.
    func derived<Key: Equatable & Sendable>(_ name: String, key: Key, _ make: () -> Data) -> Data {
        memory?.derived(name, key: key, make) ?? make()
    }

    /// `derived`, where `update` gets the last key and bytes to make the file from.
    func derived<Key: Equatable & Sendable>(_ name: String, key: Key, updating update: ((key: Key, data: Data)?) -> Data) -> Data {
        memory?.derived(name, key: key, updating: update) ?? update(nil)
    }
}

/// A page's view data as the preview mapped it before, while the page (and the pages it lists)
/// and everything mapping reads are as they were.
struct ViewMemo: Sendable {
    let cache: BuildCache?
    let generation: Int

    /// `others`: what the page shows of pages it does not list (`PageMapper.otherPagesShown(by:)`).
    func view(of page: Page, lists: QuerySelections, others shown: @autoclosure () -> UInt64, make: () throws -> PageView) rethrows -> PageView {
        guard let cache else { return try make() }
        let others = shown()
        // A page with a query section shows the pages it lists: its view stands while they are
        // the same pages, unchanged.
        if page.listsPages {
            let listed = page.sections.indices.map { lists.publishedPages(of: page, section: $0) ?? lists.pages(of: page, section: $0) }
            if let view = cache.listView(for: page, listed: listed, generation: generation, others: others) { return view }
            let view = try make()
            cache.store(view, listing: listed, generation: generation, others: others)
            return view
        }
        if let view = cache.view(for: page, generation: generation, others: others) { return view }
        let view = try make()
        cache.store(view, generation: generation, others: others)
        return view
    }
}

/// A page's HTML as the preview rendered it before, while its view, the templates and assets it
/// used and the rendering environment are as they were.
struct RenderMemo: Sendable {
    let cache: BuildCache?
    let templates: [String: String]
    let fingerprints: AssetFingerprints
    let generation: Int

    /// `isCurrent`: whether what the earlier render printed of files (its pictures) is as it was.
    func page(_ view: PageView, isCurrent: (PageRenderer.Result) -> Bool, make: () throws -> (PageRenderer.Result, Data)) rethrows -> (PageRenderer.Result, Data) {
        guard let cache else { return try make() }
        if let reused = cache.rendering(of: view, templates: templates, fingerprints: fingerprints, generation: generation), isCurrent(reused.result) {
            return (reused.result, reused.output)
        }
        let (result, bytes) = try make()
        cache.store(result, output: bytes, of: view, templates: templates, generation: generation)
        return (result, bytes)
    }
}
