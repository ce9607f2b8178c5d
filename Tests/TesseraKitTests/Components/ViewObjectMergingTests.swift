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

    /// A large object (past `indexedCount` pairs) finds its keys as a `[String: Int]` filled in
    /// order does: keys equal as `String`s are one key (the Kelvin sign and `K`, the Greek
    /// question mark and `;`, composed and decomposed letters), the first place of a repeated
    /// key keeps the last value, and a key beyond ASCII finds an ASCII one it equals. Generated
    /// objects of 13 to 60 pairs, mostly ASCII and some not, looked up with every key of the pool.
    @Test func aLargeObjectFindsItsKeysAsADictionaryDid() {
        var random = SeededGenerator(seed: 83)
        let ascii = (0..<40).map { "key\($0)" } + ["K", ";", "A", "", "title", "a"]
        let beyond = ["\u{212A}", "\u{37E}", "Å", "\u{212B}", "A\u{30A}", "é", "e\u{301}", "naïve", "日本"]
        var withBeyond = 0
        for round in 0..<3_000 {
            let pool = round % 3 == 0 ? ascii + beyond : ascii
            let pairs = (0..<Int.random(in: 13...60, using: &random)).map { _ in (pool.randomElement(using: &random)!, Self.value(&random)) }
            var index: [String: Int] = [:], keys: [String] = [], values: [ViewValue] = []
            for (key, value) in pairs {
                if let position = index[key] { values[position] = value; continue }
                index[key] = keys.count
                keys.append(key)
                values.append(value)
            }
            let object = ViewObject(pairs)
            #expect(object.keys == keys, "round \(round)")
            for key in ascii + beyond + ["missing", "KEY0", "key"] {
                #expect(object[key] == index[key].map { values[$0] }, "\(key.debugDescription) in round \(round)")
            }
            if keys.contains(where: { $0.utf8.contains { $0 >= 0x80 } }) { withBeyond += 1 }
            // Merged past the indexed size from a small object: the same lookups. (ASCII keys
            // only: a small object's scan also asks for the same number of bytes, so it keeps
            // `;` and the Greek question mark apart, as the comment on `merging` says.)
            guard round % 3 != 0 else { continue }
            let small = ViewObject(Array(pairs.prefix(5))), merged = small.merging(Array(pairs.dropFirst(5)))
            let expected = ViewObject(pairs)
            for key in ascii { #expect(merged[key] == expected[key], "merged: \(key.debugDescription) in round \(round)") }
        }
        #expect(withBeyond > 500)
    }

    /// An object whose values are computed when first read merges as the same object made whole.
    @Test func aDeferredObjectMergesAsItsValues() {
        let deferred = ViewObject(keys: ["iso", "short"], eager: ["iso": .string("2026-11-28")], identity: "d", compute: { key in key == "short" ? .string("Nov 28") : nil })
        let merged = deferred.merging([("short", .string("28/11")), ("long", .string("November 28"))])
        #expect(merged.keys == ["iso", "short", "long"] && merged["short"] == .string("28/11") && merged["iso"] == .string("2026-11-28"))
    }
}
