import Foundation

/// Jobs run on up to `width` threads of a dispatch queue at once; a thread that waits for them
/// all does itself the jobs no thread has begun.
///
/// An `OperationQueue` waited for with `waitUntilAllOperationsAreFinished` left its jobs to the
/// dispatch queue's threads: on one core the waiting thread was the only one, and the jobs (a
/// site's icons) began only when the dispatch queue gave up on it, a second later.
final class HelpingQueue: @unchecked Sendable {
    private let width: Int
    private let queue: DispatchQueue
    private let condition = NSCondition()
    /// Jobs not begun, in the order added: `pending[next...]`.
    private var pending: [@Sendable () -> Void] = []
    private var next = 0
    /// Jobs being done, by workers or by a waiting thread.
    private var running = 0
    /// Workers asked for (begun or still queued), at most `width`.
    private var workers = 0

    /// `queue`: where workers run (a test gives one that never runs them).
    init(width: Int, queue: DispatchQueue = .global(qos: .userInitiated)) {
        self.width = max(1, width)
        self.queue = queue
    }

    func add(_ job: @escaping @Sendable () -> Void) {
        condition.lock()
        pending.append(job)
        let starts = workers < width
        if starts { workers += 1 }
        condition.unlock()
        if starts { queue.async { [self] in work() } }
    }

    /// Returns once every job added is done: does those no thread has begun, then waits for the
    /// rest.
    func waitForAll() {
        condition.lock()
        while true {
            if let job = take() {
                run(job)
            } else if running == 0 {
                break
            } else {
                condition.wait()
            }
        }
        condition.unlock()
    }

    /// A worker: jobs until none is left.
    private func work() {
        condition.lock()
        while let job = take() { run(job) }
        workers -= 1
        condition.unlock()
    }

    /// The next job not begun, counted as running; with `condition` held.
    private func take() -> (@Sendable () -> Void)? {
        guard next < pending.count else { return nil }
        let job = pending[next]
        next += 1
        if next == pending.count {
            pending.removeAll()
            next = 0
        }
        running += 1
        return job
    }

    /// Does `job` without `condition` held; with it held before and after.
    private func run(_ job: @Sendable () -> Void) {
        condition.unlock()
        job()
        condition.lock()
        running -= 1
        condition.broadcast()
    }
}
