import Foundation

extension Step where Product == RenderedSite {
    /// The search index of every language (`SearchIndex`), from the documents of the pages
    /// rendered and, for the pages the build kept, the last build's (`SearchStore`).
    public static var writeSearchIndex: Step { Step("search index") { site, context in
        let configuration = site.configuration
        guard configuration.search.enabled, !context.diagnostics.hasErrors else { return }
        // Made on another core since rendering ended, unless a step changed the documents or
        // the pages kept since.
        let index: [SearchIndex.Language]
        if let made = site.searchIndexAhead?.index(keepingPages: SearchIndex.keptPages(of: site, context: context)) {
            site.searchDocuments += made.kept
            index = made.index
        } else {
            site.searchDocuments += SearchIndex.keptDocuments(of: site, context: context)
            // The preview's last index, or the last build's, updated when pages changed: made
            // anew, most pages' postings would be again what they were.
            index = SearchIndex.make(
                site.searchDocuments, languages: configuration.languages, translations: site.translations,
                from: context.reuse.takeLastSearchIndex()?.index)
        }
        context.reuse.keepForEdits(search: index)
        let files = index.flatMap(\.files)
        // A build that keeps the last one's files keeps its shards: those this index has no more go.
        if context.reuse.keepsStructure {
            let made = Set(files.map(\.path)), copied = Set(site.staticFiles.map(\.path))
            context.reuse.drop(context.reuse.lastBuildOutputs { SearchIndex.isShardOrChunk($0) && !made.contains($0) && !copied.contains($0) })
        }
        site.outputs += files.map(context.reuse.stream)
        if configuration.search.documents {
            site.outputs += SearchIndex.appDocuments(site.searchDocuments, languages: configuration.languages.map(\.code)).map(context.reuse.stream)
        }
    } }
}

extension SearchIndex {
    /// The index of a build's search documents, made on another core while the steps between
    /// rendering and the search step run (the page index, the sitemap, feeds): on two cores, a
    /// tenth of a second of 10,000 posts' build that ran alone. `RenderedSite` lets it go when a
    /// step changes the documents, and the search step then makes the index itself.
    final class Ahead: @unchecked Sendable {
        private var made: [Language] = []
        private var task: SideTask?

        /// The pages kept from the last build (`keptPages`), and the documents it was made with.
        private var keptPages: [String] = []
        private var kept: [SearchDocument] = []
        /// Whether it is made from the last build's index, updated with the pages that differ
        /// (once made).
        var updatesLastIndex: Bool {
            task?.wait()
            return updated
        }
        private var updated = false

        /// Starts making the index of `site`'s documents and those of the pages it keeps, when
        /// the build has a search step.
        static func start(for site: RenderedSite, context: BuildContext) -> Ahead? {
            let configuration = site.configuration
            guard configuration.search.enabled, !context.diagnostics.hasErrors else { return nil }
            let ahead = Ahead()
            ahead.keptPages = SearchIndex.keptPages(of: site, context: context)
            let rendered = site.searchDocuments, pages = site.pages, keptPages = context.reuse.keptPages, stored = context.reuse.storedSearchDocuments
            let languages = configuration.languages, translations = site.translations, basePath = configuration.basePath
            let last = context.reuse.takeLastSearchIndex()
            ahead.task = SideTask { [ahead] in
                ahead.kept = SearchIndex.keptDocuments(of: pages, kept: keptPages, stored: stored, basePath: basePath)
                let documents = rendered + ahead.kept
                let from = last?.index
                ahead.updated = from != nil
                ahead.made = SearchIndex.make(documents, languages: languages, translations: translations, from: from)
            }
            return ahead
        }

        /// The index, once made (here, if no other core has begun it), and the kept pages'
        /// documents it has; nil if the pages kept (`keptPages`) are no longer those it was made with.
        func index(keepingPages pages: [String]) -> (index: [Language], kept: [SearchDocument])? {
            guard pages == keptPages else { return nil }
            task?.wait()
            return (made, kept)
        }
    }

    /// The index of the last build into the same output folder, made again from its documents
    /// (`SearchStore`) on another core while a build of edited bodies loads, maps and renders:
    /// the search step then updates it with the pages that differ and this build's strings
    /// (`make(_:from:)`), as the preview updates its last index, instead of making it whole once
    /// rendering ends.
    final class LastBuilds: @unchecked Sendable {
        private var made: [Language] = []
        private var task: SideTask?

        /// An index made already (the preview's).
        static func made(_ index: [Language]) -> LastBuilds {
            let last = LastBuilds()
            last.made = index
            return last
        }

        /// Starts making the index of the documents `store` reads, with no dialog strings.
        static func start(reading store: SearchStore.Reading, languages: [SiteLanguage]) -> LastBuilds {
            let last = LastBuilds()
            last.task = SideTask { [last] in
                let documents = store.documents
                last.made = documents.isEmpty ? [] : SearchIndex.make(Array(documents.values), languages: languages, translations: [:])
            }
            return last
        }

        /// The index, once made (here, if no other core has begun it); nil when the store was empty.
        var index: [Language]? {
            task?.wait()
            return made.isEmpty ? nil : made
        }

        /// Not made if no core has begun it; returns once no core makes it.
        func cancel() {
            task?.cancel()
        }
    }

    /// The last build's documents of the pages this build keeps, in the order of the site's pages.
    static func keptDocuments(of site: RenderedSite, context: BuildContext) -> [SearchDocument] {
        keptDocuments(of: site.pages, kept: context.reuse.keptPages, stored: context.reuse.storedSearchDocuments, basePath: site.configuration.basePath)
    }

    /// Those of `stored` (by URL) of the `pages` that are `kept` (by URL).
    static func keptDocuments(of pages: [Page], kept: [String: BuildManifest.PageRecord], stored: [String: SearchDocument], basePath: String) -> [SearchDocument] {
        guard !kept.isEmpty else { return [] }
        return pages.compactMap { page in kept[page.url] != nil ? storedDocument(of: page, in: stored, basePath: basePath) : nil }
    }

    /// `page`'s document among the last build's (`stored`, by URL). A document's URL is the base
    /// path and the page's without its "/": with the base path "/", the page's own (no string
    /// made per page).
    static func storedDocument(of page: Page, in stored: [String: SearchDocument], basePath: String) -> SearchDocument? {
        stored[basePath == "/" && page.url.utf8.first == UInt8(ascii: "/") ? page.url : basePath + page.url.dropFirst()]
    }

    /// The URLs of the pages this build keeps, in the order of the site's pages: while they are
    /// the same, so are their documents.
    static func keptPages(of site: RenderedSite, context: BuildContext) -> [String] {
        let kept = context.reuse.keptPages
        guard !kept.isEmpty else { return [] }
        return site.pages.compactMap { kept[$0.url] != nil ? $0.url : nil }
    }
}
