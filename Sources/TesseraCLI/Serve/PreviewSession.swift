import Foundation
import TesseraKit

/// Builds a site for preview, then rebuilds it incrementally into the same folder.
public final class PreviewSession: @unchecked Sendable {
    public enum Outcome: Sendable {
        case built(BuildReport, changed: [String])
        case failed([Diagnostic])
    }

    public let options: BuildOptions
    private let cache = BuildCache()
    private let lock = NSLock()
    private var lastFailed = false

    /// `options.outputDirectory` is where the preview is written; it is updated in place.
    public init(options: BuildOptions) {
        var options = options
        options.updatesInPlace = true
        options.writesOutput = true
        self.options = options
    }

    /// Builds (the first time) or rebuilds (afterwards) and says what changed. `changes` are the
    /// paths a watcher of every input folder reported since the last build (nil: unknown): content
    /// files it did not report are not read again.
    public func build(changes: Set<String>? = nil) -> Outcome {
        lock.withLock {
            // The site folder itself in a batch means the watcher lost events.
            cache.expectChanges(changes.flatMap { $0.contains(options.sourceDirectory) ? nil : $0 })
            do {
                let (site, report) = try SiteBuilder(options: options, cache: cache).run()
                lastFailed = false
                return .built(report, changed: site.changedOutputs)
            } catch let error as TesseraError {
                lastFailed = true
                return .failed(error.diagnostics)
            } catch {
                lastFailed = true
                return .failed([Diagnostic(.error, "\(error)")])
            }
        }
    }

    /// What open pages should do after `outcome`, given whether the build before it failed;
    /// nil when nothing they show changed. `inputs`: the files whose change made the build (nil:
    /// unknown). When only stylesheets were edited, pages change only where they link them (a
    /// fingerprinted name, its integrity hash): the stylesheets are swapped, with no reload.
    public static func event(after outcome: Outcome, previousFailed: Bool, inputs: Set<String>? = nil) -> PreviewEvent? {
        switch outcome {
        case .failed(let diagnostics):
            return .failed(diagnostics.filter { $0.severity == .error })
        case .built(_, let changed):
            if previousFailed { return .reload }
            if changed.isEmpty { return nil }
            if changed.allSatisfy({ $0.hasSuffix(".css") }) { return .stylesheets }
            let onlyStylesheetsEdited = inputs.map { !$0.isEmpty && $0.allSatisfy { $0.hasSuffix(".css") } } ?? false
            let onlyPagesAndStylesheets = changed.allSatisfy { $0.hasSuffix(".css") || $0.hasSuffix(".html") }
            return onlyStylesheetsEdited && onlyPagesAndStylesheets && changed.contains(where: { $0.hasSuffix(".css") }) ? .stylesheets : .reload
        }
    }

    public var failedLastTime: Bool { lock.withLock { lastFailed } }
}
