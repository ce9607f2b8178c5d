#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// How `tessera build` reuses the previous build of the same output folder.
///
/// - Nothing changed (same inputs, same engine, the output folder as it was left, and no printed
///   value depends on the new build date): nothing is parsed, rendered or written.
/// - Only page bodies changed (every file's front matter, the theme, configuration and data as
///   before): a page whose file did not change keeps its HTML and JSON, lists included (a list
///   shows the front matter of the pages it lists, never their bodies); the sitemap is kept,
///   feeds (which may carry bodies) and redirects are made again, and only files whose bytes
///   differ are written.
/// - The check itself reads little: a file whose `stat` is unchanged keeps its digest, and a
///   folder whose stamp is unchanged keeps its list of entries (`FileTree.KnownTree`).
/// - Anything else: a full build.
/// - Whatever the path, a content file whose bytes an earlier build parsed is not read again: its
///   pages come from `StoredPages`.
///
/// Whatever the path, the output is byte-for-byte what a full build writes (the tests check it).
final class IncrementalBuild: @unchecked Sendable {
    let manifestPath: String
    let output: String
    /// The previous build, when its environment (engine, configuration, theme, data, build date)
    /// is the same as this one's and its output folder is as it left it; nil means a full build.
    private(set) var reference: BuildManifest?
    /// This build's record, saved when it succeeds.
    var current = BuildManifest()
    /// Nothing to do: the output is the previous build's.
    private(set) var upToDate = false
    /// Pages kept from the previous build, by URL.
    private(set) var reused: [String: BuildManifest.PageRecord] = [:]
    /// Those of them with HTML, per language code.
    private(set) var reusedHTMLPages: [String: Int] = [:]
    /// Input files new or changed since the previous build (or that could not be read).
    private var changedInputs: Set<String> = []
    /// The files below `content/` as the inputs were listed, sorted (nil when the listing had to
    /// follow links): loading content does not list them again.
    var contentListing: [String]? {
        listedContent.map { $0.map { String($0.dropFirst("content/".count)) }.sorted() }
    }
    private var listedContent: [String]?

    /// The previous build's record, then the check of the output folder against it: they start
    /// at once on another core. `compare` waits for the record of the inputs, and joins the
    /// output folder's walk once it has listed the inputs.
    private let reading = DispatchGroup(), checking = DispatchGroup()
    private var recordedInputsText: (Data, Range<Int>)?, recordedOutputs: BuildManifest?
    /// Reads the previous build's page records, when they are needed.
    private var recordedPages: () -> BuildManifest? = { nil }
    /// The page records as the last build wrote them: written again as they are when no page's
    /// record changed.
    private var recordedPagesText: Data?
    private var outputCheck = OutputCheck()
    /// The walk of the output folder while it runs, for `compare` to join when its own work is done.
    private let outputWalk = Mutex<OutputFolderCheck?>(nil)
    private let joined = DispatchGroup()

    /// Pages parsed by earlier builds into this output folder, opened on another core once
    /// `compare` found that content is to be loaded.
    let storedPages: StoredPages
    /// The pages' file, written on another core once content is loaded.
    private let storing = DispatchGroup()

    init(cacheDirectory: String, output: String) {
        self.output = output
        manifestPath = BuildManifest.path(in: cacheDirectory, output: output)
        storedPages = StoredPages(path: StoredPages.path(in: cacheDirectory, output: output))
        current.output = output
        reading.enter()
        checking.enter()
        DispatchQueue.global().async { [self] in
            defer { checking.leave() }
            guard let data = try? FileTree.readData(manifestPath) else { return reading.leave() }
            let parts = BuildManifest.parts(of: data)
            // `compare` parses the inputs part meanwhile, on its own core.
            recordedInputsText = (data, parts.inputs)
            reading.leave()
            recordedOutputs = BuildManifest.parse(data, lines: parts.outputs, header: false)
            recordedPages = { BuildManifest.parse(data, lines: parts.pages, header: false, last: true) }
            recordedPagesText = data[parts.pages]
            if let recordedOutputs { outputCheck = outputFiles(matching: recordedOutputs) }
        }
    }

    var keptOutputs: [String] { (structureKept ? reused.values.flatMap(\.outputs) : reusedOutputs) + keptFiles }
    /// How many files `keptOutputs` has, without making the list.
    var keptOutputCount: Int { keptTotal ?? reusedOutputs.count + keptFiles.count }
    /// Files kept when the build keeps the last one's structure (every file not written again).
    private var keptTotal: Int?
    /// The outputs of the pages in `reused`, listed once when they are chosen.
    private var reusedOutputs: [String] = []
    /// Site-wide files kept as the last build wrote them (the sitemap, when no page's front
    /// matter, URL or presence changed).
    private(set) var keptFiles: [String] = []
    /// No front matter, file list or URL changed since the last build.
    private(set) var structureUnchanged = false
    /// Every changed input is the body of a Markdown page (its front matter's bytes as they were,
    /// no file added or removed): known once the inputs are compared.
    private var onlyBodiesChanged = false
    /// Only bodies changed, of pages that list none, and the last build had no warning: every
    /// page, URL, list, feed, alias and index is the last build's, so the steps that make them
    /// are skipped and their files kept (`keepsStructure(state:)`).
    private(set) var structureKept = false

    /// Keeps `path` as the last build wrote it, if it is there untouched and nothing it is made
    /// of changed; false means: build it.
    func keepIfUnchanged(_ path: String) -> Bool {
        // With a reference, every file it recorded is there as it wrote it.
        guard structureUnchanged, reference?.files[path] != nil else { return false }
        keptFiles.append(path)
        return true
    }

    // MARK: Before loading content

    /// Digests the inputs (reading only files whose `stat` changed) and decides whether the
    /// previous build can be reused, wholly or in part.
    func compare(state: BuildState, theme: Theme) {
        // Content will be loaded: the pages parsed last time are opened meanwhile.
        defer { if !upToDate { storedPages.prepare() } }
        let site = state.siteDirectory
        reading.wait()
        let recorded = recordedInputsText.flatMap { BuildManifest.parse($0.0, lines: $0.1, header: true) }
        let known = recorded?.inputs ?? [:]
        // The output folder is checked on the other core while the inputs are read.
        let problems = DiagnosticCollector()
        var inputFolders: [String: FolderStamp] = [:]
        var foldersComplete = true
        var foldersChanged = false
        let knownInputs = recorded.map { FileTree.KnownTree(stamps: $0.inputFolders, files: $0.inputs.keys) }
        // Every input file with its `stat`: through directory handles when the folder holds only
        // files and folders (and not at all in folders unchanged since the last check), else file
        // by file (symbolic links are followed as the build does).
        func listing(_ folder: String) -> [(String, BuildManifest.FileRecord?)] {
            // Folders outside the site (the built-in theme's unpacked copy) go by their full path.
            let base = folder == site ? "" : folder.hasPrefix(site + "/") ? String(folder.dropFirst(site.count + 1)) : folder
            let relative = base.isEmpty ? "" : base + "/"
            if let walk = FileTree.statWalk(folder, known: knownInputs?.rebased(base), sorted: false) {
                foldersChanged = foldersChanged || walk.changed
                for (key, stamp) in walk.folders { inputFolders[key.isEmpty ? base : relative + key] = stamp }
                return walk.files.map { (relative + $0.relative, $0.record) }
            }
            foldersComplete = false
            return FileTree.files(in: folder, boundary: nil, problems: problems).map { (relative + $0, BuildManifest.FileRecord.current(folder + "/" + $0)) }
        }
        var environmentFiles: [(String, BuildManifest.FileRecord?)] = [("site.yml", BuildManifest.FileRecord.current(site + "/site.yml"))]
        var folders = [theme.directory] + Theme.Folder.allCases.map { site + "/" + $0.rawValue } + [site + "/data"]
        folders = Array(Set(folders)).sorted()
        for folder in folders { environmentFiles += listing(folder) }
        let contentFiles = listing(site + "/content")
        if foldersComplete { listedContent = contentFiles.map(\.0) }
        let paths = environmentFiles.map(\.0)
        let content = contentFiles.map(\.0)
        // Files changed within the last two seconds may change again within the same clock tick
        // without their `stat` showing it: their digest is checked again next time.
        let recent = Int((Date().timeIntervalSince1970 - 2) * 1e9)
        let records = ParallelMap.map(environmentFiles + contentFiles) { path, stat -> (String, BuildManifest.FileRecord, read: Bool)? in
            guard var record = stat else { return nil }
            if let old = known[path], old.modified != 0, old.sameStat(as: record) {
                return (path, old, false)
            }
            guard let data = FileManager.default.contents(atPath: path.hasPrefix("/") ? path : site + "/" + path) else { return nil }
            record.digest = StableDigest.of(data)
            record.structure = Self.structureDigest(of: data, path: path, whole: record.digest)
            // A copy that kept its times (`cp -a`, `touch -r`) shows a new change time.
            if max(record.modified, record.changed) >= recent { record.modified = 0 }
            return (path, record, true)
        }
        let read = records.lazy.compactMap { $0 }.filter(\.read)
        if records.count == known.count, !records.contains(where: { $0 == nil }), read.allSatisfy({ known[$0.0] != nil }) {
            // The same files as last time: their records, with those read again (a file not read
            // again kept its record, so it was found there).
            var inputs = known
            for (path, record, _) in read { inputs[path] = record }
            current.inputs = inputs
        } else {
            current.inputs = Dictionary(records.compactMap { $0.map { ($0.0, $0.1) } }, uniquingKeysWith: { first, _ in first })
        }
        // Only a file read again can have changed (the others kept their record); a listed file
        // that could not be read counts as changed.
        var inputsChanged = current.inputs.count != known.count
        var unrecorded = false
        for ((path, _), record) in zip(environmentFiles + contentFiles, records) {
            guard let record else {
                unrecorded = true
                inputsChanged = true
                changedInputs.insert(path)
                continue
            }
            guard record.read else { continue }
            inputsChanged = true
            if record.1.digest != known[path]?.digest { changedInputs.insert(path) }
        }
        // A folder is skipped next time only if every file listed in it has a record to list it by.
        current.inputFolders = foldersComplete && !unrecorded ? inputFolders : [:]
        onlyBodiesChanged = !unrecorded && !changedInputs.isEmpty && current.inputs.count == known.count && changedInputs.allSatisfy { path in
            let lowercased = path.lowercased()
            guard path.hasPrefix("content/"), lowercased.hasSuffix(".md") || lowercased.hasSuffix(".markdown"),
                  let now = current.inputs[path], let before = known[path] else { return false }
            // A file without a closed front matter has its whole bytes as its structure.
            return now.structure == before.structure && now.structure != now.digest
        }
        var environment = StableDigest()
        environment.combine(Self.engineIdentity)
        environment.combine("drafts=\(state.options.includeDrafts) future=\(state.options.includeFuture) theme=\(theme.directory)")
        for path in paths.sorted() {
            environment.combine(path)
            environment.combine(current.inputs[path]?.digest ?? 0)
        }
        current.environment = environment.value
        current.buildDate = state.buildDate.timeIntervalSince1970
        // Same count and no file new or changed: the same files, unchanged.
        let sameContent = content.count == known.keys.count { $0.hasPrefix("content/") }
            && !changedInputs.contains { $0.hasPrefix("content/") }
        // A path the build cannot take (a FIFO, a link loop or a dangling link, a folder it may
        // not read) is left out of the listing, so the files look as they were: the build runs
        // whole and reuses nothing, and the stage that meets the path reports it, as a full build does.
        let unreadable = !problems.diagnostics.isEmpty
        guard sameContent, !unreadable, let recorded else {
            // Content is loaded whatever the output folder holds: the other core finishes checking
            // it, then reads the page records, while this one goes on; `planReuse` takes the result.
            settling.enter()
            DispatchQueue.global().async { [self] in
                defer { settling.leave() }
                checking.wait()
                let pageRecords = recordedOutputs != nil ? recordedPages() : nil
                settle = { [self] in
                    current.outputFolders = outputCheck.folders
                    guard !unreadable, let pages = pageRecords, let previous = reusable(recorded, state: state) else { return }
                    reference = previous.with(pagesOf: pages)
                }
            }
            return
        }
        // The output folder's walk may still be going: this thread takes a share of what is left.
        if let walk = outputWalk.withLock({ walk -> OutputFolderCheck? in
            if walk != nil { joined.enter() }
            return walk
        }) {
            walk.work()
            joined.leave()
        }
        // While the other core finishes checking the outputs, this one reads the page records
        // when they will be wanted: `stat`s to refresh.
        let pageRecords = recordedOutputs != nil && inputsChanged ? recordedPages() : nil
        func recordedPageRecords() -> BuildManifest? { pageRecords ?? recordedPages() }
        checking.wait()
        current.outputFolders = outputCheck.folders
        foldersChanged = foldersChanged || outputCheck.foldersChanged

        guard let previous = reusable(recorded, state: state) else { return }
        if previous.warnings == 0 {
            upToDate = true
            let refreshed = current
            current = previous
            current.inputs = refreshed.inputs
            current.inputFolders = refreshed.inputFolders
            current.outputFolders = refreshed.outputFolders
            // Refreshed `stat`s save reading those files (and folders) again next time.
            if inputsChanged || foldersChanged, let pages = recordedPageRecords() {
                current = current.with(pagesOf: pages)
                try? current.write(to: manifestPath)
            }
            return
        }
        guard let pages = recordedPageRecords() else { return }
        reference = previous.with(pagesOf: pages)
    }

    /// The last build with its outputs, when this build may reuse them: same output folder and
    /// environment, a build date that prints the same, and the folder as that build left it.
    private func reusable(_ recorded: BuildManifest?, state: BuildState) -> BuildManifest? {
        guard let outputs = recordedOutputs, let previous = recorded?.with(outputsOf: outputs), previous.output == output,
              previous.environment == current.environment, Self.buildDateAllows(previous, buildDate: state.buildDate),
              outputCheck.intact else { return nil }
        return previous
    }

    /// The end of `compare` when content changed: the output folder's check, run meanwhile.
    private let settling = DispatchGroup()
    private var settle: () -> Void = {}

    /// Waits for the check `compare` left running, and takes the last build as the reference.
    private func settleReference() {
        settling.wait()
        settle()
        settle = {}
    }

    /// What the walk of the output folder found.
    private struct OutputCheck {
        /// The folder holds exactly the previous build's files, each with the `stat` recorded:
        /// anything added, removed or changed means a full build.
        var intact = false
        var folders: [String: FolderStamp] = [:]
        var foldersChanged = true
    }

    private func outputFiles(matching previous: BuildManifest) -> OutputCheck {
        guard let check = OutputFolderCheck(output, files: previous.files, folders: previous.outputFolders) else { return OutputCheck() }
        outputWalk.withLock { $0 = check }
        check.work()
        // `compare` may have joined the check: the result is complete once it left it too.
        outputWalk.withLock { $0 = nil }
        joined.wait()
        let result = check.result()
        return OutputCheck(intact: result.intact, folders: result.folders, foldersChanged: result.changed)
    }

    // MARK: Loading content

    /// Lets loading content take the pages of unchanged files from `storedPages`.
    func useStoredPages(parser: PageParser, directory: String) -> StoredPages {
        let inputs = current.inputs
        storedPages.use(key: StoredPages.key(parser: parser, directory: directory)) { inputs["content/" + $0]?.digest }
        return storedPages
    }

    /// Writes the pages just loaded on another core, while the build goes on.
    func storePages() {
        storing.enter()
        DispatchQueue.global().async { [self] in
            storedPages.save()
            storing.leave()
        }
    }

    /// Waits for `storePages`: the build ends with the file written, or left as it was.
    func finishStoringPages() {
        storing.wait()
    }

    // MARK: After loading content

    /// Decides, once content is loaded, whether this build keeps the last one's structure: only
    /// bodies changed, of pages that list no others (a list's own body is on each of its pages),
    /// no feed carries bodies, and the last build, intact, printed no warning (the steps skipped
    /// would print the same ones). Then queries, feeds, aliases and the JSON index are not made
    /// again: what they made is the last build's, kept in the output folder.
    func keepsStructure(state: BuildState) -> Bool {
        guard onlyBodiesChanged, !state.configuration.feeds.fullContent else { return false }
        settleReference()
        guard let reference, reference.warnings == 0, !state.diagnostics.hasErrors else { return false }
        let site = state.siteDirectory
        let edited = Set(changedInputs.map { site + "/" + $0 })
        var pages: [(url: String, language: String)] = []
        for page in state.pages where edited.contains(page.sourcePath) {
            // An edited page that lists others, or that the last build did not have at its URL.
            guard !page.sections.contains(where: { $0.query != nil }), reference.pages[page.url]?.source == Self.source(of: page, site: site) else { return false }
            pages.append((page.url, page.language))
        }
        editedPages = pages
        structureKept = true
        return true
    }
    /// The pages of the edited files, when the build keeps the last one's structure.
    private var editedPages: [(url: String, language: String)] = []

    /// URLs of the last build's pages, for links, when this build keeps its structure: the later
    /// pages of paginated lists are not made again.
    var keptPageURLs: [String] { structureKept ? reference.map { Array($0.pages.keys) } ?? [] : [] }

    /// Chooses the pages whose output stays: those whose file is unchanged, when no page's front
    /// matter, no file's presence and no URL changed. That includes pages that list others
    /// (queries, term pages, pages of a paginated list): a list shows what listed pages' front
    /// matter says, never their bodies.
    func planReuse(state: BuildState) {
        settleReference()
        if structureKept, let reference {
            // The last build's pages, but for those of the edited files.
            current.structure = reference.structure
            structureUnchanged = true
            reused = reference.pages
            var counts = reference.languagePages
            for page in editedPages {
                if reused.removeValue(forKey: page.url)?.html == true { counts[page.language, default: 0] -= 1 }
            }
            reusedHTMLPages = counts.filter { $0.value != 0 }
            // Their outputs are listed only if something asks (`keptOutputs`): every file not
            // written again is kept.
            return
        }
        // A digest of a set, whatever its order: the sum of its members' digests.
        var structure: UInt64 = 0
        func add(_ kind: UInt64, _ text: String, _ value: UInt64 = 0) {
            var digest = StableDigest()
            digest.combine(kind)
            digest.combine(text)
            digest.combine(value)
            structure &+= digest.value
        }
        for (path, record) in current.inputs where path.hasPrefix("content/") { add(1, path, record.structure) }
        for file in state.staticFiles { add(2, file.path) }
        for page in state.pages { add(3, page.url) }
        current.structure = structure
        guard let reference, reference.structure == current.structure else { return }
        structureUnchanged = true
        reused.reserveCapacity(state.pages.count)
        let site = state.siteDirectory
        for page in state.pages {
            // Every output the record lists is verified: a reference is only kept for an intact
            // output folder.
            guard let record = reference.pages[page.url], Self.isFile(page.sourcePath, site: site, relative: record.source),
                  !changedInputs.contains(record.source) else { continue }
            reused[page.url] = record
            if record.html { reusedHTMLPages[page.language, default: 0] += 1 }
        }
        reusedOutputs = reused.values.flatMap(\.outputs)
    }

    // MARK: Writing

    /// Writes the build: in place, file by file, when there is a previous build to update; else
    /// a whole new folder swapped in. Records what was written.
    func write(_ files: [OutputFile], with writer: OutputWriter) throws -> [String] {
        settleReference()
        let records: [String: BuildManifest.FileRecord]
        var changed: [String] = []
        if let reference {
            if structureKept {
                // Every file the last build wrote stays but those written again: pages, feeds,
                // redirects, the sitemap and the JSON index are the last build's.
                keptTotal = reference.files.count - Set(files.map(\.path)).count { reference.files[$0] != nil }
            }
            // An update that is interrupted leaves no manifest: the next build is a full one.
            unlink(manifestPath)
            let result = try writer.updateInPlace(files, previous: reference.files, keep: structureKept ? nil : Set(keptOutputs))
            changed = result.changed
            // The last build's records, less the files removed, with those written: a kept file's
            // record is the last build's (a page edit writes a few files of thousands).
            var updated = reference.files
            for path in changed where result.records[path] == nil { updated[path] = nil }
            for (path, record) in result.records { updated[path] = record }
            records = updated
        } else {
            records = try writer.write(files, recording: true)
            changed = files.map(\.path)
        }
        current.files = records
        return changed
    }

    /// Saves the record of a successful build.
    func save(state: BuildState) {
        let publishingDates = state.publishingDates, warnedPages = state.warnedPages
        let buildDate = state.buildDate.timeIntervalSince1970
        current.buildDate = buildDate
        let relative = DateForms.shared.relativeForms(buildDate: buildDate)
        current.relativeDates = relative.forms
        let templates = state.templates?.sources.values.contains { $0.contains("buildDate") } ?? true
        current.readsBuildDate = templates || !relative.complete
        current.publishedFrom = publishingDates.map(\.timeIntervalSince1970).filter { $0 <= buildDate }.max() ?? -.infinity
        current.publishedUntil = publishingDates.map(\.timeIntervalSince1970).filter { $0 > buildDate }.min() ?? .infinity
        current.skippedDrafts = state.skippedDrafts
        current.skippedFuture = state.skippedFuture
        current.skippedExpired = state.skippedExpired
        current.staticFiles = state.staticFiles.count
        current.warnings = state.diagnostics.diagnostics.count { $0.severity == .warning }
        current.builtPages = state.pageTemplates.count + reused.values.count(where: \.html)
        current.builtFiles = state.outputs.count + state.staticFiles.count + keptOutputCount
        current.languagePages = state.languagePageCounts
        // The last build's records, with those of the pages built this time: a kept page's
        // record is the last build's.
        var pages = reference?.pages ?? [:]
        var changed = reference == nil
        /// The record of a page built this time, nil for a page of no content file.
        func record(of page: Page) -> BuildManifest.PageRecord? {
            guard let source = Self.source(of: page, site: state.siteDirectory) else { return nil }
            let outputs = [page.outputPath, page.jsonOutputPath].filter { current.files[$0] != nil }
            return BuildManifest.PageRecord(
                source: source, outputs: outputs, assets: (state.pageAssets[page.url] ?? []).sorted(), html: current.files[page.outputPath] != nil)
        }
        if structureKept {
            // The last build's pages, whose records stand but for those built again; one with
            // warnings now is not recorded (the next build makes it again).
            for page in state.pages where reused[page.url] == nil {
                let made = warnedPages.contains(page.url) ? nil : record(of: page)
                if pages[page.url] != made { changed = true }
                pages[page.url] = made
            }
        } else {
            var recorded = 0
            for page in state.pages where warnedPages.isEmpty || !warnedPages.contains(page.url) {
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
                let urls = Set(state.pages.lazy.filter { !warnedPages.contains($0.url) }.map(\.url))
                pages = pages.filter { urls.contains($0.key) }
                changed = true
            }
        }
        current.pages = pages
        try? current.write(to: manifestPath, pagesText: changed ? nil : recordedPagesText)
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
    private typealias FileRecord = BuildManifest.FileRecord

    /// What other pages can see of a file: a Markdown file's front matter as the build reads it
    /// (`FrontMatter.locate`), any other file — or a Markdown file without a closed front matter —
    /// whole.
    static func structureDigest(of data: Data, path: String, whole: UInt64) -> UInt64 {
        let lowercased = path.lowercased()
        guard lowercased.hasSuffix(".md") || lowercased.hasSuffix(".markdown") else { return whole }
        return data.withUnsafeBytes { raw -> UInt64 in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard case .found(_, let bodyStart) = FrontMatter.locate(bytes) else { return whole }
            var digest = StableDigest()
            digest.combine(UnsafeRawBufferPointer(rebasing: raw[0..<bodyStart]))
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
