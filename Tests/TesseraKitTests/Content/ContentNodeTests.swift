import Foundation
import Testing
@testable import TesseraKit

/// A node keeps where its text starts in 16 bytes (`ContentNode.textStart`, `textIndent`), and
/// reads back exactly what was set, whatever was set: checked against the two plain fields it
/// replaced over generated sequences of changes.
@Suite struct ContentNodeTests {
    /// The fields as they were: what every read must give.
    struct Plain: Equatable {
        var location: TesseraKit.SourceLocation
        var textStart: TesseraKit.SourceLocation?
        var textIndent = 1
    }

    @Test func textStartAndIndentReadBackAsSet() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func pick(_ n: Int) -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 33) % n }
        let files = ["/site/content/a.md", "/site/content/b.md", ""]
        let numbers = [1, 2, 7, 1_000, Int(Int32.max), Int(Int32.max) + 1, Int.max]
        func location() -> TesseraKit.SourceLocation {
            var place = TesseraKit.SourceLocation(file: files[pick(files.count)], line: numbers[pick(numbers.count)], column: numbers[pick(numbers.count)])
            // Fields set after the location was made skip its clamping to 1.
            if pick(6) == 0 { place.line = pick(2) }
            if pick(6) == 0 { place.column = pick(2) }
            return place
        }
        var wide = 0, compact = 0
        for _ in 0..<300 {
            var plain = Plain(location: location())
            var node = ContentNode(.string("text"), at: plain.location)
            for _ in 0..<(1 + pick(6)) {
                switch pick(4) {
                case 0:
                    let start = pick(5) == 0 ? nil : location()
                    plain.textStart = start
                    node.textStart = start
                case 1:
                    let indent = pick(3) == 0 ? numbers[pick(numbers.count)] : pick(40) - 2
                    plain.textIndent = indent
                    node.textIndent = indent
                case 2:
                    // The node's own place moves (to another file, too): the start stays where it was.
                    let moved = location()
                    plain.location = moved
                    node.location = moved
                default:
                    let start = TesseraKit.SourceLocation(file: plain.location.file, line: 1 + pick(50), column: 1 + pick(80))
                    plain.textStart = start
                    node.textStart = start
                }
                let read = Plain(location: node.location, textStart: node.textStart, textIndent: node.textIndent)
                #expect(read == plain)
                let elsewhere = plain.textStart.map { $0.file != plain.location.file } ?? false
                if elsewhere { wide += 1 } else { compact += 1 }
            }
            // Equal fields, equal nodes: however the values were reached.
            var fresh = ContentNode(.string("text"), at: plain.location)
            fresh.textStart = plain.textStart
            fresh.textIndent = plain.textIndent
            #expect(fresh == node, "\(plain)")
        }
        #expect(wide > 50 && compact > 300, "both forms are exercised: \(wide) wide, \(compact) compact")
    }

    /// The point of it: a node of a parsed front matter is 80 bytes, not 104.
    @Test func aNodeIsEightyBytes() {
        #expect(MemoryLayout<ContentNode>.stride <= 80, "\(MemoryLayout<ContentNode>.stride)")
    }
}
