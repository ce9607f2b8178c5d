import Foundation

/// The build cache, as one layer around the pipeline: it runs the stages in turn and decides,
/// at one seam, what each may reuse. Around the stages it recovers and checks the output folder,
/// reads the last build's record, ends a build with nothing changed before any content is read,
/// chooses the pages whose output stays, and writes in place; in the preview, it rebuilds edits
/// that reach only their own pages without the pipeline (`LocalEdits`). Inside the stages, the
/// stages ask it (`CacheLayer+Stages.swift`) and it answers from the preview's memory of its last
/// build (`BuildCache`) and the last build on disk (`IncrementalBuild`, `StoredPages`).
///
/// Without a cache (`--no-cache`, `tessera check`) it reuses nothing: the stages run the same
/// code and make everything.
final class CacheLayer: @unchecked Sendable {
    /// The preview's memory of its last build; nil for one-off builds.
    let memory: BuildCache?
    /// The last build of the same output folder as `tessera build` recorded it, once it is found
    /// comparable (the inputs compared); nil without a cache directory.
    private(set) var incremental: IncrementalBuild?
    /// What the preview's next edit reuses of this build: how it mapped, rendered and encoded pages.
    var editing = LocalEdits.Tools()
    /// The new output folder this build fills as it renders; nil for a build written in place
    /// or not at all, and once it is swapped in.
    private(set) var staged: StagedOutput?

    static let outputStepNames = ["recover output folder", "check output folder", "read last build"]
    static let compareStepName = "compare with last build"
    static let planStepName = "plan reuse"

    init(memory: BuildCache?) {
        self.memory = memory
    }

    /// Builds with `pipeline`: edited pages alone when the preview can, else the stages in turn.
    /// Throws every error found; the previous output is then as it was.
    func build(_ pipeline: BuildPipeline, options: BuildOptions) throws -> (site: BuiltSite, report: BuildReport) {
        let start = DispatchTime.now()
        memory?.resetStatistics()
        // What a watcher vouched for holds for this build only.
        defer { memory?.endWatchedBuild() }
        if let memory, let edited = try LocalEdits.rebuildIfLocal(memory: memory, start: start) { return edited }
        if let memory {
            // The last build's products are let go on another thread: freeing a large site's
            // pages and views is not this build's work.
            nonisolated(unsafe) var released = memory.localEditBasis
            memory.localEditBasis = nil
            if released != nil { DispatchQueue.global(qos: .utility).async { released = nil } }
        }
        let context = BuildContext(options: options, reuse: self)
        var configuration: SiteConfiguration?
        var written: WrittenSite?
        do {
            written = try run(pipeline, in: context, configuration: &configuration)
        } catch {
            // A stage that throws leaves nothing for the later ones to work on.
            context.diagnostics.report(error)
        }
        // A new folder not swapped in (the build failed) goes: the output stays as it was.
        staged?.abandon()
        // An index no step took (the build failed) is not made, or done with, before the build returns.
        lastBuildsSearchIndex?.cancel()
        lastBuildsSearchIndex = nil
        staged = nil
        // Also after a failed build: its parsed pages serve the next one.
        incremental?.finishStoringPages()
        try context.diagnostics.throwIfErrors()
        guard let configuration else { throw TesseraError("the build stopped before reading site.yml") }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let site = BuiltSite(configuration: configuration, written: written, diagnostics: context.diagnostics, keptStructure: keepsStructure)
        if memory == nil { site.lastBuildRead = self }
        let report = self.report(of: site, context: context, seconds: seconds)
        if let memory, options.updatesInPlace, let written, let basis = editing.basis(for: written, options: options, report: report) {
            memory.localEditBasis = basis
        }
        return (site, report)
    }

    /// The stages in turn, with the layer's own work between them. Nil when nothing changed since
    /// the last build.
    private func run(_ pipeline: BuildPipeline, in context: BuildContext, configuration: inout SiteConfiguration?) throws -> WrittenSite? {
        let siteConfiguration = try pipeline.configure.run(context.options, in: context)
        configuration = siteConfiguration
        try prepareOutputFolder(siteConfiguration, context: context)
        let themed = try pipeline.theme.run(siteConfiguration, in: context)
        context.timed(Self.compareStepName) { compare(themed, context: context) }
        if incremental?.upToDate == true { return nil }
        let loaded = try pipeline.load.run(consume themed, in: context)
        let routed = try pipeline.route.run(consume loaded, in: context)
        context.timed(Self.planStepName) {
            incremental?.planReuse(site: routed, context: context)
            planSearch(routed, context: context)
        }
        context.mapsWhileRendering = pipeline.map.steps.isEmpty
        let mapped = try pipeline.map.run(consume routed, in: context)
        let rendered = try pipeline.render.run(consume mapped, in: context)
        return try pipeline.write.run(consume rendered, in: context)
    }

    /// The search documents of the last build, for the pages it keeps: a kept page the cache has
    /// no document of is made again.
    private func planSearch(_ site: RoutedSite, context: BuildContext) {
        let options = site.configuration.search
        guard options.enabled, let incremental, !incremental.reused.isEmpty, let directory = context.options.cacheDirectory else { return }
        let stored = searchStore?.documents ?? SearchStore.read(SearchStore.path(in: OutputWriter.resolve(directory), output: incremental.output))
        searchStore = nil
        let configuration = site.configuration
        let missing = site.loaded.pages.filter { page in
            incremental.reused[page.url] != nil && Self.lacksSearchDocument(page, in: stored, configuration: configuration)
        }
        incremental.remake(missing)
        storedSearchDocuments = stored
    }
    /// The last build's search index being made again (from `compare`), until the search step takes it.
    var lastBuildsSearchIndex: SearchIndex.LastBuilds?
    /// The last build's search documents, being read from the start of the build.
    var searchStore: SearchStore.Reading?
    /// The last build's search documents by URL, read when this build keeps pages.
    private(set) var storedSearchDocuments: [String: SearchDocument] = [:]

    /// Puts back an output folder an interrupted build left aside, refuses a bad one before any
    /// work (nothing is built only to be thrown away), and starts reading the last build's record
    /// on another core while the theme loads.
    private func prepareOutputFolder(_ configuration: SiteConfiguration, context: BuildContext) throws {
        let options = context.options
        let writer = OutputWriter(options: options, configuration: configuration, theme: nil)
        // Before anything else, so even a build that then fails leaves the last site in place.
        // Only folders named by Tessera's staging pattern beside the output are touched.
        try context.timed(Self.outputStepNames[0]) { if options.writesOutput { try writer.recoverInterruptedBuilds() } }
        try context.timed(Self.outputStepNames[1]) { if options.writesOutput { try writer.checkOutputDirectory() } }
        context.timed(Self.outputStepNames[2]) {
            guard let directory = options.cacheDirectory, options.writesOutput, !options.updatesInPlace,
                  !context.diagnostics.hasErrors else { return }
            lastBuild = IncrementalBuild(cacheDirectory: OutputWriter.resolve(directory), output: writer.resolvedOutput)
            // The last build's search documents too, for a build that keeps pages.
            if configuration.search.enabled { searchStore = SearchStore.Reading(SearchStore.path(in: OutputWriter.resolve(directory), output: writer.resolvedOutput)) }
        }
    }
    /// The last build being read, until the inputs are compared with it.
    private var lastBuild: IncrementalBuild?

    /// Digests the inputs and compares them with the last build's: may end the build here
    /// (nothing changed) or let later stages keep unchanged pages.
    private func compare(_ site: ConfiguredSite, context: BuildContext) {
        guard let lastBuild, !context.diagnostics.hasErrors else { return }
        lastBuild.compare(site: site, context: context)
        incremental = lastBuild
        self.lastBuild = nil
        // Bodies edited (no front matter), so pages are kept: the last search index is made again
        // from the last build's documents while this build works, and the search step updates it.
        if memory == nil, let searchStore, lastBuild.onlyBodiesChanged, !lastBuild.reusesNothing, !lastBuild.upToDate {
            lastBuildsSearchIndex = SearchIndex.LastBuilds.start(reading: searchStore, languages: site.configuration.languages)
        }
    }

    /// Opens a new output folder when this build writes one (not in place over the last build's):
    /// pages then go to disk as they are made.
    func openOutput(for site: RoutedSite, context: BuildContext) throws -> StagedOutput? {
        let options = context.options
        guard options.writesOutput, !(options.updatesInPlace && memory != nil), !context.diagnostics.hasErrors,
              incremental?.updatesLastBuild != true else { return nil }
        let writer = OutputWriter(options: options, configuration: site.configuration, theme: site.theme)
        staged = try StagedOutput(writer: writer, recording: incremental != nil)
        return staged
    }

    /// Writes `files`: in place over the preview's last output, or over the last build's folder
    /// with the files it keeps, or into the new folder (what it holds already is not written
    /// again) swapped in.
    func write(_ files: [OutputFile], with writer: OutputWriter, site: RenderedSite, context: BuildContext) throws -> [String] {
        // The blocks this build highlighted, for the next (a build that made every page keeps only its own).
        if context.options.cacheDirectory != nil { site.mapped.routed.loaded.configured.highlighter?.save(complete: keptPages.isEmpty) }
        // What the images looked like, for the next build; a build that made every page removes made files no page shows.
        if context.options.cacheDirectory != nil { site.mapped.routed.loaded.configured.images?.save(complete: keptPages.isEmpty) }
        // Every page's search document, for the next build that keeps pages: written on another
        // core while the output is, and done before this returns or throws.
        var saving: SideTask?
        defer { saving?.wait() }
        if let directory = context.options.cacheDirectory, site.configuration.search.enabled {
            let documents = site.searchDocuments, folder = OutputWriter.resolve(directory)
            let path = SearchStore.path(in: folder, output: writer.resolvedOutput)
            saving = SideTask {
                SearchStore.write(documents, to: path)
                unlink(folder + "/" + SearchStore.sharedName)
            }
        }
        if context.options.updatesInPlace, let memory {
            return try writer.update(files, cache: memory)
        }
        let staged = self.staged
        self.staged = nil
        if let incremental {
            // A new folder's page records are made on the other core while it is finished.
            let pages = incremental.startPageRecords(site: site, context: context, writing: files)
            let changed: [String]
            do {
                changed = try incremental.write(files, with: writer, into: staged)
            } catch {
                pages?.cancel()
                throw error
            }
            incremental.save(site: site, context: context, pages: pages)
            return changed
        }
        _ = try (staged ?? StagedOutput(writer: writer, recording: false)).finish(files)
        return files.map(\.path)
    }

    /// What the build did, counted with what it kept.
    private func report(of site: BuiltSite, context: BuildContext, seconds: Double) -> BuildReport {
        let rendered = site.written?.rendered
        let kept = incremental?.reused.values.count(where: \.html) ?? 0
        let outputs = rendered?.outputs.count ?? 0, staticFiles = rendered?.staticFiles.count ?? 0
        let tally = rendered?.content ?? ContentTally()
        var report = BuildReport(
            pages: (rendered?.pageTemplates.count ?? 0) + kept, files: outputs + staticFiles + (incremental?.keptOutputCount ?? 0),
            staticFiles: staticFiles, skippedDrafts: tally.skippedDrafts, skippedFuture: tally.skippedFuture, skippedExpired: tally.skippedExpired,
            warnings: context.diagnostics.diagnostics.filter { $0.severity == .warning },
            outputDirectory: SiteConfiguration.outputDirectory(options: context.options, configuration: site.configuration),
            seconds: seconds, stepTimings: context.timings)
        report.reusedPages = incremental?.reused.count ?? 0
        report.storedPages = incremental?.storedPages.usedCount ?? 0
        report.languagePages = rendered.map { languagePageCounts(of: $0) } ?? [:]
        report.languages = site.configuration.languages.map { ($0.code, $0.name) }
        if let incremental, incremental.upToDate {
            let previous = incremental.current
            report.upToDate = true
            report.pages = previous.builtPages
            report.files = previous.builtFiles
            report.languagePages = previous.languagePages
            report.staticFiles = previous.staticFiles
            report.skippedDrafts = previous.skippedDrafts
            report.skippedFuture = previous.skippedFuture
            report.skippedExpired = previous.skippedExpired
        }
        return report
    }

    /// HTML pages written or kept, per language code.
    func languagePageCounts(of site: RenderedSite) -> [String: Int] {
        site.renderedPages.merging(incremental?.reusedHTMLPages ?? [:], uniquingKeysWith: +)
    }
}
