import Foundation

/// Builds a site: runs the pipeline's steps in order, gathers every problem, and writes the
/// output only when there is none.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var steps: [BuildStep]
    public var cache: BuildCache?

    public init(options: BuildOptions, steps: [BuildStep] = BuildStep.standardPipeline, cache: BuildCache? = nil) {
        self.options = options
        self.steps = steps
        self.cache = cache
    }

    /// Throws a `TesseraError` with every error found; the previous output is then untouched.
    @discardableResult
    public func build() throws -> BuildReport {
        try run().report
    }

    /// Builds and returns the state as well, for tools that inspect what was built.
    public func run() throws -> (state: BuildState, report: BuildReport) {
        let start = DispatchTime.now()
        cache?.resetStatistics()
        // What a watcher vouched for holds for this build only.
        defer { cache?.endWatchedBuild() }
        if let cache, let basis = cache.localEditBasis, let changes = cache.vouchedChanges {
            // Only parts that other pages never show changed: those pages alone are made again.
            do {
                if let changed = try LocalEdits.rebuild(changes, from: basis, cache: cache) {
                    var report = basis.report
                    report.seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
                    report.stepTimings = [("edited pages", report.seconds)]
                    report.warnings = []
                    basis.state.changedOutputs = changed
                    return (basis.state, report)
                }
            } catch {
                // The edited pages' errors. Until a build succeeds again, the next one takes the
                // whole pipeline: a later edit of another page must not hide these.
                cache.localEditBasis = nil
                let diagnostics = DiagnosticCollector()
                diagnostics.report(error)
                try diagnostics.throwIfErrors()
            }
        }
        if let cache {
            // The last build's state is let go on another thread: freeing a large site's pages
            // and views is not this build's work.
            nonisolated(unsafe) var released = cache.localEditBasis
            cache.localEditBasis = nil
            if released != nil { DispatchQueue.global(qos: .utility).async { released = nil } }
        }
        let state = BuildState(options: options, cache: cache)
        var timings: [(step: String, seconds: Double)] = []
        for step in steps {
            let stepStart = DispatchTime.now()
            defer { timings.append((step.name, Double(DispatchTime.now().uptimeNanoseconds - stepStart.uptimeNanoseconds) / 1e9)) }
            if !step.overlapsTemplates { state.awaitTemplates() }
            do {
                try step.run(state)
            } catch {
                state.diagnostics.report(error)
                // A step that throws leaves nothing for the later ones to work on.
                break
            }
            if state.incremental?.upToDate == true { break }
        }
        state.awaitTemplates()
        // Also after a failed build: its parsed pages serve the next one.
        state.incremental?.finishStoringPages()
        try state.diagnostics.throwIfErrors()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let reused = state.incremental?.reused.values.filter(\.html).count ?? 0
        var report = BuildReport(
            pages: state.pageTemplates.count + reused, files: state.outputs.count + state.staticFiles.count + (state.incremental?.keptOutputCount ?? 0),
            staticFiles: state.staticFiles.count, skippedDrafts: state.skippedDrafts, skippedFuture: state.skippedFuture, skippedExpired: state.skippedExpired,
            warnings: state.diagnostics.diagnostics.filter { $0.severity == .warning },
            outputDirectory: state.outputDirectory, seconds: seconds, stepTimings: timings)
        report.reusedPages = state.incremental?.reused.count ?? 0
        report.storedPages = state.incremental?.storedPages.usedCount ?? 0
        report.languagePages = state.languagePageCounts
        report.languages = state.configuration.languages.map { ($0.code, $0.name) }
        if let cache, options.updatesInPlace, let mapper = state.pageMapper, let rendering = state.pageRendering {
            cache.localEditBasis = LocalEdits.Basis(
                state: state, mapper: mapper, renderer: rendering.renderer, templates: rendering.templates,
                renderGeneration: rendering.generation, documents: state.documentWriter, report: report)
        }
        if let incremental = state.incremental, incremental.upToDate {
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
        return (state, report)
    }
}
