import Foundation
import Synchronization

/// Work started on another core that the thread needing its result does itself when no core has
/// begun it yet: on two cores, the other one is often still busy (checking the output folder), and
/// waiting for it would leave this one idle.
final class SideTask: Sendable {
    /// The work until a thread takes it.
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

    init(_ make: @escaping @Sendable () -> Value) {
        task = SideTask { [self] in made = make() }
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
