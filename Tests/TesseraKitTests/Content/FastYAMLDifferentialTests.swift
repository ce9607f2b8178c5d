import Foundation
import Testing
@testable import TesseraKit

/// `FastYAML` against Yams on generated documents: whatever the fast reader takes, Yams must
/// accept too and read to the very same tree, text compared byte for byte and every place
/// (line, column, where a quoted text starts) included. `TESSERA_YAML_DIFF=N` runs N documents
/// (default 20,000, about a second), `TESSERA_YAML_SEED` another seed.
@Suite struct FastYAMLDifferentialTests {
    static let count = ProcessInfo.processInfo.environment["TESSERA_YAML_DIFF"].flatMap(Int.init) ?? 20_000
    static let seed = ProcessInfo.processInfo.environment["TESSERA_YAML_SEED"].flatMap(UInt64.init) ?? 27

    @Test func generatedDocumentsReadAsYamsReadsThem() {
        var generator = YAMLDocumentGenerator(seed: Self.seed)
        var taken = 0, disagreements = 0
        for index in 0..<Self.count {
            let text = generator.document()
            let lineOffset = index % 3
            guard let fast = FastYAML.parse(text, file: "g.md", lineOffset: lineOffset) else { continue }
            taken += 1
            let difference: String?
            do {
                let yams = try YAMLParser.parseWithYams(text, file: "g.md", lineOffset: lineOffset)
                difference = yams.map { Self.firstDifference(fast, $0, at: "root") } ?? "Yams reads no document"
            } catch {
                difference = "Yams rejects it: \(error)"
            }
            if let difference {
                disagreements += 1
                if disagreements <= 20 { Issue.record("document \(index) \(Self.visible(text)): \(difference)") }
            }
        }
        if ProcessInfo.processInfo.environment["TESSERA_YAML_DIFF"] != nil {
            print("FastYAML differential: \(Self.count) documents, \(taken) taken by FastYAML, \(disagreements) disagreements")
        }
        // The generator must keep the fast path busy, or this test would prove nothing.
        #expect(taken * 8 > Self.count, "FastYAML took only \(taken) of \(Self.count) documents")
    }

    /// The text with every character outside printable ASCII written as `\u{…}`.
    static func visible(_ text: String) -> String {
        "\"" + text.unicodeScalars.map { $0.value >= 0x20 && $0.value < 0x7F ? String($0) : "\\u{\(String($0.value, radix: 16, uppercase: true))}" }.joined() + "\""
    }

    /// Where two trees first differ, or nil when they are the same to the byte and the place.
    static func firstDifference(_ fast: ContentNode, _ yams: ContentNode, at path: String) -> String? {
        func places(_ a: TesseraKit.SourceLocation?, _ b: TesseraKit.SourceLocation?) -> Bool {
            a?.file == b?.file && a?.line == b?.line && a?.column == b?.column
        }
        guard places(fast.location, yams.location) else { return "\(path): at \(fast.location), Yams \(yams.location)" }
        guard places(fast.textStart, yams.textStart), fast.textIndent == yams.textIndent else {
            return "\(path): text starts at \(String(describing: fast.textStart)), Yams \(String(describing: yams.textStart))"
        }
        switch (fast.value, yams.value) {
        case let (.string(a), .string(b)), let (.timestamp(a), .timestamp(b)):
            return Array(a.utf8) == Array(b.utf8) ? nil : "\(path): \(a.debugDescription), Yams \(b.debugDescription)"
        case let (.double(a), .double(b)):
            return a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) ? nil : "\(path): \(a), Yams \(b)"
        case let (.list(a), .list(b)):
            guard a.count == b.count else { return "\(path): \(a.count) items, Yams \(b.count)" }
            return zip(a, b).enumerated().lazy.compactMap { firstDifference($1.0, $1.1, at: "\(path)[\($0)]") }.first
        case let (.map(a), .map(b)):
            guard a.count == b.count else { return "\(path): \(a.count) keys, Yams \(b.count)" }
            for (x, y) in zip(a, b) {
                guard Array(x.key.utf8) == Array(y.key.utf8), places(x.keyLocation, y.keyLocation) else {
                    return "\(path): key \(x.key.debugDescription) at \(x.keyLocation), Yams \(y.key.debugDescription) at \(y.keyLocation)"
                }
                if let difference = firstDifference(x.value, y.value, at: "\(path).\(x.key)") { return difference }
            }
            return nil
        case let (a, b):
            return a == b ? nil : "\(path): \(a), Yams \(b)"
        }
    }
}
