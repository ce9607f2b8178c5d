import Foundation
import Testing
@testable import TesseraKit

/// `ViewObject.merging` appends only the keys it is given (a component's model values and its
/// accessibility labels, merged into every component's data); it must make exactly the object
/// `ViewObject(pairs + other)` makes, which it replaced.
@Suite struct ViewObjectMergingTests {
    /// Keys from a small set, so repeats within and across both sides are common; some are not
    /// ASCII, and two are the same text composed differently.
    static let keys = ["title", "body", "count", "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n",
                       "accessibilityLabel", "accessibilityHint", "é", "e\u{301}", "naïve", ""]

    static func value(_ random: inout SeededGenerator) -> ViewValue {
        switch Int.random(in: 0..<5, using: &random) {
        case 0: .null
        case 1: .string(String(Int.random(in: 0..<100, using: &random)))
        case 2: .number(Double(Int.random(in: -5...5, using: &random)))
        case 3: .bool(Bool.random(using: &random))
        default: .object(ViewObject([("x", .number(Double(Int.random(in: 0..<3, using: &random))))]))
        }
    }

    static func pairs(_ random: inout SeededGenerator, ascii: Bool) -> [(String, ViewValue)] {
        let pool = ascii ? keys.filter { $0.utf8.allSatisfy { $0 < 0x80 } } : keys
        return (0..<Int.random(in: 0...18, using: &random)).map { _ in (pool.randomElement(using: &random)!, value(&random)) }
    }

    @Test func mergingIsTheObjectOfBothPairListsForGeneratedObjects() {
        var random = SeededGenerator(seed: 29)
        var indexed = 0, replaced = 0
        for round in 0..<4_000 {
            let ascii = round % 4 != 0
            let base = ViewObject(Self.pairs(&random, ascii: ascii), isOpen: round % 3 == 0)
            let other = Self.pairs(&random, ascii: ascii)
            let merged = base.merging(other), expected = ViewObject(base.pairs + other, isOpen: base.isOpen)
            #expect(merged == expected && merged.keys == expected.keys && merged.isOpen == expected.isOpen, "\(base.pairs) + \(other)")
            // Every key reads the same value, whether the object looks it up by scanning or by hash.
            for key in Self.keys + ["missing"] { #expect(merged[key] == expected[key], "\(key) in \(base.pairs) + \(other)") }
            if merged.keys.count > ViewObject.indexedCount { indexed += 1 }
            if other.contains(where: { key, _ in base.keys.contains { $0 == key } }) { replaced += 1 }
        }
        #expect(indexed > 500 && replaced > 1_000, "\(indexed) large, \(replaced) with a key replaced")
    }

    /// An object whose values are computed when first read merges as the same object made whole.
    @Test func aDeferredObjectMergesAsItsValues() {
        let deferred = ViewObject(keys: ["iso", "short"], eager: ["iso": .string("2026-11-28")], identity: "d", compute: { key in key == "short" ? .string("Nov 28") : nil })
        let merged = deferred.merging([("short", .string("28/11")), ("long", .string("November 28"))])
        #expect(merged.keys == ["iso", "short", "long"] && merged["short"] == .string("28/11") && merged["iso"] == .string("2026-11-28"))
    }
}
