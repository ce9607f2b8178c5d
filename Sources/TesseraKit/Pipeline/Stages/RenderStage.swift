import CAllocation
import Foundation

/// The rendering stage: each page's view data through its layout and shells into HTML bytes, and
/// into its JSON for pages that have one.
enum RenderStage {
    static func render(_ mapped: consuming MappedSite, context: BuildContext) throws -> RenderedSite {
        var site = RenderedSite(mapped: mapped)
        // Once the pages are rendered, or failed, none asks for a block lexed ahead.
        let highlighter = site.mapped.routed.configured.highlighter
        defer { highlighter?.endLexingAhead() }
        let diagnostics = context.diagnostics
        // A theme that fails to load would make every page fail the same way; report the cause once.
        guard !diagnostics.hasErrors else {
            // Pages not mapped yet still are, for their problems: a build reports every one.
            if let deferred = site.mapped.deferred {
                _ = ParallelMap.mapMutating(&site.mapped.routed.loaded.pages) { deferred.view(of: &$0, diagnostics: diagnostics) != nil }
            }
            return site
        }
        // Pages mapped as they render are taken out of the site first, so that nothing else holds
        // them while each lets its parsed components go.
        let deferred = site.mapped.deferred
        site.mapped.deferred = nil
        var deferredPages: [Page] = []
        if deferred != nil { swap(&deferredPages, &site.mapped.routed.loaded.pages) }
        let routed = site.mapped.routed
        let templates = routed.loaded.templates
        let components = routed.loaded.components
        let languages = routed.configuration.languages
        var renderer = PageRenderer(
            library: templates,
            sites: Dictionary(uniqueKeysWithValues: languages.map { ($0.code, routed.siteData(for: $0.code)) }),
            translators: Dictionary(uniqueKeysWithValues: languages.map { ($0.code, routed.transformContext(for: $0.code).translator) }),
            defaultLanguage: routed.configuration.defaultLanguage.code,
            missingTranslations: routed.configuration.missingTranslations,
            shellFieldNames: Set(components.definitions.values.flatMap { $0.schema.fields.map(\.name) }),
            descriptions: components.definitions.compactMapValues(\.schema.description),
            fingerprints: routed.fingerprints, basePath: routed.configuration.basePath)
        renderer.pictures = PictureHelper(images: routed.configured.images, links: routed.links)
        renderer.sharedItems = PageRenderer.SharedItems()
        let pageRenderer = renderer
        // A new output folder is filled as pages are rendered: the disk works while the cores render.
        let output = try context.reuse.openOutput(for: routed, context: context)
        let memo = context.reuse.renderingMemo(for: routed, renderer: pageRenderer)
        let outputs = routed.configuration.outputs
        // Each page's JSON is encoded with its HTML, so its view data can go once both are made.
        let wantsJSON = { (page: Page) in (page.outputs ?? outputs).contains("json") }
        let documentWriter = (deferred == nil ? site.mapped.views.contains { wantsJSON($0.page) } : deferredPages.contains(where: wantsJSON))
            ? PageDocument(site: routed, pages: deferred == nil ? routed.loaded.pages : deferredPages) : nil
        if let documentWriter { context.reuse.keepForEdits(documents: documentWriter) }
        site.documentWriter = documentWriter
        var views = site.mapped.views
        // The preview keeps the views to compare the next build with; otherwise each is let go
        // once its page is made, so all the views are not in memory beside all the output.
        let keepViews = context.reuse.remembersPages
        if !keepViews { site.mapped.views = [] }
        let reuse = context.reuse
        // Mapped as they render, pages' rendering problems count only when every page mapped,
        // as when all are mapped before the first renders: they are kept aside until then.
        let rendering = deferred == nil ? diagnostics : DiagnosticCollector()
        /// A file made: handed to the new output folder when there is one, which writes it now.
        func made(_ file: OutputFile) -> OutputFile { output?.add(file) ?? file }
        let progress = context.options.progress
        // Each page's search document is made from its view as it renders, while the view is here.
        let search = routed.configuration.search
        let searchDocument = { (view: PageView) -> SearchDocument? in
            guard search.enabled else { return nil }
            // A preview rebuild makes only the documents of pages whose view changed.
            return reuse.searchDocument(for: view) {
                SearchDocument.make(
                    view, registry: components, options: search, outputs: outputs, basePath: routed.configuration.basePath, timeZone: routed.configuration.timeZone)
            }
        }
        // Each page's Markdown goes once the page is made (the page keeps its word count),
        // unless something reads it later: full-content feeds, the preview's next edit, or the
        // caller (`keepsPageBodies`). The pages of a paginated list share their body, and each
        // renders it: theirs stays.
        let releasesBodies = !context.options.keepsPageBodies && !keepViews && !routed.configuration.feeds.fullContent
        // What each page's rendering found is kept until every page is made: equal sets of
        // templates and of assets (most pages') once.
        let templateSets = Interner<Set<String>>(), assetSets = Interner<[String: AssetFingerprints.Entry]>()
        progress?.expectPages(deferred == nil ? views.count : deferredPages.count)
        let render = { (view: PageView) -> RenderedPage? in
            defer { progress?.pageDone() }
            let wanted = view.page.outputs ?? outputs
            var html: (PageRenderer.Result, OutputFile)?
            if wanted.contains("html") {
                // Each page's HTML becomes its output bytes at once: the text is not kept beside them.
                html = rendering.attempt(at: view.page.location) {
                    var (result, bytes) = try memo.page(view, isCurrent: { pageRenderer.picturesAreCurrent($0, of: view) }) { try pageRenderer.renderBytes(view) }
                    result.templates = templateSets.intern(result.templates)
                    result.assets = assetSets.intern(result.assets)
                    return (result, made(OutputFile(path: view.page.outputPath, contents: .data(bytes))))
                }
                if html == nil { return nil }
            }
            var json: OutputFile?
            var sections: [OutputFile] = []
            if let documentWriter, wanted.contains("json") {
                // A preview rebuild re-encodes only pages whose view changed.
                json = made(OutputFile(path: view.page.jsonOutputPath, contents: .data(reuse.document(for: view) { documentWriter.bytes(for: view) })))
                if view.sections.contains(where: { $0.published != nil }) { sections = documentWriter.sectionDocuments(for: view).map(made) }
            }
            let rendered = RenderedPage(
                page: view.page, html: html, json: json, fragments: view.fragments, warnings: view.warnings, unhighlighted: view.unhighlighted,
                images: view.images + sections.map(\.path), search: searchDocument(view), files: sections)
            if releasesBodies, view.page.pagination == nil { view.page.releaseBody() }
            return rendered
        }
        var results: [RenderedPage?]
        if let deferred {
            // A build that lexes every page's code ahead renders the pages without code first:
            // until the workers have started and compiled their grammars' queries (0.3 s for
            // Swift's), a renderer that reached a page with code would wait for them.
            let order = routed.configured.highlighter?.renderingOrder(deferredPages.map(\.body))
            results = ParallelMap.mapMutating(&deferredPages, order: order) { page in deferred.view(of: &page, diagnostics: diagnostics).flatMap(render) }
            swap(&deferredPages, &site.mapped.routed.loaded.pages)
            reuse.mapped(site.mapped.routed.loaded.pages)
            guard !diagnostics.hasErrors else { return site }
            rendering.diagnostics.forEach(diagnostics.report)
        } else {
            results = keepViews ? ParallelMap.map(views, render) : ParallelMap.mapReleasing(&views, render)
        }
        // Warnings of mapping and rendering; a page with any is not kept by the next build.
        var unhighlighted = false
        for case let page? in results {
            let warnings = page.warnings + (page.html?.result.warnings ?? [])
            unhighlighted = unhighlighted || page.unhighlighted
            guard !warnings.isEmpty || page.unhighlighted else { continue }
            warnings.forEach(diagnostics.report)
            site.warnedPages.insert(page.page.url)
        }
        if unhighlighted, let highlighter = routed.configured.highlighter {
            diagnostics.report(Diagnostic(
                .warning, "code blocks are shown without colours: \(highlighter.unavailable ?? "the highlighter is missing")",
                hint: "install Pygments with `\(CodeHighlighter.installCommand)` (or set TESSERA_PYTHON to a Python that has it); `markdown: {highlight: false}` in site.yml writes code plain without this warning"))
        }
        let recordsAssets = context.reuse.recordsPageAssets
        var usedAssets = Set<String>()
        site.outputs.reserveCapacity(results.count)
        site.pageIDs = checkFragments(of: results.compactMap { $0.map { ($0.page.url, $0.html?.result.ids, $0.fragments) } }, context: context)
        for case let (page, html, json, images, search, sections)? in results.lazy.map({ $0.map { ($0.page, $0.html, $0.json, $0.images, $0.search, $0.files) } }) {
            if let json { site.documents.append((page, json)) }
            site.outputs.append(contentsOf: sections)
            if let search { site.searchDocuments.append(search) }
            let pictured = html?.result.pictures.flatMap(\.files) ?? []
            if !images.isEmpty || !pictured.isEmpty { site.pageFiles[page.url] = pictured.isEmpty ? images : Array(Set(images + pictured)).sorted() }
            guard let (result, file) = html else { continue }
            site.outputs.append(file)
            site.pageTemplates[page.url] = result.templates
            site.renderedPages[page.language, default: 0] += 1
            usedAssets.formUnion(result.assets.keys)
            if recordsAssets { site.pageAssets[page.url] = Array(result.assets.keys) }
        }
        // What each page left is in `site` now. Rendering freed far more than the steps after
        // it hold (each page's Markdown, views and HTML); given back, those steps do not sit on
        // top of it: 100,000 tagged posts held 1.1–1.3 GB through rendering, and peaked above
        // 1.5 GiB in the steps after it. Only when a quarter of a gigabyte is free: a smaller
        // build would pay for its pages being faulted in again.
        results = []
        _ = tessera_return_free_memory(256 << 20)
        // The search index is made on another core while images and the next steps are made on this one.
        site.searchIndexAhead = SearchIndex.Ahead.start(for: site, context: context)
        // The images the pages show, once every one is made.
        if let images = routed.configured.images {
            progress?.begin(step: "make images")
            do {
                for file in try images.finish() { site.outputs.append(made(file)) }
            } catch {
                diagnostics.report(error)
            }
        }
        // Pages kept from the last build still link their stylesheets and scripts.
        for record in context.reuse.keptPages.values { usedAssets.formUnion(record.assets) }
        // The fingerprinted copy of each stylesheet or script a page links that way.
        let originals = Dictionary(routed.staticFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for name in usedAssets.sorted() {
            guard let entry = routed.fingerprints.entries[name], let original = originals[name], originals[entry.path] == nil else { continue }
            site.mapped.routed.staticFiles.append(OutputFile(path: entry.path, contents: original.contents))
        }
        return site
    }

    /// What rendering made of one page, and what its mapping had to say.
    private struct RenderedPage {
        var page: Page
        var html: (result: PageRenderer.Result, file: OutputFile)?
        var json: OutputFile?
        var fragments: [FragmentLink]
        var warnings: [Diagnostic]
        var unhighlighted: Bool
        /// The image files it shows and its published sections' JSON: outputs of the page.
        var images: [String]
        var search: SearchDocument?
        /// Its published sections' JSON.
        var files: [OutputFile] = []
    }

    /// Each link to an id names one its page has. A build that keeps pages from the last one
    /// keeps every page's ids and links as they were (a body edit that could change either
    /// takes a full build: `FragmentCheck.structure`), and they were checked then.
    /// The pages' ids, by URL, when the preview keeps them for its next edit.
    private static func checkFragments(of pages: [(url: String, ids: [String]?, fragments: [FragmentLink])], context: BuildContext) -> [String: Set<String>]? {
        let keepsIDs = context.reuse.remembersPages
        guard context.reuse.keptPages.isEmpty, keepsIDs || pages.contains(where: { !$0.fragments.isEmpty }) else { return nil }
        var ids: [String: Set<String>] = [:]
        for page in pages { if let known = page.ids { ids[page.url] = Set(known) } }
        for page in pages { FragmentCheck.problems(page.fragments, ids: ids).forEach(context.diagnostics.report) }
        return keepsIDs ? ids : nil
    }
}
