import Foundation
import Synchronization

/// The Pygments workers of one Python, shared by every build of the process (the preview keeps
/// them warm between rebuilds): at most one per core, each lent to one thread at a time. A
/// thread asking for tokens waits while every worker is busy; the workers are started as
/// threads first need them, so a site without code starts none.
public final class PygmentsPool: @unchecked Sendable {
    let python: String
    private let condition = NSCondition()
    private var idle: [PygmentsWorker] = []
    private var running = 0
    /// The slots of kept workers in use or being reached (`PygmentsDaemon`), and each kept
    /// worker's slot.
    private var slotsInUse: Set<Int> = []
    private var slots: [ObjectIdentifier: Int] = [:]
    let limit = max(1, ProcessInfo.processInfo.activeProcessorCount)
    /// What the first worker said: every worker of one Python says the same.
    private var greeting: PygmentsWorker.Hello?

    /// A pool of its own (tests); builds share one per Python (`shared(python:)`).
    init(python: String) {
        self.python = python
    }

    /// Workers this pool started (not kept ones it reached), for tests.
    var startedWorkers: Int { condition.withLock { started } }
    private var started = 0

    private static let pools = Mutex<[String: PygmentsPool]>([:])
    private static let keeping = Mutex(false)

    /// Whether builds of this process use workers kept between builds (`PygmentsDaemon`), and
    /// leave theirs for the next: the command line's builds do, unless `TESSERA_KEEP_WORKERS=0`.
    public static var keepsWorkers: Bool {
        get { keeping.withLock { $0 } }
        set { keeping.withLock { $0 = newValue } }
    }

    /// The pool of `python` (a path, or a name looked up in `PATH`).
    static func shared(python: String) -> PygmentsPool {
        pools.withLock { pools in
            if let pool = pools[python] { return pool }
            let pool = PygmentsPool(python: python)
            pools[python] = pool
            return pool
        }
    }

    /// The engine's greeting, starting a worker if none has started; throws when Python or
    /// Pygments is missing. Callers at once wait for the one worker the first starts: a build
    /// asks on two cores at its start (the engine found ahead, and the build cache's check of
    /// its identity), and each started a worker, half a second of CPU for one a build of
    /// 10,000 posts did not need.
    func hello() throws -> PygmentsWorker.Hello {
        if let greeting = condition.withLock({ greeting }) { return greeting }
        greetingLock.lock()
        defer { greetingLock.unlock() }
        if let greeting = condition.withLock({ greeting }) { return greeting }
        return try withWorker { $0.hello }
    }
    private let greetingLock = NSLock()

    /// Runs `body` with a worker of its own. A worker that fails is let go (the next request
    /// starts another); a worker that cannot start throws `PygmentsWorker.StartError`.
    func withWorker<T>(_ body: (PygmentsWorker) throws -> T) throws -> T {
        condition.lock()
        while idle.isEmpty && running >= limit { condition.wait() }
        var worker = idle.popLast()
        var slot: Int?
        if worker == nil {
            running += 1
            if Self.keepsWorkers, let free = (0...).first(where: { !slotsInUse.contains($0) }) {
                slot = free
                slotsInUse.insert(free)
            }
        }
        condition.unlock()
        if worker == nil {
            do {
                if let slot, let kept = PygmentsDaemon.worker(python: python, slot: slot) {
                    worker = kept
                    condition.withLock { slots[ObjectIdentifier(kept)] = slot }
                } else {
                    if let slot { condition.withLock { _ = slotsInUse.remove(slot) } }
                    worker = try PygmentsWorker(python: python)
                    condition.withLock { started += 1 }
                }
            } catch {
                condition.withLock {
                    running -= 1
                    condition.signal()
                }
                throw error
            }
        }
        guard let worker else { fatalError("unreachable") }
        do {
            let result = try body(worker)
            condition.withLock {
                if greeting == nil { greeting = worker.hello }
                idle.append(worker)
                condition.signal()
            }
            return result
        } catch {
            condition.withLock {
                running -= 1
                if let slot = slots.removeValue(forKey: ObjectIdentifier(worker)) { slotsInUse.remove(slot) }
                condition.signal()
            }
            throw error
        }
    }
}
