import Foundation

/// The rendering stage: each page's view data through its layout and shells into HTML bytes.
enum RenderStage {
    static func render(_ mapped: consuming MappedSite, context: BuildContext) throws -> RenderedSite {
        var site = RenderedSite(mapped: mapped)
        let routed = site.mapped.routed
        let templates = routed.loaded.templates
        let diagnostics = context.diagnostics
        // A theme that fails to load would make every page fail the same way; report the cause once.
        guard !diagnostics.hasErrors else { return site }
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
        renderer.sharedItems = PageRenderer.SharedItems()
        let pageRenderer = renderer
        // A new output folder is filled as pages are rendered: the disk works while the cores render.
        let output = try context.reuse.openOutput(for: routed, context: context)
        let memo = context.reuse.renderingMemo(for: routed, renderer: pageRenderer)
        let outputs = routed.configuration.outputs
        // Pages with `outputs: [json]` get no HTML.
        var htmlViews = site.mapped.views.filter { ($0.page.outputs ?? outputs).contains("html") }
        // Without page JSON or a preview cache, nothing reads a page's view data after its HTML:
        // each is let go once rendered, so all the views are not in memory beside all the HTML.
        let keepViews = context.reuse.remembersPages || site.mapped.views.contains { ($0.page.outputs ?? outputs).contains("json") }
        if !keepViews { site.mapped.views = [] }
        // Each page's HTML becomes its output bytes at once: the text is not kept beside them.
        let render = { (view: PageView) -> (Page, PageRenderer.Result, OutputFile)? in
            diagnostics.attempt(at: view.page.location) {
                let (result, bytes) = try memo.page(view) { try pageRenderer.renderBytes(view) }
                let file = OutputFile(path: view.page.outputPath, contents: .data(bytes))
                output?.add(file)
                return (view.page, result, file)
            }
        }
        let results = keepViews ? ParallelMap.map(htmlViews, render) : ParallelMap.mapReleasing(&htmlViews, render)
        for case let (page, result, _)? in results where !result.warnings.isEmpty {
            result.warnings.forEach(diagnostics.report)
            site.warnedPages.insert(page.url)
        }
        let recordsAssets = context.reuse.recordsPageAssets
        var usedAssets = Set<String>()
        site.outputs.reserveCapacity(results.count)
        for case let (page, result, file)? in results {
            site.outputs.append(file)
            site.pageTemplates[page.url] = result.templates
            site.renderedPages[page.language, default: 0] += 1
            usedAssets.formUnion(result.assets.keys)
            if recordsAssets { site.pageAssets[page.url] = Array(result.assets.keys) }
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
}
