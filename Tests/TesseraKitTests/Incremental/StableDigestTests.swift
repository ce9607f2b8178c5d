import Foundation
import Testing
@testable import TesseraKit

/// The digests the build cache compares: `of` for inputs, `ofOutput` for the files a build writes.
@Suite struct StableDigestTests {
    /// Bytes of a generated length and content, the same every run.
    static func generated(_ count: Int, seed: UInt64) -> [UInt8] {
        var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
        return (0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }

    /// Changing any one bit anywhere, in the lanes or in the tail, changes the output digest.
    @Test func everyBitOfAnOutputCounts() {
        for count in [0, 1, 7, 8, 31, 32, 33, 63, 64, 65, 100, 257] {
            let bytes = Self.generated(count, seed: UInt64(count))
            let digest = StableDigest.ofOutput(Data(bytes))
            var unchanged = 0
            for position in 0..<count {
                for bit in 0..<8 {
                    var flipped = bytes
                    flipped[position] ^= 1 << bit
                    if StableDigest.ofOutput(Data(flipped)) == digest { unchanged += 1 }
                }
            }
            #expect(unchanged == 0, "\(count) bytes: \(unchanged) flips kept the digest")
        }
    }

    /// Lengths count: zeros added at the end, or bytes moved from the lanes into the tail, are
    /// another file. And 20,000 different files have 20,000 digests.
    @Test func differentOutputsHaveDifferentDigests() {
        var seen: [UInt64: [UInt8]] = [:]
        var inputs = Set<[UInt8]>()
        var collisions = 0
        func note(_ bytes: [UInt8]) {
            let digest = StableDigest.ofOutput(Data(bytes))
            if let earlier = seen[digest], earlier != bytes { collisions += 1 }
            seen[digest] = bytes
            inputs.insert(bytes)
        }
        for count in 0..<200 { note([UInt8](repeating: 0, count: count)) }
        for seed in 0..<19_800 { note(Self.generated(1 + Int(seed % 700), seed: 1_000 + UInt64(seed))) }
        #expect(collisions == 0)
        #expect(inputs.count > 19_900 && seen.count == inputs.count, "\(inputs.count) inputs, \(seen.count) digests")
    }

    /// A `Data` that is a slice of a larger one (not starting at 0) digests as its own bytes.
    @Test func aSliceDigestsAsItsBytes() {
        let bytes = Self.generated(300, seed: 7)
        let whole = Data([0xFF, 0xEE, 0xDD] + bytes)
        #expect(StableDigest.ofOutput(whole[3...]) == StableDigest.ofOutput(Data(bytes)))
    }
}
