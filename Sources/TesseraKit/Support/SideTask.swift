import Foundation
import Synchronization

/// Work started on another core that the thread needing its result does itself when no core has
/// begun it yet: on two cores, the other one is often still busy (checking the output folder), and
/// waiting for it would leave this one idle. On one core it is the only way on: the dispatch
/// queue's one thread is the waiting one, and work queued behind it started only when the queue
/// gave up on that thread, after a second (each such wait made a build on one core a second
/// longer).
final class SideTask: Sendable {
    /// The work until a thread takes it.
    private let work: Mutex<(@Sendable () -> Void)?>
    private let finished = DispatchGroup()

    /// Queues `work` on another core (on `queue`: a test gives one that never runs it).
    init(on queue: DispatchQueue = .global(), _ work: @escaping @Sendable () -> Void) {
        self.work = Mutex(work)
        finished.enter()
        queue.async { [self] in run() }
    }

    /// Returns once the work is done: does it here if it has not begun, else waits for it.
    func wait() {
        run()
        finished.wait()
    }

    /// Returns once no thread runs the work: drops it if it has not begun, else waits for it.
    func cancel() {
        let body = work.withLock { work in
            defer { work = nil }
            return work
        }
        if body != nil { finished.leave() }
        finished.wait()
    }

    /// Runs the work here unless a thread began it already, and returns: for work that signals
    /// partway (`IncrementalBuild`'s reading of the last build's record), before waiting for the
    /// signal.
    func runUnlessBegun() { run() }

    /// Runs the work unless a thread began it already.
    private func run() {
        var body = work.withLock { work in
            defer { work = nil }
            return work
        }
        guard body != nil else { return }
        body?()
        // What the work captured (a build's state) goes before the waiting thread is let go:
        // released after, it would outlive the build on this thread, still being freed when the
        // build has returned (and a leak checker looking then would see a graph half taken apart).
        body = nil
        finished.leave()
    }
}

/// A value made on another core by a `SideTask`: `value` waits for it, or makes it on the
/// asking thread if no other has begun.
final class SideResult<Value>: @unchecked Sendable {
    private var made: Value?
    private var task: SideTask?

    init(on queue: DispatchQueue = .global(), _ make: @escaping @Sendable () -> Value) {
        task = SideTask(on: queue) { [self] in made = make() }
    }

    var value: Value {
        task?.wait()
        return made!
    }

    /// Drops the work if no thread has begun it, else waits for it: nothing of it outlives the caller.
    func cancel() {
        task?.cancel()
    }
}
