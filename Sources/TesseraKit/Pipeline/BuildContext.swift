import Foundation

/// What every stage of one build shares: what the user asked for, where problems go, what the
/// build cache lets it reuse, and how long each step took. The site itself travels in the
/// stages' products, never here.
public final class BuildContext: @unchecked Sendable {
    public let options: BuildOptions
    public let diagnostics = DiagnosticCollector()
    /// The build cache's one seam: the stages ask it what they may reuse. Without a cache
    /// (`--no-cache`, `tessera check`) it reuses nothing, and the stages run the same code.
    let reuse: CacheLayer
    /// Each step's own time, in the order the steps ended (a step timed inside another counts
    /// only in its own line).
    private(set) var timings: [(step: String, seconds: Double)] = []
    /// Whether a full build may make each page's view data as it renders it (`DeferredMapping`):
    /// not when a step over the mapped site reads every view.
    var mapsWhileRendering = true
    private var innerTime: [Double] = []

    init(options: BuildOptions, reuse: CacheLayer) {
        self.options = options
        self.reuse = reuse
    }

    public var siteDirectory: String { options.sourceDirectory }

    /// Runs `body` as the step `name`, for `--timings`. Called on the build's own thread only.
    func timed<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
        options.progress?.begin(step: name)
        let start = startStep()
        defer { endStep(name, startedAt: start) }
        return try body()
    }

    /// Starts timing a step; `endStep` records it.
    func startStep() -> UInt64 {
        innerTime.append(0)
        return DispatchTime.now().uptimeNanoseconds
    }

    func endStep(_ name: String, startedAt start: UInt64) {
        let total = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let inner = innerTime.removeLast()
        timings.append((name, total - inner))
        if !innerTime.isEmpty { innerTime[innerTime.count - 1] += total }
    }
}
