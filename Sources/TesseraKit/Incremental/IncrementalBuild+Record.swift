#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writing the build over the last one, and the record of it that the next build compares with.
extension IncrementalBuild {
    // MARK: Writing

    /// The build writes over the last one's folder, in place (else: a new folder swapped in).
    var updatesLastBuild: Bool {
        settleReference()
        return reference != nil
    }

    /// Writes the build: in place, file by file, when there is a previous build to update; else
    /// a whole new folder swapped in. Records what was written.
    func write(_ files: [OutputFile], with writer: OutputWriter, into staged: StagedOutput?) throws -> [String] {
        settleReference()
        let records: [String: BuildManifest.FileRecord]
        var changed: [String] = []
        if let reference {
            if structureKept {
                // Every file the last build wrote stays but those written again: pages, feeds,
                // redirects, the sitemap and the JSON index are the last build's.
                keptTotal = reference.files.count - Set(files.map(\.path)).union(dropped).count { reference.files[$0] != nil }
            }
            // An update that is interrupted leaves no manifest: the next build is a full one.
            unlink(manifestPath)
            let result = try writer.updateInPlace(files, previous: reference.files, keep: structureKept ? nil : Set(keptOutputs), drop: dropped)
            changed = result.changed
            // The last build's records, less the files removed, with those written: a kept file's
            // record is the last build's (a page edit writes a few files of thousands).
            var updated = reference.files
            for path in changed where result.records[path] == nil { updated[path] = nil }
            for (path, record) in result.records { updated[path] = record }
            records = updated
        } else {
            records = try (staged ?? StagedOutput(writer: writer, recording: true)).finish(files)
            changed = files.map(\.path)
        }
        current.files = records
        return changed
    }

    /// The page records of a build that writes a new folder, made on another core while the
    /// folder is finished: a page's record needs only which of its files are written, and such a
    /// build writes every file of `files` or fails. Nil when the build updates the last one's folder.
    func startPageRecords(site rendered: RenderedSite, context: BuildContext, writing files: [OutputFile]) -> SideResult<PageRecords>? {
        guard !updatesLastBuild else { return nil }
        return SideResult { [self] in
            let written = Set(files.lazy.map(\.path))
            return pageRecords(of: rendered, context: context) { written.contains($0) }
        }
    }

    /// Saves the record of a successful build; `pages`: its page records when they were made
    /// while it was written (`startPageRecords`).
    func save(site rendered: RenderedSite, context: BuildContext, pages made: SideResult<PageRecords>? = nil) {
        let routed = rendered.mapped.routed
        let publishingDates = routed.loaded.content.publishingDates
        let buildDate = routed.buildDate.timeIntervalSince1970
        current.buildDate = buildDate
        // A build that never asked the highlighter (no code, none kept) wrote nothing it made.
        let highlighter = routed.loaded.configured.highlighter
        current.highlight = highlighter?.isResolved == true ? Self.highlightDigest(highlighter) : 0
        let relative = DateForms.shared.relativeForms(buildDate: buildDate)
        current.relativeDates = relative.forms
        let templates = routed.loaded.templates.sources.values.contains { $0.contains("buildDate") }
        current.readsBuildDate = templates || !relative.complete
        current.publishedFrom = publishingDates.map(\.timeIntervalSince1970).filter { $0 <= buildDate }.max() ?? -.infinity
        current.publishedUntil = publishingDates.map(\.timeIntervalSince1970).filter { $0 > buildDate }.min() ?? .infinity
        let tally = routed.loaded.content
        current.skippedDrafts = tally.skippedDrafts
        current.skippedFuture = tally.skippedFuture
        current.skippedExpired = tally.skippedExpired
        current.staticFiles = routed.staticFiles.count
        current.warnings = context.diagnostics.diagnostics.count { $0.severity == .warning }
        current.builtPages = rendered.pageTemplates.count + reused.values.count(where: \.html)
        current.builtFiles = rendered.outputs.count + routed.staticFiles.count + keptOutputCount
        current.languagePages = context.reuse.languagePageCounts(of: rendered)
        let files = current.files
        let records = made?.value ?? pageRecords(of: rendered, context: context) { files[$0] != nil }
        current.pages = records.pages
        try? current.write(to: manifestPath, pagesText: records.changed ? nil : recordedPagesText)
    }

    /// The record of every page: the last build's, with those of the pages built this time (a
    /// kept page's record is the last build's), and whether any differs from the last build's.
    typealias PageRecords = (pages: [String: BuildManifest.PageRecord], changed: Bool)

    /// `PageRecords` of the build, where `isWritten` tells which output files the build has.
    private func pageRecords(of rendered: RenderedSite, context: BuildContext, isWritten: (String) -> Bool) -> PageRecords {
        let sitePages = rendered.mapped.routed.loaded.pages, warnedPages = rendered.warnedPages
        var pages = reference?.pages ?? [:]
        var changed = reference == nil
        /// The record of a page built this time, nil for a page of no content file.
        func record(of page: Page) -> BuildManifest.PageRecord? {
            guard let source = Self.source(of: page, site: context.siteDirectory) else { return nil }
            let outputs = ([page.outputPath, page.jsonOutputPath] + (rendered.pageFiles[page.url] ?? [])).filter(isWritten)
            return BuildManifest.PageRecord(
                source: source, outputs: outputs, assets: (rendered.pageAssets[page.url] ?? []).sorted(), html: isWritten(page.outputPath))
        }
        if structureKept {
            // The last build's pages, whose records stand but for those built again; one with
            // warnings now is not recorded (the next build makes it again).
            for page in sitePages where reused[page.url] == nil {
                let made = warnedPages.contains(page.url) ? nil : record(of: page)
                if pages[page.url] != made { changed = true }
                pages[page.url] = made
            }
        } else {
            var recorded = 0
            for page in sitePages where warnedPages.isEmpty || !warnedPages.contains(page.url) {
                if reused[page.url] != nil {
                    recorded += 1
                    continue
                }
                guard let made = record(of: page) else {
                    if pages.removeValue(forKey: page.url) != nil { changed = true }
                    continue
                }
                recorded += 1
                if pages.updateValue(made, forKey: page.url) != made { changed = true }
            }
            if pages.count != recorded {
                // Pages gone since the last build, or with warnings now.
                let urls = Set(sitePages.lazy.filter { !warnedPages.contains($0.url) }.map(\.url))
                pages = pages.filter { urls.contains($0.key) }
                changed = true
            }
        }
        return (pages, changed)
    }

    // MARK: Helpers

    /// The file a page is made from, relative to the site: its content file, or `site.yml` for
    /// the term pages a taxonomy makes. Nil for anything else (never kept).
    static func source(of page: Page, site: String) -> String? {
        guard page.sourcePath.hasPrefix(site + "/") else { return nil }
        let relative = String(page.sourcePath.dropFirst(site.count + 1))
        return relative.hasPrefix("content/") || relative == "site.yml" ? relative : nil
    }

    /// Whether `path` is `site/relative`, without making that path.
    static func isFile(_ path: String, site: String, relative: String) -> Bool {
        guard path.utf8.count == site.utf8.count + 1 + relative.utf8.count else { return false }
        // Byte comparisons in the strings' own storage (generic ones were a tenth of planning).
        var path = path, site = site, relative = relative
        return path.withUTF8 { whole in
            site.withUTF8 { prefix in
                relative.withUTF8 { suffix in
                    whole[prefix.count] == UInt8(ascii: "/")
                        && (prefix.isEmpty || memcmp(whole.baseAddress!, prefix.baseAddress!, prefix.count) == 0)
                        && (suffix.isEmpty || memcmp(whole.baseAddress! + prefix.count + 1, suffix.baseAddress!, suffix.count) == 0)
                }
            }
        }
    }

    /// The running engine: its version and its executable, so a rebuilt Tessera never reuses what
    /// an older build of it made.
    static let engineIdentity: String = {
        let record = BuildManifest.FileRecord.current("/proc/self/exe") ?? FileRecord.current(CommandLine.arguments.first ?? "")
        return "Tessera \(Tessera.version) \(record.map { "\($0.size) \($0.modified) \($0.inode)" } ?? "unknown")"
    }()
    typealias FileRecord = BuildManifest.FileRecord

    /// The digest of a file's bytes, and of its structure (`structureDigest`).
    static func digests(of data: Data, path: String) -> (digest: UInt64, structure: UInt64) {
        let digest = StableDigest.of(data)
        return (digest, structureDigest(of: data, path: path, whole: digest))
    }

    /// What other pages can see of a file: a Markdown file's front matter as the build reads it
    /// (`FrontMatter.locate`), the text its summary is made from when front matter has none
    /// (`MarkdownSummary.source`) and what of its body makes ids or links to ids
    /// (`FragmentCheck.structure`); any other file — or a Markdown file without a closed front
    /// matter — whole.
    ///
    /// `summaryKey`: whether the front matter has a `summary` key, when the caller parsed it
    /// already (the loader, from the same bytes); nil parses it here when a line starts with
    /// `summary`. The digest is the same either way.
    static func structureDigest(of data: Data, path: String, whole: UInt64, summaryKey: Bool? = nil) -> UInt64 {
        let lowercased = path.lowercased()
        guard lowercased.hasSuffix(".md") || lowercased.hasSuffix(".markdown") else { return whole }
        return data.withUnsafeBytes { raw -> UInt64 in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard case .found(let yaml, let bodyStart) = FrontMatter.locate(bytes) else { return whole }
            var digest = StableDigest()
            digest.combine(UnsafeRawBufferPointer(rebasing: raw[0..<bodyStart]))
            // Without `summary:`, lists show the summary made from the body. A front matter with
            // a line starting `summary` is parsed, as the build does, to be sure (any doubt counts
            // as without); one with none has no such key.
            let mentionsSummary = yaml.contains { raw[$0].starts(with: "summary".utf8) }
            if !mentionsSummary || !(summaryKey ?? ((try? YAMLParser.parseMapping(
                yaml.map { String(decoding: UnsafeRawBufferPointer(rebasing: raw[$0]), as: UTF8.self) }.joined(separator: "\n"),
                file: path, what: "front matter"))?["summary"] != nil)) {
                digest.combine(MarkdownSummary.source(of: String(decoding: UnsafeRawBufferPointer(rebasing: raw[bodyStart...]), as: UTF8.self)))
            }
            // Other pages link to the body's ids, and its links name theirs.
            FragmentCheck.structure(ofBody: UnsafeBufferPointer(rebasing: bytes[bodyStart...])).withUnsafeBytes { digest.combine($0) }
            return digest.value
        }
    }

    /// True when every value printed from the build date reads the same at `buildDate`.
    static func buildDateAllows(_ previous: BuildManifest, buildDate: Date) -> Bool {
        let now = buildDate.timeIntervalSince1970
        if now == previous.buildDate { return true }
        guard !previous.readsBuildDate, previous.publishedFrom <= now, now < previous.publishedUntil else { return false }
        return previous.relativeDates.allSatisfy { entry in
            guard let zone = TimeZone(identifier: entry.timeZone) else { return false }
            let context = TransformContext(locale: Locale(identifier: entry.locale), timeZone: zone, buildDate: buildDate, markdown: MarkdownRenderer(), links: LinkResolver())
            return DateTransformer.relative(Date(timeIntervalSince1970: entry.date), context: context, hasTime: entry.hasTime) == entry.text
        }
    }
}
