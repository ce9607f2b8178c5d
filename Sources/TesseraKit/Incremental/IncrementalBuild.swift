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
    var reference: BuildManifest?
    /// This build's record, saved when it succeeds.
    var current = BuildManifest()
    /// Nothing to do: the output is the previous build's.
    var upToDate = false
    /// Known once `compare` ran: no page of the last build can be kept, since there is none (a
    /// first build) or it was made for another output folder or under another environment, so
    /// this build makes every page.
    var reusesNothing = false
    /// Pages kept from the previous build, by URL.
    var reused: [String: BuildManifest.PageRecord] = [:]
    /// Those of them with HTML, per language code.
    var reusedHTMLPages: [String: Int] = [:]
    /// Input files new or changed since the previous build (or that could not be read).
    var changedInputs: Set<String> = []
    /// The files below `content/` as the inputs were listed, sorted (nil when the listing had to
    /// follow links): loading content does not list them again.
    var contentListing: [String]? {
        listedContent.map { $0.map { String($0.dropFirst("content/".count)) }.sorted() }
    }
    var listedContent: [String]?

    /// The previous build's record, then the check of the output folder against it: they start
    /// at once on another core. `compare` waits for the record of the inputs, and joins the
    /// output folder's walk once it has listed the inputs. Whoever waits for either runs the two
    /// itself when no thread has begun them (`SideTask`).
    let reading = DispatchGroup(), checking = DispatchGroup()
    private var readingAndChecking: SideTask?

    /// Returns once the last build's record is read (`recordedInputsText`).
    private func waitForRecord() {
        readingAndChecking?.runUnlessBegun()
        reading.wait()
    }

    /// Returns once the output folder is checked against the record (`outputCheck`).
    private func waitForOutputCheck() {
        readingAndChecking?.runUnlessBegun()
        checking.wait()
    }
    var recordedInputsText: (Data, Range<Int>)?, recordedOutputs: BuildManifest?
    /// Reads the previous build's page records, when they are needed.
    var recordedPages: () -> BuildManifest? = { nil }
    /// The page records as the last build wrote them: written again as they are when no page's
    /// record changed.
    var recordedPagesText: Data?
    var outputCheck = OutputCheck()
    /// The walk of the output folder while it runs, for `compare` to join when its own work is done.
    let outputWalk = Mutex<OutputFolderCheck?>(nil)
    let joined = DispatchGroup()

    /// Digests of content files new to the record, taken as content loads.
    var loadedDigests = LoadedDigests(pending: [])

    /// Pages parsed by earlier builds into this output folder, opened on another core once
    /// `compare` found that content is to be loaded.
    let storedPages: StoredPages
    /// The pages' file, written on another core once content is loaded.
    var storing: SideTask?

    init(cacheDirectory: String, output: String) {
        self.output = output
        manifestPath = BuildManifest.path(in: cacheDirectory, output: output)
        storedPages = StoredPages(path: StoredPages.path(in: cacheDirectory, output: output))
        current.output = output
        reading.enter()
        checking.enter()
        readingAndChecking = SideTask { [self] in
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
    var keptTotal: Int?
    /// The outputs of the pages in `reused`, listed once when they are chosen.
    var reusedOutputs: [String] = []
    /// Files of the last build to remove although the build keeps its structure (`CacheLayer.drop`).
    var dropped: Set<String> = []
    /// Site-wide files kept as the last build wrote them (the sitemap, when no page's front
    /// matter, URL or presence changed).
    var keptFiles: [String] = []
    /// No front matter, file list or URL changed since the last build.
    var structureUnchanged = false
    /// Every changed input is the body of a Markdown page (its front matter's bytes as they were,
    /// no file added or removed): known once the inputs are compared.
    var onlyBodiesChanged = false
    /// Only bodies changed, of pages that list none, and the last build had no warning: every
    /// page, URL, list, feed, alias and index is the last build's, so the steps that make them
    /// are skipped and their files kept (`keepsStructure(site:context:)`).
    var structureKept = false

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
    func compare(site configured: ConfiguredSite, context: BuildContext) {
        let theme = configured.theme
        // Content will be loaded: the pages parsed last time are opened meanwhile.
        defer { if !upToDate { storedPages.prepare() } }
        let site = context.siteDirectory
        waitForRecord()
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
            // A content page new to the record is digested as the loader reads it (`LoadedDigests`).
            if known[path] != nil || !LoadedDigests.waits(path) {
                guard let data = FileManager.default.contents(atPath: path.hasPrefix("/") ? path : site + "/" + path) else { return nil }
                (record.digest, record.structure) = Self.digests(of: data, path: path)
            }
            // A copy that kept its times (`cp -a`, `touch -r`) shows a new change time.
            if max(record.modified, record.changed) >= recent { record.modified = 0 }
            return (path, record, true)
        }
        let read = records.lazy.compactMap { $0 }.filter(\.read)
        loadedDigests = LoadedDigests(pending: Set(read.lazy.map(\.0).filter { known[$0] == nil && LoadedDigests.waits($0) }))
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
        var environment = StableDigest()
        environment.combine(Self.engineIdentity)
        // The highlighter writes the pages' code: another engine (or none) writes other HTML. It
        // is compared only with a last build whose pages it wrote: finding it out may start Python.
        if let highlight = recorded?.highlight, highlight != 0 { highlightNow = Self.highlightDigest(configured.highlighter) }
        environment.combine("drafts=\(context.options.includeDrafts) future=\(context.options.includeFuture) theme=\(theme.directory)")
        for path in paths.sorted() {
            environment.combine(path)
            environment.combine(current.inputs[path]?.digest ?? 0)
        }
        current.environment = environment.value
        reusesNothing = !(recorded.map(madeLikeThisBuild) ?? false)
        // A block an edit wrote that the cache does not have is lexed on another core while
        // content loads, instead of when the edited page is rendered. (A build that makes every
        // page has every page's blocks lexed so once content is loaded: `LoadStage`.)
        if let highlighter = configured.highlighter, changedInputs.count <= 64, !reusesNothing {
            let texts = changedInputs.filter { $0.hasPrefix("content/") }.compactMap { path in
                FileManager.default.contents(atPath: site + "/" + path).map { String(decoding: $0, as: UTF8.self) }
            }
            highlighter.lexAhead(texts)
        }
        onlyBodiesChanged = !unrecorded && !changedInputs.isEmpty && current.inputs.count == known.count && changedInputs.allSatisfy { path in
            let lowercased = path.lowercased()
            guard path.hasPrefix("content/"), lowercased.hasSuffix(".md") || lowercased.hasSuffix(".markdown"),
                  let now = current.inputs[path], let before = known[path] else { return false }
            // A file without a closed front matter has its whole bytes as its structure.
            return now.structure == before.structure && now.structure != now.digest
        }
        current.buildDate = configured.buildDate.timeIntervalSince1970
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
            settling = SideTask { [self] in
                waitForOutputCheck()
                let pageRecords = recordedOutputs != nil ? recordedPages() : nil
                settle = { [self] in
                    current.outputFolders = outputCheck.folders
                    guard !unreadable, let pages = pageRecords, let previous = reusable(recorded, buildDate: configured.buildDate) else { return }
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
        waitForOutputCheck()
        current.outputFolders = outputCheck.folders
        foldersChanged = foldersChanged || outputCheck.foldersChanged

        guard let previous = reusable(recorded, buildDate: configured.buildDate) else { return }
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
    func reusable(_ recorded: BuildManifest?, buildDate: Date) -> BuildManifest? {
        guard let outputs = recordedOutputs, let previous = recorded?.with(outputsOf: outputs), madeLikeThisBuild(previous),
              Self.buildDateAllows(previous, buildDate: buildDate), outputCheck.intact else { return nil }
        return previous
    }

    /// Whether `recorded` was made for this output folder under this build's environment (set
    /// by `compare`): the first condition of keeping anything of it.
    func madeLikeThisBuild(_ recorded: BuildManifest) -> Bool {
        recorded.output == output && recorded.environment == current.environment
            && (recorded.highlight == 0 || (recorded.highlight != nil && recorded.highlight == highlightNow))
    }

    /// This build's highlighter, when `compare` had to know it: the last build's pages hold code
    /// it highlighted.
    private var highlightNow: UInt64?

    /// The identity of the engine that highlights code (or "off"), as a build's record keeps it.
    static func highlightDigest(_ highlighter: CodeHighlighter?) -> UInt64 {
        var digest = StableDigest()
        digest.combine("highlight=" + (highlighter?.identity ?? "off"))
        return digest.value
    }

    /// The end of `compare` when content changed: the output folder's check, run meanwhile.
    var settling: SideTask?
    var settle: () -> Void = {}

    /// Waits for the check `compare` left running, and takes the last build as the reference.
    func settleReference() {
        settling?.wait()
        settle()
        settle = {}
    }

    /// What the walk of the output folder found.
    struct OutputCheck {
        /// The folder holds exactly the previous build's files, each with the `stat` recorded:
        /// anything added, removed or changed means a full build.
        var intact = false
        var folders: [String: FolderStamp] = [:]
        var foldersChanged = true
    }

    func outputFiles(matching previous: BuildManifest) -> OutputCheck {
        guard let check = OutputFolderCheck(output, files: previous.files, folders: previous.outputFolders) else { return OutputCheck() }
        outputWalk.withLock { $0 = check }
        check.work()
        // `compare` may have joined the check: the result is complete once it left it too.
        outputWalk.withLock { $0 = nil }
        joined.wait()
        let result = check.result()
        return OutputCheck(intact: result.intact, folders: result.folders, foldersChanged: result.changed)
    }

    /// The pages of the edited files, when the build keeps the last one's structure.
    var editedPages: [(url: String, language: String)] = []
}
