import Foundation
import Logging
import ServiceLifecycle
import TesseraKit

/// Rebuilds the preview whenever the watcher reports changes, and tells open pages.
struct RebuildService: Service {
    let watcher: SiteWatcher
    let session: PreviewSession
    let hub: PreviewHub
    /// `serve --timings`: each rebuild's steps are printed before its line.
    var timings = false
    /// Where each rebuild is reported (the terminal).
    let report: @Sendable (String) -> Void

    func run() async throws {
        for await paths in watcher.changes().cancelOnGracefulShutdown() {
            let started = ContinuousClock.now
            let previousFailed = session.failedLastTime
            let outcome = session.build(changes: paths)
            let elapsed = ContinuousClock.now - started
            if let event = PreviewSession.event(after: outcome, previousFailed: previousFailed, inputs: paths) {
                await hub.publish(event)
            }
            if timings, case .built(let buildReport, _) = outcome { StepTimings.lines(buildReport).forEach(report) }
            report(Self.describe(outcome, paths: paths, site: session.options.sourceDirectory, elapsed: elapsed))
        }
        watcher.stop()
        await hub.finishAll()
    }

    static func describe(_ outcome: PreviewSession.Outcome, paths: Set<String>, site: String, elapsed: Duration) -> String {
        let names = paths.sorted().map { Diagnostic.displayPath($0, relativeTo: site) }
        let trigger = names.count <= 3 ? names.joined(separator: ", ") : "\(names.count) files"
        let milliseconds = Int((Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15).rounded())
        switch outcome {
        case .built(_, let changed):
            return "\(trigger) changed → rebuilt in \(milliseconds) ms, \(changed.count) file\(changed.count == 1 ? "" : "s") updated"
        case .failed(let diagnostics):
            let errors = diagnostics.filter { $0.severity == .error }
            let base = FileManager.default.currentDirectoryPath
            return diagnostics.map { $0.formatted(relativeTo: base) }.joined(separator: "\n")
                + "\n\(trigger) changed → rebuild failed with \(errors.count) error\(errors.count == 1 ? "" : "s"); still serving the last good build"
        }
    }
}
