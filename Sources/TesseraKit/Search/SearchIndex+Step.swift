import Foundation

extension Step where Product == RenderedSite {
    /// The search index of every language (`SearchIndex`), from the documents of the pages
    /// rendered and, for the pages the build kept, the last build's (`SearchStore`).
    public static var writeSearchIndex: Step { Step("search index") { site, context in
        let configuration = site.configuration
        guard configuration.search.enabled, !context.diagnostics.hasErrors else { return }
        // Made on another core since rendering ended, unless a step changed the documents or
        // the pages kept since.
        let ahead = site.searchIndexAhead
        let kept = SearchIndex.keptDocuments(of: site, context: context)
        site.searchDocuments += kept
        // The preview's last index, updated when pages changed: made anew, most pages' postings
        // would be again what they were.
        let index = ahead?.index(keeping: kept) ?? SearchIndex.make(
            site.searchDocuments, languages: configuration.languages, translations: site.translations, from: context.reuse.takeLastSearchIndex())
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

        /// The pages kept from the last build whose documents it was made with, by URL.
        private var keptURLs: [String] = []

        /// Starts making the index of `site`'s documents and those of the pages it keeps, when
        /// the build has a search step.
        static func start(for site: RenderedSite, context: BuildContext) -> Ahead? {
            let configuration = site.configuration
            guard configuration.search.enabled, !context.diagnostics.hasErrors else { return nil }
            let ahead = Ahead()
            let kept = SearchIndex.keptDocuments(of: site, context: context)
            ahead.keptURLs = kept.map(\.url)
            let documents = site.searchDocuments + kept, languages = configuration.languages, translations = site.translations
            let last = context.reuse.takeLastSearchIndex()
            ahead.task = SideTask { [ahead] in ahead.made = SearchIndex.make(documents, languages: languages, translations: translations, from: last) }
            return ahead
        }

        /// The index, once made (here, if no other core has begun it); nil if the pages kept are
        /// no longer those it was made with.
        func index(keeping kept: [SearchDocument]) -> [Language]? {
            guard kept.map(\.url) == keptURLs else { return nil }
            task?.wait()
            return made
        }
    }

    /// The last build's documents of the pages this build keeps, in the order of the site's pages.
    static func keptDocuments(of site: RenderedSite, context: BuildContext) -> [SearchDocument] {
        let kept = context.reuse.keptPages
        guard !kept.isEmpty else { return [] }
        let stored = context.reuse.storedSearchDocuments, basePath = site.configuration.basePath
        return site.pages.compactMap { page in kept[page.url] != nil ? stored[basePath + page.url.dropFirst()] : nil }
    }
}
