import Foundation
import Synchronization

/// Work started on another core that the thread needing its result does itself when no core has
/// begun it yet: on two cores, the other one is often still busy (checking the output folder), and
/// waiting for it would leave this one idle.
final class SideTask: Sendable {
    private enum Progress { case waiting, running, done }
    private let progress = Mutex(Progress.waiting)
    private let work: Mutex<(@Sendable () -> Void)?>
    private let finished = DispatchGroup()

    /// Queues `work` on another core.
    init(_ work: @escaping @Sendable () -> Void) {
        self.work = Mutex(work)
        finished.enter()
        DispatchQueue.global().async { [self] in run() }
    }

    /// Returns once the work is done: does it here if it has not begun, else waits for it.
    func wait() {
        if !run() { finished.wait() }
    }

    /// Runs the work unless another thread began it; false when one did.
    @discardableResult
    private func run() -> Bool {
        let started = progress.withLock { progress -> Bool in
            guard progress == .waiting else { return false }
            progress = .running
            return true
        }
        guard started else { return progress.withLock { $0 == .done } }
        let body = work.withLock { body in
            defer { body = nil }
            return body
        }
        body?()
        progress.withLock { $0 = .done }
        finished.leave()
        return true
    }
}
