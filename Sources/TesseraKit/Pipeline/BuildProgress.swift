import Foundation
import Synchronization

/// How far a build has got, for a live progress line: the step running, and pages and images
/// done out of those known so far. Stages count; a terminal reads it from another thread.
public final class BuildProgress: Sendable {
    public struct Snapshot: Sendable, Equatable {
        public var step = ""
        public var pagesDone = 0, pagesTotal = 0
        public var imagesDone = 0, imagesTotal = 0
        /// Seconds since the first page (image) of this build was counted as expected: the rate
        /// each goes at, for the estimate.
        public var pagesSince: Double?
        public var imagesSince: Double?

        /// Seconds left at the rates so far, once both counts have moved; nil before.
        public var secondsLeft: Double? {
            func left(_ done: Int, _ total: Int, _ since: Double?) -> Double? {
                guard total > 0 else { return 0 }
                guard done > 0, let since, since > 0 else { return nil }
                return Double(total - done) * since / Double(done)
            }
            guard let pages = left(pagesDone, pagesTotal, pagesSince), let images = left(imagesDone, imagesTotal, imagesSince) else { return nil }
            return max(pages, images)
        }
    }

    private struct State {
        var snapshot = Snapshot()
        var pagesStart: UInt64?
        var imagesStart: UInt64?
    }

    private let state = Mutex(State())

    public init() {}

    public var snapshot: Snapshot {
        state.withLock { state in
            var snapshot = state.snapshot
            let now = DispatchTime.now().uptimeNanoseconds
            snapshot.pagesSince = state.pagesStart.map { Double(now - $0) / 1e9 }
            snapshot.imagesSince = state.imagesStart.map { Double(now - $0) / 1e9 }
            return snapshot
        }
    }

    func begin(step: String) { state.withLock { $0.snapshot.step = step } }

    func expectPages(_ count: Int) {
        state.withLock {
            $0.snapshot.pagesTotal += count
            if $0.pagesStart == nil { $0.pagesStart = DispatchTime.now().uptimeNanoseconds }
        }
    }

    func pageDone() { state.withLock { $0.snapshot.pagesDone += 1 } }

    func expectImages(_ count: Int) {
        state.withLock {
            $0.snapshot.imagesTotal += count
            if $0.imagesStart == nil { $0.imagesStart = DispatchTime.now().uptimeNanoseconds }
        }
    }

    func imagesDone(_ count: Int) { state.withLock { $0.snapshot.imagesDone += count } }
}
