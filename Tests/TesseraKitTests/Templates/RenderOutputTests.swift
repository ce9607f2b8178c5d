import Foundation
import Testing
@testable import TesseraKit

/// A render's bytes become its text without being decoded again (`String(validUTF8:)`): the
/// string made must be the one decoding makes, in every way a string is used.
@Suite struct RenderOutputTests {
    static let pieces = [
        "a", "Hello", " ", "<", "&", "\"", "'", "\n", "\r\n", "é", "e\u{301}", "ß", "Ω", "“quoted”", "—", "東京", "👩‍💻", "🇫🇷", "\u{0}", "ﬁ",
        "Å", "A\u{30A}", "\u{FEFF}", String(repeating: "long ascii text ", count: 5),
    ]

    /// Generated texts of whole strings, one after another, as a render writes them: equal,
    /// hashed alike, ordered alike, of the same characters, scalars and bytes as decoded.
    @Test func textCopiedWithoutDecodingIsTheTextDecodingMakes() {
        var generator = SeededGenerator(seed: 4_242)
        var ascii = 0, other = 0
        for round in 0..<3_000 {
            let parts = (0..<Int(generator.next() % 12)).map { _ in Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))] }
            let bytes = parts.flatMap { Array($0.utf8) }
            let decoded = String(decoding: bytes, as: UTF8.self)
            let copied = bytes.withUnsafeBufferPointer { String(validUTF8: $0) }
            if bytes.allSatisfy({ $0 < 0x80 }) { ascii += 1 } else { other += 1 }
            // Another text to order against: the same with one piece more, and one of its own.
            let longer = decoded + Self.pieces[round % Self.pieces.count], unrelated = parts.reversed().joined()
            #expect(copied == decoded && copied.utf8.elementsEqual(decoded.utf8), "round \(round): \(decoded.debugDescription)")
            #expect(copied.count == decoded.count && copied.unicodeScalars.elementsEqual(decoded.unicodeScalars))
            #expect(copied.hashValue == decoded.hashValue && Set([copied]).contains(decoded) && [decoded: round][copied] == round)
            #expect((copied < longer) == (decoded < longer) && (longer < copied) == (longer < decoded))
            #expect((copied < unrelated) == (decoded < unrelated) && (unrelated < copied) == (unrelated < decoded))
            #expect(copied.lowercased() == decoded.lowercased() && copied.hasPrefix(parts.first ?? ""))
        }
        #expect(ascii > 100 && other > 1_000, "both kinds of text are generated")
    }

    /// What a render writes (strings, escaped strings, literals, a string put in after a line
    /// break) reads back as the same pieces joined and decoded.
    @Test func aRendersBytesReadBackAsItsPiecesJoined() {
        var generator = SeededGenerator(seed: 77)
        for round in 0..<1_000 {
            let out = RenderOutput(capacity: Int(generator.next() % 64))
            var expected = ""
            for _ in 0..<Int(generator.next() % 20) {
                let piece = Self.pieces[Int(generator.next() % UInt64(Self.pieces.count))]
                switch generator.next() % 4 {
                case 0:
                    HTMLEscape.append(piece, to: out)
                    expected += piece.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                        .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;").replacingOccurrences(of: "'", with: "&#39;")
                case 1:
                    out.append("✓" as StaticString)
                    expected += "✓"
                default:
                    out.append(piece)
                    expected += piece
                }
            }
            // Indentation as a partial's: after the first line break, if any.
            if let lineBreak = Array(expected.utf8).firstIndex(of: 0x0A) {
                out.insert("  ·", at: lineBreak + 1)
                var bytes = Array(expected.utf8)
                bytes.insert(contentsOf: Array("  ·".utf8), at: lineBreak + 1)
                expected = String(decoding: bytes, as: UTF8.self)
            }
            #expect(out.string == expected && out.string.utf8.elementsEqual(expected.utf8), "round \(round)")
        }
    }
}
