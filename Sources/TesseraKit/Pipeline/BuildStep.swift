import Foundation

/// One named stage of a build. The pipeline is a list of these, so it reads like what it does
/// and a new output is one more step.
public struct BuildStep: Sendable {
    public let name: String
    let run: @Sendable (BuildState) throws -> Void
    /// The step reads nothing of the theme's components, templates and translations: it runs
    /// while they load on another core (any other step waits for them).
    let overlapsTemplates: Bool

    public init(_ name: String, overlapsTemplates: Bool = false, _ run: @escaping @Sendable (BuildState) throws -> Void) {
        self.name = name
        self.overlapsTemplates = overlapsTemplates
        self.run = run
    }

    /// load → parse → map → render → write.
    public static let standardPipeline: [BuildStep] = [
        .loadConfiguration, .recoverOutputFolder, .checkOutputFolder, .readLastBuild, .loadTheme, .compareWithLastBuild, .loadTemplates, .loadData, .loadContent, .addTaxonomyPages, .paginate, .collectStaticFiles, .fingerprintAssets, .buildMenus, .planReuse, .mapPages, .renderPages, .writePageJSON, .writeSitemap, .writeFeeds, .writeAliases, .writeOutput,
    ]
}

extension BuildStep {
    public static let loadConfiguration = BuildStep("load configuration") { state in
        guard FileTree.isDirectory(state.siteDirectory) else {
            throw TesseraError("no site at \(state.siteDirectory): the folder does not exist", hint: "pass the site folder with --source, or create one with `tessera new DIR`")
        }
        state.configuration = try SiteConfiguration.load(from: state.siteDirectory)
    }

    public static let loadTheme = BuildStep("load theme") { state in
        state.theme = try Theme.load(
            name: state.configuration.theme, siteDirectory: state.siteDirectory, location: state.configuration.themeLocation,
            allowExternalSymlinks: state.configuration.allowExternalSymlinks)
    }

    /// The theme's components, templates and translations: after the build cache's check, which
    /// needs only the theme's folder (a build with nothing changed reads none of them).
    /// They load on another core while the steps that do not read them (data, content) run.
    public static let loadTemplates = BuildStep("load templates") { state in
        guard let theme = state.theme else { return }
        state.templatesLoading = SideTask { load(theme, into: state) }
    }

    private static func load(_ theme: Theme, into state: BuildState) {
        state.registry = ComponentRegistry.load(theme: theme, diagnostics: state.diagnostics)
        let templates = TemplateLibrary.load(theme: theme, registry: state.registry, diagnostics: state.diagnostics)
        state.templates = templates
        state.translations = TranslationTable.load(theme: theme, languages: state.configuration.languages, diagnostics: state.diagnostics)
        // A shell named by a schema or the theme must exist, whether or not a page uses it yet.
        for definition in state.registry.definitions.values.sorted(by: { $0.code < $1.code }) {
            let shell = definition.schema.shell ?? theme.defaultShell
            guard shell != "none", templates.shells[shell] == nil, !templates.broken.contains("shells/" + shell) else { continue }
            let location = definition.schema.shell != nil ? definition.schema.shellLocation : (theme.defaultShellLocation ?? SourceLocation(file: theme.directory + "/theme.yml"))
            // The theme's default shell is one mistake however many components use it.
            let message = definition.schema.shell != nil ? "unknown shell '\(shell)' for component '\(definition.code)'" : "unknown default shell '\(shell)'"
            state.diagnostics.report(Diagnostic(
                .error, message, at: location,
                hint: Suggestions.didYouMean(shell, in: templates.shells.keys) ?? "add shells/\(shell).mustache, or use `shell: none` for a bare body"))
        }
    }

    /// A build killed while swapping its output in may have left the previous site moved aside:
    /// it goes back before anything else, so even a build that then fails leaves it in place.
    /// Only folders named by Tessera's staging pattern beside the output are touched.
    public static let recoverOutputFolder = BuildStep("recover output folder") { state in
        guard state.options.writesOutput else { return }
        try state.outputWriter.recoverInterruptedBuilds()
    }

    /// Refuses a bad output folder before any work, so nothing is built only to be thrown away.
    public static let checkOutputFolder = BuildStep("check output folder") { state in
        guard state.options.writesOutput else { return }
        try state.outputWriter.checkOutputDirectory()
    }

    /// With a build cache: starts reading the last build's record and checking the output folder
    /// against it, on another core while the theme loads.
    public static let readLastBuild = BuildStep("read last build") { state in
        guard let directory = state.options.cacheDirectory, state.options.writesOutput, !state.options.updatesInPlace,
              !state.diagnostics.hasErrors else { return }
        state.lastBuild = IncrementalBuild(cacheDirectory: OutputWriter.resolve(directory), output: state.outputWriter.resolvedOutput)
    }

    /// With a build cache: digests the inputs and compares them with the last build's, which may
    /// end the build here (nothing changed) or let later steps keep unchanged pages.
    public static let compareWithLastBuild = BuildStep("compare with last build") { state in
        guard let incremental = state.lastBuild, let theme = state.theme, !state.diagnostics.hasErrors else { return }
        incremental.compare(state: state, theme: theme)
        state.incremental = incremental
    }

    /// With a build cache: the pages whose HTML and JSON stay as the last build wrote them.
    public static let planReuse = BuildStep("plan reuse") { state in
        state.incremental?.planReuse(state: state)
    }

    public static let loadContent = BuildStep("load content", overlapsTemplates: true) { state in
        var loader = ContentLoader(directory: state.siteDirectory + "/content", boundary: state.configuration.allowExternalSymlinks ? nil : state.siteDirectory, timeZone: state.configuration.timeZone, includeDrafts: state.options.includeDrafts, now: state.buildDate, includeFuture: state.options.includeFuture, permalinks: state.configuration.permalinks, cache: state.cache, languages: state.configuration.languages)
        loader.data = state.data
        loader.listing = state.incremental?.contentListing
        loader.stored = state.incremental?.useStoredPages(parser: loader.parser, directory: loader.directory)
        let result = loader.load(into: state.diagnostics)
        state.incremental?.storePages()
        state.pages = result.pages
        state.skippedDrafts = result.skippedDrafts
        state.skippedFuture = result.skippedFuture
        state.skippedExpired = result.skippedExpired
        state.failedPageURLs = result.failedPageURLs
        state.publishingDates = result.publishingDates
        state.staticFiles = result.assets.map { OutputFile(path: $0, contents: .copy(from: state.siteDirectory + "/content/" + $0)) }
    }

    public static let collectStaticFiles = BuildStep("collect static files") { state in
        guard let theme = state.theme else { return }
        var byPath = Dictionary(state.staticFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for (relative, path) in theme.files(in: .static, problems: state.diagnostics) where byPath[relative] == nil {
            byPath[relative] = OutputFile(path: relative, contents: .copy(from: path))
        }
        let pageURLs = Set(state.pages.map(\.url))
        OutputPathClashes.amongPages(state.pages, site: state.siteDirectory).forEach(state.diagnostics.report)
        let pagesByURL = Dictionary(state.pages.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
        func source(of file: OutputFile) -> String {
            guard case .copy(let from) = file.contents else { return file.path }
            if from.hasPrefix(state.siteDirectory + "/") { return String(from.dropFirst(state.siteDirectory.count + 1)) }
            // The built-in theme is unpacked outside the site: named, not by that folder.
            if from.hasPrefix(theme.directory + "/") { return "\(from.dropFirst(theme.directory.count + 1)) of the theme \(state.configuration.theme)" }
            return from
        }
        // A few static files against thousands of pages: each file's path is looked up among the
        // pages' (`a/index.html` is the page `/a/` or `/a/index.html`, `404.html` is `/404.html`),
        // and so is each folder it is in or would be (a page `/a.html/` writes into `a.html/`).
        for path in byPath.keys.sorted() {
            let folder = path == "index.html" ? "/" : path.hasSuffix("/index.html") ? "/" + path.dropLast("index.html".count) : nil
            if path.hasSuffix(".html"), let page = pagesByURL["/" + path] ?? folder.flatMap({ pagesByURL[$0] }) {
                state.diagnostics.report(Diagnostic(
                    .error, "the page \(page.url) writes \(path), which is also the static file \(source(of: byPath[path]!))",
                    at: OutputPathClashes.urlLocation(of: page), hint: "rename the static file, or give the page another `slug:`"))
                continue
            }
            // The page's folder is the file itself, or one of the folders the file is in.
            var url: String? = pageURLs.contains("/" + path + "/") ? "/" + path + "/" : nil
            var parent = path
            while url == nil, parent.utf8.contains(UInt8(ascii: "/")) {
                parent = PathText.folder(parent)
                if pageURLs.contains("/" + parent) { url = "/" + parent }
            }
            guard let url, let page = pagesByURL[url] else { continue }
            state.diagnostics.report(Diagnostic(
                .error, "the static file \(source(of: byPath[path]!)) and the page \(url) need the same name, one for a file and one for a folder",
                at: OutputPathClashes.urlLocation(of: page), hint: "rename the static file, or give the page another `slug:`"))
        }
        state.staticFiles = byPath.values.sorted { $0.path < $1.path }
        let failed = state.failedPageURLs
        state.links = LinkResolver(
            basePath: state.configuration.basePath,
            // With the last build's structure kept, the later pages of its lists are not made again.
            pageURLs: pageURLs.union(failed.map(\.url) + (state.incremental?.keptPageURLs ?? [])),
            pageReferences: Dictionary(state.pages.map { ($0.relativePath, $0.url) } + failed.map { ($0.reference, $0.url) }, uniquingKeysWith: { first, _ in first }),
            files: Set(state.staticFiles.map(\.path)),
            fileSources: Dictionary(state.staticFiles.compactMap { file in
                if case .copy(let source) = file.contents { return (file.path, source) }
                return nil
            }, uniquingKeysWith: { first, _ in first }))
    }

    public static let mapPages = BuildStep("map view data") { state in
        guard let theme = state.theme else { return }
        let languages = state.configuration.languages
        let reused = state.incremental?.reused ?? [:]
        let cache = state.cache
        // The pages to map when the last build's output keeps others (nil: every page).
        let remade = reused.isEmpty ? nil : state.pages.filter { reused[$0.url] == nil }
        // A few pages (an edit since the last build) need the translations of those pages alone;
        // the preview keeps its mapper for any page.
        let translating = cache == nil ? remade.flatMap { $0.count < state.pages.count / 4 ? Set($0.map(\.translationKey)) : nil } : nil
        var mapper = PageMapper(
            mapper: ViewDataMapper(registry: state.registry, defaultShell: theme.defaultShell),
            contexts: Dictionary(uniqueKeysWithValues: languages.map { ($0.code, state.transformContext(for: $0.code)) }),
            languages: languages, pages: state.pages, translating: translating, selections: state.querySelections, menus: state.menus,
            origin: state.configuration.origin)
        mapper.taxonomies = state.configuration.taxonomies.map(\.name)
        mapper.mapper.componentDigests = state.pages.contains { ($0.outputs ?? state.configuration.outputs).contains("json") }
        mapper.data = state.data
        let pageMapper = mapper
        let diagnostics = state.diagnostics
        // The preview maps edited pages with it later: without this build's listed views.
        if cache != nil { state.pageMapper = pageMapper.forgettingListedViews() }
        let generation = cache?.generation(for: .init(
            configuration: state.configuration, theme: theme,
            schemas: state.registry.codes.compactMap { state.registry[$0]?.schema },
            links: state.links, buildDate: state.buildDate, translations: state.translations, menus: state.menus, data: state.data)) ?? 0
        if cache == nil && reused.isEmpty {
            // Once a page is mapped, its components live on in its view data: the parsed ones are
            // let go (queries stay, for feeds), so a large site's front matter trees and view data
            // are not all in memory at once. A preview keeps them to compare the next build.
            var pages = state.pages
            state.pages = []
            state.pageViews = ParallelMap.mapMutating(&pages) { page -> PageView? in
                let view = diagnostics.attempt(at: page.location) { try pageMapper.map(page) }
                page.sections = page.sections.map(\.withoutComponents)
                guard var view else { return nil }
                view.page.sections = page.sections
                return view
            }.compactMap { $0 }
            state.pages = pages
        } else {
            let selections = state.querySelections
            state.pageViews = ParallelMap.map(remade ?? state.pages) { page in
                // A page with a query section shows the pages it lists: its view stands while
                // they are the same pages, unchanged.
                if page.sections.contains(where: { $0.query != nil }) {
                    let listed = page.sections.indices.map { selections.pages(of: page, section: $0) }
                    if let view = cache?.listView(for: page, listed: listed, generation: generation) { return view }
                    return diagnostics.attempt(at: page.location) {
                        let view = try pageMapper.map(page)
                        cache?.store(view, listing: listed, generation: generation)
                        return view
                    }
                }
                if let view = cache?.view(for: page, generation: generation) { return view }
                return diagnostics.attempt(at: page.location) {
                    let view = try pageMapper.map(page)
                    cache?.store(view, generation: generation)
                    return view
                }
            }.compactMap { $0 }
        }
        cache?.retain(sourcePaths: Set(state.pages.map(\.sourcePath)), urls: Set(state.pages.map(\.url)))
    }

    public static let renderPages = BuildStep("render pages") { state in
        guard let templates = state.templates else { return }
        // A theme that fails to load would make every page fail the same way; report the cause once.
        guard !state.diagnostics.hasErrors else { return }
        let descriptions = state.registry.definitions.compactMapValues(\.schema.description)
        let languages = state.configuration.languages
        var renderer = PageRenderer(
            library: templates,
            sites: Dictionary(uniqueKeysWithValues: languages.map { ($0.code, state.siteData(for: $0.code)) }),
            translators: Dictionary(uniqueKeysWithValues: languages.map { ($0.code, state.transformContext(for: $0.code).translator) }),
            defaultLanguage: state.configuration.defaultLanguage.code,
            missingTranslations: state.configuration.missingTranslations,
            shellFieldNames: Set(state.registry.definitions.values.flatMap { $0.schema.fields.map(\.name) }),
            descriptions: descriptions, fingerprints: state.fingerprints, basePath: state.configuration.basePath)
        renderer.sharedItems = PageRenderer.SharedItems()
        let diagnostics = state.diagnostics
        let cache = state.cache
        let sources = cache == nil ? [:] : templates.sources
        cache?.noteTemplates(sources)
        let generation = state.theme.flatMap { theme in
            cache?.generation(for: .init(
                configuration: state.configuration, theme: theme,
                schemas: state.registry.codes.compactMap { state.registry[$0]?.schema },
                buildDate: state.buildDate, translations: state.translations, data: state.data))
        } ?? 0
        let fingerprints = state.fingerprints
        let outputs = state.configuration.outputs
        // The preview renders edited pages with it later: without this build's shared items.
        if cache != nil { state.pageRendering = (renderer.forgettingSharedItems(), sources, generation) }
        // Pages with `outputs: [json]` get no HTML.
        var htmlViews = state.pageViews.filter { ($0.page.outputs ?? outputs).contains("html") }
        // Without page JSON or a preview cache, nothing reads a page's view data after its HTML:
        // each is let go once rendered, so all the views are not in memory beside all the HTML.
        let keepViews = cache != nil || state.pageViews.contains { ($0.page.outputs ?? outputs).contains("json") }
        if !keepViews { state.pageViews = [] }
        // Each page's HTML becomes its output bytes at once: the text is not kept beside them.
        let render = { (view: PageView) -> (Page, PageRenderer.Result, OutputFile)? in
            if let reused = cache?.rendering(of: view, templates: sources, fingerprints: fingerprints, generation: generation) {
                return (view.page, reused.result, OutputFile(path: view.page.outputPath, contents: .data(reused.output)))
            }
            return diagnostics.attempt(at: view.page.location) {
                let (result, bytes) = try renderer.renderBytes(view)
                cache?.store(result, output: bytes, of: view, templates: sources, generation: generation)
                return (view.page, result, OutputFile(path: view.page.outputPath, contents: .data(bytes)))
            }
        }
        let results = keepViews ? ParallelMap.map(htmlViews, render) : ParallelMap.mapReleasing(&htmlViews, render)
        for case let (page, result, _)? in results where !result.warnings.isEmpty {
            result.warnings.forEach(diagnostics.report)
            state.warnedPages.insert(page.url)
        }
        var usedAssets = Set<String>()
        for case let (page, result, file)? in results {
            state.outputs.append(file)
            state.pageTemplates[page.url] = result.templates
            state.renderedPages[page.language, default: 0] += 1
            usedAssets.formUnion(result.assets.keys)
            if state.incremental != nil { state.pageAssets[page.url] = Array(result.assets.keys) }
        }
        // Pages kept from the last build still link their stylesheets and scripts.
        for record in state.incremental?.reused.values ?? [:].values { usedAssets.formUnion(record.assets) }
        // The fingerprinted copy of each stylesheet or script a page links that way.
        let originals = Dictionary(state.staticFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for name in usedAssets.sorted() {
            guard let entry = fingerprints.entries[name], let original = originals[name], originals[entry.path] == nil else { continue }
            state.staticFiles.append(OutputFile(path: entry.path, contents: original.contents))
        }
    }

    public static let writeOutput = BuildStep("write output") { state in
        try state.diagnostics.throwIfErrors()
        guard state.options.writesOutput else { return }
        let writer = state.outputWriter
        let files = state.outputs + state.staticFiles
        if state.options.updatesInPlace, let cache = state.cache {
            state.changedOutputs = try writer.update(files, cache: cache)
        } else if let incremental = state.incremental {
            state.changedOutputs = try incremental.write(files, with: writer)
            incremental.save(state: state)
        } else {
            try writer.write(files)
            state.changedOutputs = files.map(\.path)
        }
    }
}
