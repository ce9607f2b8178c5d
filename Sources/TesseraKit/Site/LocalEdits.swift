import Foundation

/// A preview rebuild after edits that reach only their own page: the edited pages are parsed,
/// mapped, rendered and written again, and nothing else is touched.
///
/// Other pages see a page through its URL and its front matter's other keys (lists read front
/// matter values, `PageQuery.use(for:)`; term pages, menus, the sitemap, the JSON index and
/// translations read its title, date, terms, menus and URL). Its body and its `sections` (when
/// none of them lists pages) reach only its own HTML and JSON, and the feeds that carry its body
/// with `content: full`. So when every changed file parses to the page the last build had but
/// for its body and sections, the last build stands except for those pages. Anything else (a
/// new or deleted file, a title, templates, data, configuration, sections of a page that lists
/// pages, a page a full-content feed lists) takes the whole pipeline, whose cache then reuses
/// what it can.
/// The tests check that both give the same bytes.
enum LocalEdits {
    /// What a successful build leaves for the next local edit.
    struct Basis {
        var state: BuildState
        var mapper: PageMapper
        var renderer: PageRenderer
        var templates: [String: String]
        var renderGeneration: Int
        var documents: PageDocument?
        var report: BuildReport
    }

    /// The output paths written, or nil when these changes need the whole pipeline. Throws the
    /// edited pages' errors (nothing is written then).
    static func rebuild(_ changes: Set<String>, from basis: Basis, cache: BuildCache) throws -> [String]? {
        let state = basis.state
        let content = state.siteDirectory + "/content"
        guard !changes.isEmpty, state.options.updatesInPlace, state.options.writesOutput,
              let listed = cache.watchedListingPaths(of: content) else { return nil }
        // The edited pages, as the last build had them and as they are now.
        var edited: [String: Page] = [:]
        for path in changes {
            // A file the last build parsed as a page (generator files are not kept as one).
            guard listed.contains(path), FileTree.isRegularFile(path), let previous = cache.parsedEntry(for: path) else { return nil }
            // Whatever happens next, the entry no longer describes the file: a file that fails
            // to parse must not find it in a later build that does not read the file again.
            cache.forgetParsed(path)
            let text = try FileTree.readText(path)
            let page = try previous.parser.parse(text: text, sourcePath: path, relativePath: previous.page.relativePath)
            // Nothing but the local parts changed (not even where the other keys are written), and
            // sections that list pages are as they were (a list's layout, pages and feeds follow them).
            guard withLocalParts(of: page, on: previous.page) == page,
                  page.sections == previous.page.sections || (!listsPages(page) && !listsPages(previous.page)) else { return nil }
            cache.store(page, for: path, text: text, parser: previous.parser)
            edited[path] = page
        }
        let configuration = state.configuration
        if configuration.feeds.fullContent {
            // A feed that carries a page's body is made again by the whole pipeline.
            for page in state.pages where !page.feeds.isEmpty && (page.pagination?.number ?? 1) == 1 {
                if state.querySelections.allPages(of: page, limit: configuration.feeds.limit).contains(where: { edited[$0.sourcePath] != nil }) { return nil }
            }
        }
        // Every page made from an edited file: a paginated list has one per page of the list.
        let positions = state.pages.indices.filter { edited[state.pages[$0].sourcePath] != nil }
        var pages: [Int: Page] = [:]
        var files: [OutputFile] = []
        var views: [String: PageView] = [:]
        let generation = cache.currentGeneration
        let problems = DiagnosticCollector()
        let copies = Set(state.staticFiles.map(\.path))
        for position in positions {
            let page = withLocalParts(of: edited[state.pages[position].sourcePath]!, on: state.pages[position])
            pages[position] = page
            guard let view = problems.attempt(at: page.location, { try basis.mapper.map(page) }) else { continue }
            cache.store(view, generation: generation)
            views[page.url] = view
            let outputs = page.outputs ?? configuration.outputs
            if outputs.contains("html") {
                guard let (result, bytes) = problems.attempt(at: page.location, { try basis.renderer.renderBytes(view) }) else { continue }
                // A page that links a stylesheet or script no page linked needs its fingerprinted copy.
                guard result.assets.values.allSatisfy({ copies.contains($0.path) }) else { return nil }
                cache.store(result, output: bytes, of: view, templates: basis.templates, generation: basis.renderGeneration)
                files.append(OutputFile(path: page.outputPath, contents: .data(bytes)))
            }
            if outputs.contains("json"), let documents = basis.documents {
                let json = documents.bytes(for: view)
                cache.store(document: json, for: view, generation: generation)
                files.append(OutputFile(path: page.jsonOutputPath, contents: .data(json)))
            }
        }
        try problems.throwIfErrors()
        guard let changed = try state.outputWriter.update(only: files, cache: cache) else { return nil }
        // The basis now describes this build, for the next edit.
        for (position, page) in pages { state.pages[position] = page }
        for index in state.pageViews.indices { if let view = views[state.pageViews[index].page.url] { state.pageViews[index] = view } }
        state.changedOutputs = changed
        return changed
    }

    /// `page` with the parts only it shows taken from `parsed`: the body and what the parser
    /// draws from it, and the sections.
    static func withLocalParts(of parsed: Page, on page: Page) -> Page {
        var page = page
        page.body = parsed.body
        page.bodyLine = parsed.bodyLine
        page.excerpt = parsed.excerpt
        page.sections = parsed.sections
        return page
    }

    /// A page with a query section is a list: its layout, pagination and feeds depend on it.
    static func listsPages(_ page: Page) -> Bool {
        page.sections.contains { $0.query != nil }
    }
}
