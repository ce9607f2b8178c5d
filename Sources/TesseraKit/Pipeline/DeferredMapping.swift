import Foundation

/// The view data of a full build's pages, made as each page is rendered rather than all before
/// the first: a page's view data is in memory only from its mapping until its HTML and JSON are
/// made, so a large site never holds every page's at once (100,000 tagged posts held 1.4 GB).
///
/// The mapping stage hands this on instead of `views` when nothing needs every view at once: not
/// the preview (it keeps the views to compare the next build with), not a build that keeps pages
/// from the last one, and not a pipeline with a step over the mapped site (it reads `views`).
public struct DeferredMapping: Sendable {
    let mapper: PageMapper

    /// The view data of `page`, or nil when a component failed (reported to `diagnostics`). Its
    /// parsed components are let go: they live on in the view data.
    func view(of page: inout Page, diagnostics: DiagnosticCollector) -> PageView? {
        let view = diagnostics.attempt(at: page.location) { [mapper] in try mapper.map(page) }
        // A page without components is left as it is: changing it would copy its fields
        // (the lists' copies share them), which 100,000 posts held to the end for nothing.
        guard page.sections.contains(where: \.hasComponents) else { return view }
        page.sections = page.sections.map(\.withoutComponents)
        guard var view else { return nil }
        view.page.sections = page.sections
        return view
    }
}
