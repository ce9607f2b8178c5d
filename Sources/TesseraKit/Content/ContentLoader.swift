import Foundation

/// Reads `content/`: every Markdown and feed file becomes a page; every other file is an asset
/// copied beside its pages (a cover image next to `index.md`).
struct ContentLoader {
    var directory: String
    var timeZone: TimeZone
    var includeDrafts: Bool
    var cache: BuildCache?
    var languages: [SiteLanguage] = [SiteLanguage(code: "en", isDefault: true)]

    struct Result: Sendable {
        var pages: [Page]
        /// Relative paths of files copied as they are.
        var assets: [String]
        var skippedDrafts: Int
    }

    func load(into diagnostics: DiagnosticCollector) -> Result {
        let files = FileTree.files(in: directory)
        let pageFiles = files.filter { PageParser.contentExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        let assets = files.filter { !PageParser.contentExtensions.contains(($0 as NSString).pathExtension.lowercased()) }
        let parser = PageParser(timeZone: timeZone, languages: languages)
        let parsed = ParallelMap.map(pageFiles) { relative -> Page? in
            let path = directory + "/" + relative
            return diagnostics.attempt(at: SourceLocation(file: path)) {
                let text = try FileTree.readText(path)
                if let page = cache?.page(for: path, text: text) { return page }
                let page = try parser.parse(text: text, sourcePath: path, relativePath: relative)
                cache?.store(page, for: path, text: text)
                return page
            }
        }
        var pages: [Page] = []
        var drafts = 0
        var byURL: [String: Page] = [:]
        for case let page? in parsed {
            if page.draft && !includeDrafts {
                drafts += 1
                continue
            }
            PageParser.lookalikeWarnings(page).forEach(diagnostics.report)
            if let other = byURL[page.url] {
                diagnostics.report(Diagnostic(
                    .error, "two pages have the URL \(page.url): this one and \(other.relativePath)", at: page.location,
                    hint: "rename one of the files or give one a different `slug:`"))
                continue
            }
            byURL[page.url] = page
            pages.append(page)
        }
        return Result(pages: pages, assets: assets, skippedDrafts: drafts)
    }
}
