import Foundation

/// The routing stage's product: every file beside the pages (the theme's and site's `static/`,
/// assets beside content), checked against the pages' paths, and the links between them all.
enum RouteStage {
    /// Site files first: a file in the site's `static/` or beside content hides the theme's.
    static func collectStaticFiles(_ loaded: consuming LoadedSite, context: BuildContext) -> RoutedSite {
        let loaded = copy loaded
        let theme = loaded.theme, site = context.siteDirectory
        let contentFiles = loaded.content.assets.map { OutputFile(path: $0, contents: .copy(from: site + "/content/" + $0)) }
        var byPath = Dictionary(contentFiles.map { ($0.path, $0) }, uniquingKeysWith: { first, _ in first })
        for (relative, path) in theme.files(in: .static, problems: context.diagnostics) where byPath[relative] == nil {
            byPath[relative] = OutputFile(path: relative, contents: .copy(from: path))
        }
        let pageURLs = Set(loaded.pages.map(\.url))
        OutputPathClashes.amongPages(loaded.pages, site: site).forEach(context.diagnostics.report)
        let pagesByURL = Dictionary(loaded.pages.map { ($0.url, $0) }, uniquingKeysWith: { first, _ in first })
        func source(of file: OutputFile) -> String {
            guard case .copy(let from) = file.contents else { return file.path }
            if from.hasPrefix(site + "/") { return String(from.dropFirst(site.count + 1)) }
            // The built-in theme is unpacked outside the site: named, not by that folder.
            if from.hasPrefix(theme.directory + "/") { return "\(from.dropFirst(theme.directory.count + 1)) of the theme \(loaded.configuration.theme)" }
            return from
        }
        // A few static files against thousands of pages: each file's path is looked up among the
        // pages' (`a/index.html` is the page `/a/` or `/a/index.html`, `404.html` is `/404.html`),
        // and so is each folder it is in or would be (a page `/a.html/` writes into `a.html/`).
        for path in byPath.keys.sorted() {
            let folder = path == "index.html" ? "/" : path.hasSuffix("/index.html") ? "/" + path.dropLast("index.html".count) : nil
            if path.hasSuffix(".html"), let page = pagesByURL["/" + path] ?? folder.flatMap({ pagesByURL[$0] }) {
                context.diagnostics.report(Diagnostic(
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
            context.diagnostics.report(Diagnostic(
                .error, "the static file \(source(of: byPath[path]!)) and the page \(url) need the same name, one for a file and one for a folder",
                at: OutputPathClashes.urlLocation(of: page), hint: "rename the static file, or give the page another `slug:`"))
        }
        let staticFiles = byPath.values.sorted { $0.path < $1.path }
        let failed = loaded.content.failedPageURLs
        let links = LinkResolver(
            basePath: loaded.configuration.basePath,
            // With the last build's structure kept, the later pages of its lists are not made again.
            pageURLs: pageURLs.union(failed.map(\.url) + (context.reuse.keptPageURLs)),
            pageReferences: Dictionary(loaded.pages.map { ($0.relativePath, $0.url) } + failed.map { ($0.reference, $0.url) }, uniquingKeysWith: { first, _ in first }),
            files: Set(staticFiles.map(\.path)),
            fileSources: Dictionary(staticFiles.compactMap { file in
                if case .copy(let source) = file.contents { return (file.path, source) }
                return nil
            }, uniquingKeysWith: { first, _ in first }))
        var routed = RoutedSite(loaded: loaded, staticFiles: staticFiles, links: links)
        let basePath = loaded.configuration.basePath
        for page in loaded.pages where page.layout == "search" && page.pagination == nil && routed.searchPages[page.language] == nil {
            routed.searchPages[page.language] = basePath + page.url.dropFirst()
        }
        return routed
    }
}
