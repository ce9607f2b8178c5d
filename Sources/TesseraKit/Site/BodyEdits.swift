import Foundation

/// A preview rebuild after edits that changed only page bodies: the edited pages are parsed,
/// mapped, rendered and written again, and nothing else is touched.
///
/// A page's body reaches nothing but its own HTML and JSON, and the feeds that carry it with
/// `fullContent`: lists, term pages, menus, the sitemap and the JSON index show front matter
/// (`PageQuery.use(for:)` reads front matter only). So when every changed file is a Markdown page
/// whose front matter is byte for byte what the last build read, the last build stands except
/// for those pages. Anything else (a new or deleted file, front matter, templates, data,
/// configuration, a page a full-content feed lists) takes the whole pipeline, whose cache then
/// reuses what it can. The tests check that both give the same bytes.
enum BodyEdits {
    /// What a successful build leaves for the next body edit.
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
            let kind = PathText.pathExtension(path).lowercased()
            guard kind == "md" || kind == "markdown", listed.contains(path), FileTree.isRegularFile(path),
                  let previous = cache.parsedEntry(for: path) else { return nil }
            let text = try FileTree.readText(path)
            guard frontMatter(of: text) == frontMatter(of: previous.text) else { return nil }
            let page = try previous.parser.parse(text: text, sourcePath: path, relativePath: previous.page.relativePath)
            // The parser must have drawn nothing but the body's fields from the body.
            guard withBody(of: page, on: previous.page) == page else { return nil }
            cache.store(page, for: path, text: text, parser: previous.parser)
            edited[path] = page
        }
        let configuration = state.configuration
        if configuration.feeds.fullContent {
            // A feed that carries a page's body is made again by the whole pipeline.
            for page in state.pages where !page.feeds.isEmpty && (page.pagination?.number ?? 1) == 1 {
                if state.querySelections.allPages(of: page).prefix(configuration.feeds.limit).contains(where: { edited[$0.sourcePath] != nil }) { return nil }
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
            let page = withBody(of: edited[state.pages[position].sourcePath]!, on: state.pages[position])
            pages[position] = page
            guard let view = problems.attempt(at: page.location, { try basis.mapper.map(page) }) else { continue }
            cache.store(view, generation: generation)
            views[page.url] = view
            let outputs = page.outputs ?? configuration.outputs
            if outputs.contains("html") {
                guard var result = problems.attempt(at: page.location, { try basis.renderer.render(view) }) else { continue }
                // A page that links a stylesheet or script no page linked needs its fingerprinted copy.
                guard result.assets.values.allSatisfy({ copies.contains($0.path) }) else { return nil }
                let bytes = Data(result.html.utf8)
                result.html = ""
                cache.store(result, output: bytes, of: view, templates: basis.templates, generation: basis.renderGeneration)
                files.append(OutputFile(path: page.outputPath, contents: .data(bytes)))
            }
            if outputs.contains("json"), let documents = basis.documents {
                let json = Data(PageDocument.encode(documents.document(for: view)).utf8)
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

    /// `page` with the fields the parser draws from the body taken from `parsed`.
    static func withBody(of parsed: Page, on page: Page) -> Page {
        var page = page
        page.body = parsed.body
        page.bodyLine = parsed.bodyLine
        page.excerpt = parsed.excerpt
        return page
    }

    /// The front matter's bytes with their fences, or the whole text when it has none (a file
    /// without front matter is all body, but then every byte counts as structure to be safe).
    static func frontMatter(of text: String) -> Substring {
        var copy = text
        let end = copy.withUTF8 { bytes -> Int? in
            if case .found(_, let bodyStart) = FrontMatter.locate(bytes) { return bodyStart }
            return nil
        }
        guard let end else { return Substring(text) }
        return Substring(text.utf8.prefix(end))
    }
}
