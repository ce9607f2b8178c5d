import Foundation

/// The mapping stage: each page's components become view data through their transformers.
enum MapStage {
    static func map(_ routed: consuming RoutedSite, context: BuildContext) -> MappedSite {
        var site = routed
        let languages = site.configuration.languages
        let reuse = context.reuse
        let kept = reuse.keptPages
        // The pages to map when the last build's output keeps others (nil: every page).
        let remade = kept.isEmpty ? nil : site.loaded.pages.filter { kept[$0.url] == nil }
        // A few pages (an edit since the last build) need the translations of those pages alone;
        // the preview keeps its mapper for any page.
        let translating = reuse.remembersPages ? nil : remade.flatMap { $0.count < site.loaded.pages.count / 4 ? Set($0.map(\.translationKey)) : nil }
        var mapper = PageMapper(
            mapper: ViewDataMapper(registry: site.components, defaultShell: site.theme.defaultShell),
            contexts: Dictionary(uniqueKeysWithValues: languages.map { ($0.code, site.transformContext(for: $0.code)) }),
            languages: languages, pages: site.loaded.pages, translating: translating, selections: site.lists, menus: site.menus,
            origin: site.configuration.origin)
        mapper.taxonomies = site.configuration.taxonomies.map(\.name)
        mapper.siteTitles = Dictionary(languages.map { ($0.code, site.configuration.title(in: $0.code)) }, uniquingKeysWith: { first, _ in first })
        mapper.data = site.data
        let pageMapper = mapper
        let diagnostics = context.diagnostics
        let memo = reuse.mappingMemo(for: site, mapper: pageMapper)
        let views: [PageView]
        if !reuse.remembersPages && kept.isEmpty {
            if context.mapsWhileRendering { return MappedSite(routed: site, views: [], deferred: DeferredMapping(mapper: pageMapper)) }
            // A step over the mapped site reads every view: they are made now.
            var pages = site.loaded.pages
            site.loaded.pages = []
            let mapping = DeferredMapping(mapper: pageMapper)
            views = ParallelMap.mapMutating(&pages) { mapping.view(of: &$0, diagnostics: diagnostics) }.compactMap { $0 }
            site.loaded.pages = pages
        } else {
            let lists = site.lists
            views = ParallelMap.map(remade ?? site.loaded.pages) { page in
                diagnostics.attempt(at: page.location) {
                    try memo.view(of: page, lists: lists, others: pageMapper.otherPagesShown(by: page)) { try pageMapper.map(page) }
                }
            }.compactMap { $0 }
        }
        reuse.mapped(site.loaded.pages)
        return MappedSite(routed: site, views: views)
    }
}
