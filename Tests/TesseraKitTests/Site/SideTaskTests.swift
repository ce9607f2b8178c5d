import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// Work started on another core is over, captures included, when the thread waiting for it goes on.
@Suite struct SideTaskTests {
    /// Set at the very end of the deinit of what the work captured.
    final class Released: Sendable {
        let done = Mutex(false)
    }

    final class Captured: Sendable {
        let released: Released
        init(_ released: Released) { self.released = released }
        deinit {
            // Slow to free, as a build's state is: a release left until after the waiting thread
            // was let go would still be running when `wait` returns.
            usleep(50_000)
            released.done.withLock { $0 = true }
        }
    }

    @Test func whatTheWorkCapturedIsReleasedBeforeWaitReturns() {
        let released = Released()
        let started = DispatchSemaphore(value: 0)
        var captured: Captured? = Captured(released)
        let task = SideTask { [captured] in
            started.signal()
            _ = captured
        }
        captured = nil
        // The other core took the work: `wait` cannot run it here.
        started.wait()
        task.wait()
        #expect(released.done.withLock { $0 })
    }

    /// Work queued where no thread ever takes it (as on one core, where the queue's one thread
    /// is the waiting one): waiting runs it here, and so does `runUnlessBegun`, which returns
    /// without waiting when another thread has it.
    @Test func workTheQueueNeverStartsIsDoneByTheThreadThatNeedsIt() {
        let stalled = DispatchQueue(label: "never")
        stalled.suspend()
        let ran = Mutex<[Bool]>([])
        let here = pthread_self()
        let waited = SideTask(on: stalled) { ran.withLock { $0.append(pthread_equal(pthread_self(), here) != 0) } }
        waited.wait()
        let run = SideTask(on: stalled) { ran.withLock { $0.append(pthread_equal(pthread_self(), here) != 0) } }
        run.runUnlessBegun()
        run.runUnlessBegun()
        run.wait()
        #expect(ran.withLock { $0 } == [true, true])
        let result = SideResult(on: stalled) { 42 }
        #expect(result.value == 42)
        // The queue, let go at last, finds nothing left to run.
        stalled.resume()
        stalled.sync {}
        #expect(ran.withLock { $0 }.count == 2)
    }

    @Test func workNoCoreBeganRunsOnTheWaitingThread() {
        let ran = Mutex(0)
        let task = SideTask { ran.withLock { $0 += 1 } }
        task.wait()
        task.wait()
        #expect(ran.withLock { $0 } == 1)
    }

    /// `cancel` returns once no thread runs the work: work begun is finished, work not begun
    /// never runs, not later and not in `wait`.
    @Test func cancelledWorkIsDoneOrNeverRuns() {
        let started = DispatchSemaphore(value: 0)
        let finished = Mutex(false)
        let begun = SideTask {
            started.signal()
            usleep(50_000)
            finished.withLock { $0 = true }
        }
        started.wait()
        begun.cancel()
        #expect(finished.withLock { $0 })

        let ran = Mutex(0)
        let tasks = (0..<64).map { _ in SideTask { ran.withLock { $0 += 1 } } }
        tasks.forEach { $0.cancel() }
        let afterCancel = ran.withLock { $0 }
        usleep(100_000)
        tasks.forEach { $0.wait() }
        #expect(ran.withLock { $0 } == afterCancel)
    }

    /// A `SideResult`'s value is its work's, made once whether another core or the asking thread
    /// made it; cancelled, its work is done or never runs, as a `SideTask`'s.
    @Test func aSideResultGivesItsWorksValueOnce() {
        let ran = Mutex(0)
        let results = (0..<32).map { number in SideResult { () -> Int in ran.withLock { $0 += 1 }; return number * number } }
        #expect(results.map(\.value) == (0..<32).map { $0 * $0 })
        #expect(results.map(\.value) == (0..<32).map { $0 * $0 })
        #expect(ran.withLock { $0 } == 32)

        let cancelled = (0..<64).map { _ in SideResult { ran.withLock { $0 += 1 } } }
        cancelled.forEach { $0.cancel() }
        let afterCancel = ran.withLock { $0 }
        usleep(100_000)
        #expect(ran.withLock { $0 } == afterCancel, "no work began after cancel returned")
    }
}
