import Foundation

extension Step where Product == RenderedSite {
    /// The search index of every language (`SearchIndex`), from the documents of the pages
    /// rendered and, for the pages the build kept, the last build's (`SearchStore`).
    public static var writeSearchIndex: Step { Step("search index") { site, context in
        let configuration = site.configuration
        guard configuration.search.enabled, !context.diagnostics.hasErrors else { return }
        let kept = context.reuse.keptPages
        if !kept.isEmpty {
            let stored = context.reuse.storedSearchDocuments
            let basePath = configuration.basePath
            for page in site.pages where kept[page.url] != nil {
                if let document = stored[basePath + page.url.dropFirst()] { site.searchDocuments.append(document) }
            }
        }
        // The preview's last index, updated when pages changed: made anew, most pages' postings
        // would be again what they were.
        let index = SearchIndex.make(
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
