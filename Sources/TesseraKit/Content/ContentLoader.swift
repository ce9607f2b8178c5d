import Foundation

/// Reads `content/`: every Markdown and feed file becomes a page; every other file is an asset
/// copied beside its pages (a cover image next to `index.md`).
struct ContentLoader {
    var directory: String
    /// Symbolic links must lead below this folder; nil follows them anywhere.
    var boundary: String?
    var timeZone: TimeZone
    var includeDrafts: Bool
    /// Pages dated after this are left out unless `includeFuture`; pages whose `expires:` has
    /// passed are always left out.
    var now: Date = .distantFuture
    var includeFuture = false
    var permalinks: [Permalink] = []
    var cache: BuildCache?
    var languages: [SiteLanguage] = [SiteLanguage(code: "en", isDefault: true)]
    /// The `data/` files, for generator files.
    var data = SiteData()
    /// The files of `content/` as the build cache's check just listed them, if it did.
    var listing: [String]?
    /// Pages an earlier build parsed, used for files whose bytes are the ones they were parsed from.
    var stored: StoredPages?
    /// Takes the digests of files new to the build's record from this read of them.
    var digests: LoadedDigests?

    struct Result: Sendable {
        var pages: [Page]
        /// Relative paths of files copied as they are.
        var assets: [String]
        var skippedDrafts: Int
        var skippedFuture = 0
        var skippedExpired = 0
        /// URLs of the page files that failed to parse: they exist, so links to them are not
        /// reported as broken on top of the file's own error.
        var failedPageURLs: [(reference: String, url: String)] = []
        /// Dates (unless future pages are included) and expiry dates of every page but drafts:
        /// the build dates at which the set of published pages changes.
        var publishingDates: [Date] = []
    }

    /// The files of `content/`: the listing the build cache's check made for this build; in the
    /// preview, the last listing when a watcher saw nothing appear or go, else a folder without
    /// symbolic links listed through directory handles (kept for next time).
    private func listFiles(problems: DiagnosticCollector) -> [String] {
        if let listing { return listing }
        guard let cache else { return FileTree.files(in: directory, boundary: boundary, problems: problems) }
        if let files = cache.watchedListing(of: directory) { return files }
        guard let walk = FileTree.statWalk(directory) else { return FileTree.files(in: directory, boundary: boundary, problems: problems) }
        let files = walk.map(\.relative)
        cache.storeWatchedListing(files, of: directory)
        return files
    }

    var summaryLength = MarkdownSummary.defaultLength
    var markdown = SiteConfiguration.MarkdownOptions()

    var parser: PageParser {
        PageParser(timeZone: timeZone, languages: languages, permalinks: permalinks, summaryLength: summaryLength, markdown: markdown)
    }

    func load(into diagnostics: DiagnosticCollector) -> Result {
        let files = listFiles(problems: diagnostics)
        var pageFiles: [String] = [], assets: [String] = []
        pageFiles.reserveCapacity(files.count)
        for file in files {
            if PageParser.contentExtensions.contains(PathText.pathExtension(file).lowercased()) {
                pageFiles.append(file)
            } else {
                assets.append(file)
            }
        }
        let parser = self.parser
        let data = self.data
        let parsed = ParallelMap.map(pageFiles) { relative -> [Page]? in
            let path = directory + "/" + relative
            return diagnostics.attempt(at: SourceLocation(file: path)) {
                if let page = cache?.unchangedPage(for: path, parser: parser) { return [page] }
                if let pages = stored?.pages(for: relative, sourcePath: path) { return pages }
                let bytes = try FileTree.readData(path)
                let digest = stored == nil && digests == nil ? 0 : StableDigest.of(bytes)
                // The digests of what was read, with the pages made of it.
                func made(_ pages: [Page]) -> [Page] {
                    digests?.read(relative, bytes: bytes, digest: digest, pages: pages)
                    return pages
                }
                let text = try FileTree.decode(bytes, file: path)
                if let page = cache?.page(for: path, text: text, parser: parser) { return made([page]) }
                // A feed file whose root is `generate:` makes a page per record of a data file.
                if !["md", "markdown"].contains(PathText.pathExtension(relative).lowercased()),
                   text.hasPrefix("generate:") || text.contains("\ngenerate:"),
                   let generator = try PageGenerator.parse(try YAMLParser.parseMapping(text, file: path, what: "a generator file")) {
                    let result = generator.pages(data: data, parser: parser, sourcePath: path, relativePath: relative)
                    result.problems.forEach(diagnostics.report)
                    return made(result.pages)
                }
                let page = try parser.parse(text: text, sourcePath: path, relativePath: relative)
                cache?.store(page, for: path, text: text, parser: parser)
                stored?.store([page], for: relative, digest: digest)
                return made([page])
            }
        }
        var failed: [(String, String)] = []
        for (relative, page) in zip(pageFiles, parsed) where page == nil {
            let (path, code) = PageParser.splitLanguage(relative, known: languages.map(\.code))
            let prefix = languages.first { $0.code == code }?.urlPrefix ?? ""
            failed.append((relative, prefix + PageParser.url(for: path, slug: nil)))
        }
        var pages: [Page] = []
        pages.reserveCapacity(parsed.count)
        var drafts = 0, future = 0, expired = 0
        // URL → the index of the page that has it.
        var byURL: [String: Int] = [:]
        byURL.reserveCapacity(parsed.count)
        var publishingDates: [Date] = []
        for page in parsed.compactMap({ $0 }).joined() {
            if page.draft && !includeDrafts {
                drafts += 1
                continue
            }
            if let date = page.date, !includeFuture { publishingDates.append(date) }
            if let expires = page.expires { publishingDates.append(expires) }
            if let date = page.date, date > now, !includeFuture {
                future += 1
                continue
            }
            if let expires = page.expires, expires <= now {
                expired += 1
                continue
            }
            PageParser.lookalikeWarnings(page).forEach(diagnostics.report)
            if let other = byURL[page.url] {
                // Each side where its URL is decided: its `slug:` line, or its file.
                let site = PathText.folder(directory)
                diagnostics.report(Diagnostic(
                    .error, "two pages have the URL \(page.url): this one and \(OutputPathClashes.urlLocation(of: pages[other]).described(relativeTo: site))",
                    at: OutputPathClashes.urlLocation(of: page), hint: "rename one of the files or give one a different `slug:`"))
                continue
            }
            byURL[page.url] = pages.count
            pages.append(page)
        }
        return Result(pages: pages, assets: assets, skippedDrafts: drafts, skippedFuture: future, skippedExpired: expired, failedPageURLs: failed, publishingDates: publishingDates)
    }
}
