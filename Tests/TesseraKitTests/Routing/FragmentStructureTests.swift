import Foundation
import Testing
@testable import TesseraKit

/// `FragmentCheck.mayHoldIDs`, the byte scan that picks the lines of a body that can change its
/// ids or its links to ids, against Foundation's substring search it replaced, over generated lines.
@Suite struct FragmentStructureTests {
    @Test func theByteScanAgreesWithSubstringSearchOnGeneratedLines() {
        var generator = SystemRandomNumberGenerator()
        let pieces = ["#", "[", "^", "!", "i", "d", "=", "id", "[^", "![", "[!", " ", "a", "é", "🎉", "\\", "`", "(", ")"]
        for _ in 0..<20_000 {
            let line = (0..<Int.random(in: 0..<12, using: &generator)).map { _ in pieces.randomElement(using: &generator)! }.joined()
            let expected = line.contains("#") || line.contains("[^") || line.contains("[!") || line.contains("![") || line.contains("id=")
            #expect(FragmentCheck.mayHoldIDs(line[...]) == expected, "\(line)")
        }
    }
}
