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
            var bytes = line
            #expect(bytes.withUTF8(FragmentCheck.mayHoldIDs) == expected, "\(line)")
        }
    }

    /// The structure of a body, by bytes, against the same rules read line by line with Foundation.
    @Test func theStructureOfGeneratedBodiesIsTheLinesThatCanChangeIDs() {
        var generator = SystemRandomNumberGenerator()
        let lines = ["", "Text.", "# Head", "Setup", "=====", "---", "> quote", "> ", "![a](b.png)", "[^1]: note", "> [!NOTE]", "<p id=\"x\">",
                     "```swift", "```", "~~~ component", "   ```component", "a # b", "é 🎉", "\t- item", "- - -"]
        func reference(_ body: String) -> String {
            let split = body.split(separator: "\n", omittingEmptySubsequences: false)
            var kept: [Substring] = []
            var paragraphStart = 0
            for (index, line) in split.enumerated() {
                let inner = line.drop { $0 == " " || $0 == ">" || $0 == "\t" }
                if inner.isEmpty {
                    paragraphStart = index + 1
                    continue
                }
                if inner.hasPrefix("```") || inner.hasPrefix("~~~") {
                    let info = inner.drop { $0 == "`" || $0 == "~" }.drop { $0 == " " || $0 == "\t" }
                    if info.hasPrefix("component") { return body }
                }
                if inner.allSatisfy({ $0 == "=" || $0 == "-" || $0 == " " }) && index > paragraphStart {
                    kept.append(contentsOf: split[paragraphStart...index])
                    paragraphStart = index + 1
                    continue
                }
                if line.contains("#") || line.contains("[^") || line.contains("[!") || line.contains("![") || line.contains("id=") { kept.append(line) }
            }
            return kept.joined(separator: "\n")
        }
        for _ in 0..<5_000 {
            let body = (0..<Int.random(in: 0..<14, using: &generator)).map { _ in lines.randomElement(using: &generator)! }.joined(separator: "\n")
            #expect(FragmentCheck.structure(ofBody: body) == reference(body), "\(body)")
        }
    }
}
