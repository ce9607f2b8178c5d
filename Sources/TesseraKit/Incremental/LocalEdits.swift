import Foundation

/// A preview rebuild after edits that reach only their own page, or their page and the lists
/// that show it: those pages are parsed, mapped, rendered and written again, and nothing else
/// is touched.
///
/// Other pages see a page through its URL and its front matter's other keys (lists read front
/// matter values, `PageQuery.use(for:)`; term pages, menus, the sitemap, the JSON index and
/// translations read its title, date, terms, menus and URL). Its body and its `sections` (when
/// none of them lists pages) reach only its own HTML and JSON, and the feeds that carry its body
/// with `content: full`. So when every changed file parses to the page the last build had but
/// for its body and sections, the last build stands except for those pages.
///
/// A front matter value that decides nothing about where pages are and what lists hold (not its
/// URL, date, terms, menus, feeds, outputs or language, and no list's sort key) reaches one step
/// further: the list pages that show the page (the one page of a paginated list it is on), the
/// feeds that list it, and the JSON index for its title. Anything else (a new or deleted file,
/// a sort key, templates, data, configuration, sections of a page that lists pages, a page a
/// full-content feed lists) takes the whole pipeline, whose cache then reuses what it can.
/// The tests check that both give the same bytes.
enum LocalEdits {
    /// What a successful build leaves for the next local edit.
    struct Basis: Sendable {
        var site: WrittenSite
        var options: BuildOptions
        var mapper: PageMapper
        var renderer: PageRenderer
        var templates: [String: String]
        var renderGeneration: Int
        var documents: PageDocument?
        var report: BuildReport
        /// The front matter keys lists sort or filter by, once an edit needed them.
        var sortKeys: Set<String>?
    }

    /// How a preview build mapped, rendered and encoded pages, gathered by the cache layer as the
    /// stages run: the basis of the next edit's rebuild.
    struct Tools {
        var mapper: PageMapper?
        var rendering: (renderer: PageRenderer, templates: [String: String], generation: Int)?
        var documents: PageDocument?

        func basis(for site: WrittenSite, options: BuildOptions, report: BuildReport) -> Basis? {
            guard let mapper, let rendering else { return nil }
            // The search index holds every page's document (`BuildCache.takeSearchIndex`), as edits change them.
            var site = site
            site.rendered.searchDocuments = []
            return Basis(
                site: site, options: options, mapper: mapper, renderer: rendering.renderer, templates: rendering.templates,
                renderGeneration: rendering.generation, documents: documents, report: report)
        }
    }

    /// The preview's rebuild of edits a watcher vouched for, when they reach only their own
    /// pages (and the lists that show them); nil when the whole pipeline is needed. Throws the
    /// edited pages' errors: until a build succeeds again, the next one takes the whole pipeline,
    /// so a later edit of another page cannot hide them.
    static func rebuildIfLocal(memory: BuildCache, start: DispatchTime) throws -> (site: BuiltSite, report: BuildReport)? {
        guard var basis = memory.localEditBasis, let changes = memory.vouchedChanges else { return nil }
        // Taken while it changes: with a second reference, the first change of its pages or
        // views would copy all of them.
        memory.localEditBasis = nil
        do {
            guard let changed = try rebuild(changes, from: &basis, cache: memory) else {
                // The whole pipeline lets it go (on another thread).
                memory.localEditBasis = basis
                return nil
            }
            basis.site.changedOutputs = changed
            memory.localEditBasis = basis
            var report = basis.report
            report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
            report.stepTimings = [("edited pages", report.seconds)]
            report.warnings = []
            let site = BuiltSite(
                configuration: basis.site.configuration, written: basis.site, diagnostics: DiagnosticCollector(), keptStructure: false, changedOutputs: changed)
            return (site, report)
        } catch {
            memory.localEditBasis = nil
            let diagnostics = DiagnosticCollector()
            diagnostics.report(error)
            try diagnostics.throwIfErrors()
            return nil
        }
    }

    /// The output paths written, or nil when these changes need the whole pipeline. Throws the
    /// edited pages' errors (nothing is written then).
    private static func rebuild(_ changes: Set<String>, from basis: inout Basis, cache: BuildCache) throws -> [String]? {
        var site = basis.site
        let options = basis.options
        let content = options.sourceDirectory + "/content"
        guard !changes.isEmpty, options.updatesInPlace, options.writesOutput,
              let listed = cache.watchedListingPaths(of: content) else { return nil }
        // The edited pages, as the last build had them and as they are now.
        var edited: [String: Page] = [:]
        // Front matter keys whose values changed, of all edited pages.
        var shownKeys = Set<String>()
        var shownFiles = Set<String>()
        for path in changes {
            // A file the last build parsed as a page (generator files are not kept as one).
            guard listed.contains(path), FileTree.isRegularFile(path), let previous = cache.parsedEntry(for: path) else { return nil }
            // Whatever happens next, the entry no longer describes the file: a file that fails
            // to parse must not find it in a later build that does not read the file again.
            cache.forgetParsed(path)
            let text = try FileTree.readText(path)
            let page = try previous.parser.parse(text: text, sourcePath: path, relativePath: previous.page.relativePath)
            // Sections that list pages are as they were (a list's layout, pages and feeds follow them).
            guard page.sections == previous.page.sections || (!page.listsPages && !previous.page.listsPages) else { return nil }
            if withLocalParts(of: page, on: previous.page) != page {
                // Nothing but the local parts and front matter values changed, and no new warning
                // is to be printed.
                guard withShownParts(of: page, on: previous.page) == page, PageParser.lookalikeWarnings(page).isEmpty else { return nil }
                shownKeys.formUnion(changedKeys(page, previous.page))
                shownFiles.insert(path)
            }
            cache.store(page, for: path, text: text, parser: previous.parser)
            edited[path] = page
        }
        let configuration = site.configuration
        if !shownFiles.isEmpty {
            // A value a list sorts by may change its order, one it filters by (`where:`) what it
            // lists; terms decide the term pages.
            // Found once per basis: no local edit changes a section that lists pages.
            let sortKeys = basis.sortKeys ?? Set(site.pages.lazy.flatMap { $0.sections.lazy.compactMap(\.query).flatMap { [$0.sortKey] + $0.matches.map(\.key) } })
            basis.sortKeys = sortKeys
            guard shownKeys.isDisjoint(with: sortKeys), shownKeys.isDisjoint(with: configuration.taxonomies.map(\.name)) else { return nil }
            // A date decides which posts are next to which.
            guard !shownKeys.contains("date") else { return nil }
            // A page's title is in the breadcrumbs of the articles below its folder. (A dated
            // page's title is also its neighbours' "previous / next" link: they are made again
            // below.)
            if shownKeys.contains("title") {
                let urls = Set(site.pages.lazy.filter { shownFiles.contains($0.sourcePath) }.map(\.url))
                guard !site.pages.contains(where: { page in page.date != nil && urls.contains { page.url != $0 && page.url.hasPrefix($0) } }) else { return nil }
            }
            // Term pages without a component list their pages' titles in their body.
            if site.components["article-thumb"] == nil {
                for taxonomy in configuration.taxonomies where taxonomy.component == nil {
                    if shownFiles.contains(where: { !taxonomy.terms(of: edited[$0]!).isEmpty }) { return nil }
                }
            }
        }
        if configuration.feeds.fullContent {
            // A feed that carries a page's body is made again by the whole pipeline.
            for page in site.pages where !page.feeds.isEmpty && (page.pagination?.number ?? 1) == 1 {
                if site.lists.allPages(of: page, limit: configuration.feeds.limit).contains(where: { edited[$0.sourcePath] != nil }) { return nil }
            }
        }
        // Every page made from an edited file: a paginated list has one per page of the list.
        var pages: [Int: Page] = [:]
        var allPages = site.pages
        for position in allPages.indices {
            guard let parsed = edited[allPages[position].sourcePath] else { continue }
            pages[position] = shownFiles.contains(parsed.sourcePath)
                ? withShownParts(of: parsed, on: allPages[position]) : withLocalParts(of: parsed, on: allPages[position])
        }
        // The lists hold the pages as they are now; those that show a changed value are made again.
        var selections = site.lists
        var showing = Set<String>()
        for (url, sections) in selections.lists {
            var sections = sections
            var changed = false
            for index in sections.indices {
                guard let listedPages = sections[index] else { continue }
                for (item, listedPage) in listedPages.enumerated() {
                    guard let parsed = edited[listedPage.sourcePath] else { continue }
                    let shown = shownFiles.contains(parsed.sourcePath)
                    sections[index]![item] = shown ? withShownParts(of: parsed, on: listedPage) : withLocalParts(of: parsed, on: listedPage)
                    changed = true
                    if shown { showing.insert(url) }
                }
            }
            if changed { selections.lists[url] = sections }
        }
        var mapper = basis.mapper
        mapper.selections = selections
        if shownKeys.contains("title") {
            // A dated page's neighbours link it by its title: they take the new one and are made again.
            var neighbours = Set<String>()
            for (_, page) in pages where shownFiles.contains(page.sourcePath) {
                guard let found = mapper.neighbourPages[page.url] else { continue }
                let title = page.title ?? ""
                if let older = found.older?.url, var links = mapper.neighbourPages[older], links.newer?.url == page.url {
                    links.newer?.title = title
                    mapper.neighbourPages[older] = links
                    neighbours.insert(older)
                }
                if let newer = found.newer?.url, var links = mapper.neighbourPages[newer], links.older?.url == page.url {
                    links.older?.title = title
                    mapper.neighbourPages[newer] = links
                    neighbours.insert(newer)
                }
            }
            if !neighbours.isEmpty {
                for position in allPages.indices where pages[position] == nil && neighbours.contains(allPages[position].url) { pages[position] = allPages[position] }
            }
        }
        if !showing.isEmpty {
            // The pages of those lists that show an edited page (of a paginated list, the one it is on).
            for position in allPages.indices where pages[position] == nil {
                let page = allPages[position]
                guard showing.contains(page.pagination?.firstURL ?? page.url),
                      page.sections.indices.contains(where: { selections.pages(of: page, section: $0)?.contains { shownFiles.contains($0.sourcePath) } == true })
                else { continue }
                pages[position] = page
            }
        }
        var files: [OutputFile] = []
        var views: [String: PageView] = [:]
        var pageIDs: [String: Set<String>] = [:]
        let generation = cache.currentGeneration
        let problems = DiagnosticCollector()
        let copies = Set(site.staticFiles.map(\.path))
        for (_, page) in pages.sorted(by: { $0.key < $1.key }) {
            guard let view = problems.attempt(at: page.location, { try mapper.map(page) }) else { continue }
            // An image the preview has not written yet (new to the page, or changed) is made by
            // the whole pipeline, which writes its files.
            guard view.images.allSatisfy({ cache.written[$0] != nil }) else { return nil }
            if page.listsPages {
                cache.store(view, listing: page.sections.indices.map { selections.pages(of: page, section: $0) }, generation: generation, others: mapper.otherPagesShown(by: page))
            } else {
                cache.store(view, generation: generation, others: mapper.otherPagesShown(by: page))
            }
            views[page.url] = view
            let outputs = page.outputs ?? configuration.outputs
            if outputs.contains("html") {
                guard let (result, bytes) = problems.attempt(at: page.location, { try basis.renderer.renderBytes(view) }) else { continue }
                // A page that links a stylesheet or script no page linked needs its fingerprinted
                // copy, a picture not written yet its files; warnings are the whole pipeline's to print.
                guard result.assets.values.allSatisfy({ copies.contains($0.path) }), result.warnings.isEmpty,
                      result.pictures.allSatisfy({ $0.files.allSatisfy { cache.written[$0] != nil } }) else { return nil }
                cache.store(result, output: bytes, of: view, templates: basis.templates, generation: basis.renderGeneration)
                pageIDs[page.url] = Set(result.ids)
                files.append(OutputFile(path: page.outputPath, contents: .data(bytes)))
            }
            if outputs.contains("json"), let documents = basis.documents {
                // A published section's files are the whole pipeline's to write.
                guard !view.sections.contains(where: { $0.published != nil }) else { return nil }
                let json = documents.bytes(for: view)
                cache.store(document: json, for: view, generation: generation)
                files.append(OutputFile(path: page.jsonOutputPath, contents: .data(json)))
            }
        }
        // An error in a page that shows another is the whole pipeline's to report, with the rest.
        if problems.hasErrors && !showing.isEmpty { return nil }
        try problems.throwIfErrors()
        // The basis now describes this build, for the next edit and for the feeds and index below.
        var updated = site
        // The pages and views are changed in place: the basis and `site` let go of them (a
        // second reference would copy all of them at the first change).
        site.rendered.mapped.views = []
        site.rendered.mapped.routed.loaded.pages = []
        basis.site.rendered.mapped.views = []
        basis.site.rendered.mapped.routed.loaded.pages = []
        allPages = []
        for (position, page) in pages { updated.rendered.mapped.routed.loaded.pages[position] = page }
        for index in updated.rendered.mapped.views.indices {
            if let view = views[updated.rendered.mapped.views[index].page.url] { updated.rendered.mapped.views[index] = view }
        }
        updated.rendered.mapped.routed.loaded.lists = selections
        // Every page's links to ids still name ids their pages have; the whole pipeline reports any that do not.
        guard var ids = site.rendered.pageIDs else { return nil }
        ids.merge(pageIDs) { _, new in new }
        guard !updated.rendered.mapped.views.contains(where: { !FragmentCheck.problems($0.fragments, ids: ids).isEmpty }) else { return nil }
        updated.rendered.pageIDs = ids
        let routed = updated.rendered.mapped.routed
        if !shownFiles.isEmpty {
            // Feeds that list an edited page, or belong to one.
            for page in routed.loaded.pages where !page.feeds.isEmpty && (page.pagination?.number ?? 1) == 1 {
                guard shownFiles.contains(page.sourcePath)
                        || selections.allPages(of: page, limit: configuration.feeds.limit).contains(where: { shownFiles.contains($0.sourcePath) }) else { continue }
                files += try routed.feedFiles(of: page)
            }
            // The JSON index lists titles and dates (the last build wrote one if it had a writer).
            if let documents = basis.documents {
                let basePath = configuration.basePath
                let entries = PageIndex.entries(of: updated.rendered.mapped.views.map(\.page).filter { ($0.outputs ?? configuration.outputs).contains("json") }, writer: documents, basePath: basePath)
                let data = cache.derived("api/index.json", key: entries, updating: { last in
                    last.flatMap { PageIndex.patched($0, to: entries) } ?? PageIndex.make(entries, basePath: basePath)
                })
                files.append(OutputFile(path: "api/index.json", contents: .data(data)))
            }
        }
        // The search index, with the documents of the pages made again.
        var stale: [String] = []
        var searchIndex: [SearchIndex.Language]?
        if configuration.search.enabled {
            // Taken, so updated in place (a copy would copy every page's document); kept again below.
            guard var index = cache.takeSearchIndex() else { return nil }
            let changed = views.map { url, view in
                let document = SearchDocument.make(
                    view, registry: routed.loaded.components, options: configuration.search, outputs: configuration.outputs,
                    basePath: configuration.basePath, timeZone: configuration.timeZone)
                cache.store(searchDocument: document, for: view, generation: generation)
                return (url: configuration.basePath + url.dropFirst(), document: document)
            }
            let made = SearchIndex.update(&index, with: changed)
            // A shard the index no longer has goes, unless a file of the site's own stands there.
            stale = made.removed.filter { !copies.contains($0) }
            files += made.files
            if configuration.search.documents {
                files += SearchIndex.appDocuments(index.flatMap(\.documents), languages: configuration.languages.map(\.code))
            }
            searchIndex = index
        }
        basis.site = updated
        basis.mapper = mapper
        let writer = OutputWriter(options: options, configuration: configuration, theme: routed.theme)
        guard let written = try writer.update(only: files, removing: stale, cache: cache) else { return nil }
        if let searchIndex { cache.keep(searchIndex: searchIndex) }
        return written
    }

    /// `page` with the parts only it shows taken from `parsed`: the body and what the parser
    /// draws from it, and the sections.
    static func withLocalParts(of parsed: Page, on page: Page) -> Page {
        var page = page
        page.body = parsed.body
        page.bodyLine = parsed.bodyLine
        page.sections = parsed.sections
        return page
    }

    /// `page` with everything other pages may show of `parsed` but no list sorts or groups by:
    /// the local parts, the title, the summary and the other front matter values.
    static func withShownParts(of parsed: Page, on page: Page) -> Page {
        var page = withLocalParts(of: parsed, on: page)
        page.title = parsed.title
        page.summary = parsed.summary
        page.frontMatter = parsed.frontMatter
        page.params = parsed.params
        return page
    }

    /// The front matter keys whose values differ between the two pages (not where they are written).
    static func changedKeys(_ page: Page, _ other: Page) -> Set<String> {
        func entries(_ page: Page) -> [String: [ContentNode.Entry]] {
            Dictionary(grouping: page.frontMatter + page.params, by: \.key)
        }
        let mine = entries(page), theirs = entries(other)
        return Set(mine.keys).union(theirs.keys).filter { key in
            let a = mine[key] ?? [], b = theirs[key] ?? []
            return a.count != b.count || zip(a, b).contains { !sameValue($0.value, $1.value) }
        }
    }

    /// The same value, wherever each is written.
    static func sameValue(_ a: ContentNode, _ b: ContentNode) -> Bool {
        switch (a.value, b.value) {
        case let (.list(x), .list(y)): return x.count == y.count && zip(x, y).allSatisfy { sameValue($0, $1) }
        case let (.map(x), .map(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.key == $1.key && sameValue($0.value, $1.value) }
        case (.list, _), (.map, _), (_, .list), (_, .map): return false
        default: return a.value == b.value
        }
    }
}
