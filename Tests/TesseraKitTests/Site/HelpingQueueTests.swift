import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// Jobs on a few threads at once, and a waiting thread that does those no thread has begun.
@Suite struct HelpingQueueTests {
    /// Workers queued where no thread ever takes them (as on one core, where the queue's one
    /// thread is the waiting one): the waiting thread does every job, in the order added.
    @Test func jobsNoWorkerBeganAreDoneByTheWaitingThread() {
        let stalled = DispatchQueue(label: "never")
        stalled.suspend()
        let queue = HelpingQueue(width: 2, queue: stalled)
        let done = Mutex<[Int]>([])
        let here = pthread_self()
        let elsewhere = Mutex(0)
        for index in 0..<50 {
            queue.add {
                if pthread_equal(pthread_self(), here) == 0 { elsewhere.withLock { $0 += 1 } }
                done.withLock { $0.append(index) }
            }
        }
        queue.waitForAll()
        #expect(done.withLock { $0 } == Array(0..<50))
        #expect(elsewhere.withLock { $0 } == 0)
        // Waiting again with nothing added returns at once; the workers, let go at last, find
        // nothing left to do.
        queue.waitForAll()
        stalled.resume()
        stalled.sync {}
        #expect(done.withLock { $0 }.count == 50)
    }

    /// On real threads: every job done once, never more at once than the width and the waiting
    /// thread, and jobs added after a wait are waited for by the next.
    @Test func everyJobIsDoneOnceWithinTheWidth() {
        let queue = HelpingQueue(width: 2)
        let counts = Mutex<(now: Int, most: Int, done: [Int])>((0, 0, []))
        func job(_ index: Int) -> @Sendable () -> Void {
            {
                counts.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
                usleep(2_000)
                counts.withLock { $0.now -= 1; $0.done.append(index) }
            }
        }
        for index in 0..<40 { queue.add(job(index)) }
        queue.waitForAll()
        #expect(counts.withLock { $0.done }.sorted() == Array(0..<40))
        for index in 40..<60 { queue.add(job(index)) }
        queue.waitForAll()
        let final = counts.withLock { $0 }
        #expect(final.done.sorted() == Array(0..<60))
        #expect(final.now == 0)
        #expect(final.most <= 3)
    }
}
