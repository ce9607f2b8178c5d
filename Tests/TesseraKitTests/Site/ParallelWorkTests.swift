import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// The parallel helpers the build relies on for speed: same results as a plain loop, in order.
@Suite struct ParallelWorkTests {
    final class Tracked: @unchecked Sendable {
        static let lock = NSLock()
        nonisolated(unsafe) static var alive = 0
        let value: Int
        init(_ value: Int) {
            self.value = value
            Self.lock.withLock { Self.alive += 1 }
        }
        deinit { Self.lock.withLock { Self.alive -= 1 } }
    }

    @Test func mapReleasingGivesMapsResultsAndLetsEachElementGo() {
        var input = (0..<2_000).map(Tracked.init)
        let before = Tracked.lock.withLock { Tracked.alive }
        var aliveDuring: [Int] = []
        let results = ParallelMap.mapReleasing(&input) { element -> Int in
            if element.value == 1_999 { aliveDuring.append(Tracked.lock.withLock { Tracked.alive }) }
            return element.value * 2
        }
        #expect(input.isEmpty)
        #expect(results == (0..<2_000).map { $0 * 2 })
        #expect(Tracked.lock.withLock { Tracked.alive } == before - 2_000)
        // By the time the last element is transformed, most of the others are gone.
        #expect(aliveDuring.count == 1 && aliveDuring[0] < before)
        var one = [Tracked(7)]
        #expect(ParallelMap.mapReleasing(&one) { $0.value } == [7])
    }

    /// Started in another order, every element is transformed once and the results keep the
    /// input's order; the elements changed in place are the input's own.
    @Test func mapMutatingInAnOrderKeepsTheInputsOrder() {
        var input = Array(0..<5_000)
        let order = Array(input.indices.reversed().filter { $0 % 3 == 0 }) + input.indices.filter { $0 % 3 != 0 }
        let started = Mutex<[Int]>([])
        let results = ParallelMap.mapMutating(&input, order: order) { element -> Int in
            started.withLock { $0.append(element) }
            element += 1
            return element * 2
        }
        #expect(results == (1...5_000).map { $0 * 2 })
        #expect(input == Array(1...5_000))
        #expect(started.withLock { $0.sorted() } == Array(0..<5_000))
        // Elements start in the order given, but for the race between cores: those in its first
        // half start, on average, well before those in its second.
        let position = started.withLock { Dictionary(uniqueKeysWithValues: $0.enumerated().map { ($1, $0) }) }
        let mean = { (part: ArraySlice<Int>) in Double(part.reduce(0) { $0 + position[$1]! }) / Double(part.count) }
        #expect(mean(order[..<2_500]) + 1_000 < mean(order[2_500...]))
    }

    @Test func aLargeFolderIsRemovedWhole() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-removal-\(UUID().uuidString)").path
        for index in 0..<600 {
            try FileManager.default.createDirectory(atPath: root + "/posts/p\(index)/nested", withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/posts/p\(index)/index.html"))
            try Data("y".utf8).write(to: URL(fileURLWithPath: root + "/posts/p\(index)/nested/a.txt"))
        }
        FolderRemoval.remove(root)
        #expect(!FileManager.default.fileExists(atPath: root))
    }
}
