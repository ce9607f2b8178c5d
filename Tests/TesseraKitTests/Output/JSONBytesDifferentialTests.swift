import Foundation
import Testing
@testable import TesseraKit

/// Page JSON is encoded from bytes (`JSONValue.quote`, `HTMLText.plain`): on generated text it
/// must give exactly what the Character-by-Character versions it replaced gave, and JSON that
/// Foundation reads back to the same strings.
@Suite struct JSONBytesDifferentialTests {
    static let count = ProcessInfo.processInfo.environment["TESSERA_JSON_DIFF"].flatMap(Int.init) ?? 5_000
    static let seed = ProcessInfo.processInfo.environment["TESSERA_JSON_SEED"].flatMap(UInt64.init) ?? 29

    /// Pieces of HTML as cmark writes it and as hostile text may hold: tags, entities (good, bad,
    /// long, numeric, out of range), quotes, backslashes, control characters, white space of
    /// several kinds, and non-ASCII letters with their combining marks attached.
    static let pieces = [
        "<p>", "</p>", "<li>", "</li>", "<br />", "<BR>", "</H2>", "<h3 id=\"x\">", "</blockquote>", "<a href=\"/a?b=1&amp;c\">", "</a>",
        "<em>", "</em>", "<code>", "</code>", "</pre>", "</tr>", "</div>", "<img src=\"x.png\" alt=\"\" />", "< p>", "</ li>", "<p/>", "<", ">",
        "&amp;", "&lt;", "&gt;", "&quot;", "&apos;", "&nbsp;", "&#65;", "&#x1F600;", "&#X41;", "&#0;", "&#xD800;", "&#1114112;",
        "&#+66;", "&bogus;", "&;", "&", "&amp", "&#xZZ;", "&averyveryverylongname;", ";",
        "word", " ", "  ", "\n", "\n\n", "\t", "\r", "\r\n", "\u{A0}", "\u{2003}", "\u{2028}", "\"", "\\", "/", "\u{1}", "\u{1F}", "\u{7F}",
        "é", "e\u{301}", "日本", "👩‍💻", "ß", "İ", "\u{85}",
    ]

    static func text(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 0...24, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// Object keys are sorted by `memcmp` of their UTF-8: the order of the byte-by-byte
    /// `lexicographicallyPrecedes` it replaced, on generated keys (prefixes of each other, equal,
    /// empty, small and long, non-ASCII, a string sliced from another).
    @Test func keysSortAsTheirUTF8BytesDid() {
        var random = SeededGenerator(seed: Self.seed &+ 3)
        let keyPieces = ["", "a", "b", "id", "ids", "Id", "_", "é", "e\u{301}", "日本", "👩‍💻", "\u{7F}", "\u{80}", "z", "title", String(repeating: "k", count: 20)]
        for _ in 0..<Self.count {
            let a = (0..<Int.random(in: 0...3, using: &random)).map { _ in keyPieces.randomElement(using: &random)! }.joined()
            var b = (0..<Int.random(in: 0...3, using: &random)).map { _ in keyPieces.randomElement(using: &random)! }.joined()
            if Bool.random(using: &random) { b = String(("x" + b + "y").dropFirst().dropLast()) }
            #expect(JSONValue.utf8Precedes(a, b) == a.utf8.lexicographicallyPrecedes(b.utf8), "\(a.debugDescription) \(b.debugDescription)")
        }
        let members = ["b": JSONValue.int(1), "a": .int(2), "ab": .int(3), "é": .int(4), "": .int(5)]
        #expect(String(decoding: JSONValue.object(JSONObject(members)).bytes, as: UTF8.self).trimmingCharacters(in: .newlines) == #"{"":5,"a":2,"ab":3,"b":1,"é":4}"#)
    }

    /// `JSONObject` keeps its members sorted as it is built, where the dictionary it replaced was
    /// sorted as it was written: after generated sets, replacements, removals and literals with
    /// repeated keys, it holds what the dictionary held, in the dictionary's written order, and
    /// writes the same bytes.
    @Test func anObjectBuiltMemberByMemberIsTheSortedDictionary() {
        var random = SeededGenerator(seed: Self.seed &+ 5)
        // Canonically equivalent keys are one key in a dictionary: "é" and "e\u{301}", `K` and the Kelvin sign.
        let keys = ["", "a", "b", "ab", "ba", "id", "ids", "Id", "_", "é", "e\u{301}", "日本", "👩‍💻", "\u{7F}", "\u{80}", "z", "title", "url", "type", "K", "\u{212A}"]
        for _ in 0..<Self.count / 5 {
            var object = JSONObject()
            var model: [String: JSONValue] = [:]
            for _ in 0..<Int.random(in: 0...30, using: &random) {
                let key = keys.randomElement(using: &random)!
                #expect(object[key] == model[key], "\(key.debugDescription) before a change")
                let value: JSONValue? = Int.random(in: 0..<4, using: &random) == 0 ? nil : .int(Int.random(in: 0..<9, using: &random))
                object[key] = value
                model[key] = value
            }
            let literal = (0..<Int.random(in: 0...8, using: &random)).map { _ in (keys.randomElement(using: &random)!, JSONValue.int(Int.random(in: 0..<9, using: &random))) }
            let fromLiteral = JSONObject(pairs: literal)
            let literalModel = Dictionary(literal, uniquingKeysWith: { _, last in last })
            for (built, expected) in [(object, model), (fromLiteral, literalModel)] {
                let sorted = expected.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
                #expect(built.map(\.key) == sorted.map(\.key))
                #expect(built.map(\.value) == sorted.map(\.value))
                #expect(built == JSONObject(expected))
                for key in keys { #expect(built[key] == expected[key]) }
                var bytes = Array("{".utf8)
                for (index, member) in sorted.enumerated() {
                    if index > 0 { bytes.append(UInt8(ascii: ",")) }
                    JSONValue.quote(member.key, into: &bytes)
                    bytes.append(UInt8(ascii: ":"))
                    member.value.write(into: &bytes)
                }
                #expect(JSONValue.object(built).bytes == bytes + Array("}\n".utf8))
            }
        }
    }

    /// `JSONMembers` (a component's fields, written to bytes as they come) writes what a
    /// `JSONObject` given the same members writes: sorted keys, a repeated key (canonically
    /// equivalent ones too) in its first place and spelling with its last value, and a member
    /// whose value writes nothing left out.
    @Test func membersWrittenAsTheyComeAreTheObjectBuiltFromThem() {
        var random = SeededGenerator(seed: Self.seed &+ 7)
        let keys = ["", "a", "b", "ab", "ba", "id", "Id", "_", "é", "e\u{301}", "日本", "\u{7F}", "\u{80}", "z", "title", "url", "K", "\u{212A}", "a\"b", "tab\t"]
        let values: [JSONValue] = [.null, .bool(true), .int(-3), .double(0.25), .string("x\"y\\z\u{1}"), .string("é"), .array([.int(1), .string("a")]), ["k": .int(1), "a": .bool(false)]]
        for _ in 0..<Self.count / 5 {
            var members = JSONMembers()
            var object = JSONObject()
            for _ in 0..<Int.random(in: 0...20, using: &random) {
                let key = keys.randomElement(using: &random)!
                if Int.random(in: 0..<5, using: &random) == 0 {
                    #expect(!members.add(key) { _ in }, "a value that writes nothing adds nothing")
                    continue
                }
                let value = values.randomElement(using: &random)!
                members.add(key, value)
                object[key] = value
            }
            var written: [UInt8] = []
            members.write(into: &written)
            #expect(written + Array("\n".utf8) == JSONValue.object(object).bytes, "\(String(decoding: written, as: UTF8.self))")
            #expect(members.isEmpty == object.isEmpty)
        }
    }

    @Test func plainTextOfHTMLIsTheCharacterVersions() {
        var random = SeededGenerator(seed: Self.seed)
        var failures: [String] = []
        for _ in 0..<Self.count {
            let html = Self.text(&random)
            if HTMLText.plain(html) != CharacterHTMLText.plain(html) { failures.append(html) }
            if HTMLText.decodeEntities(html) != CharacterHTMLText.decodeEntities(html) { failures.append("entities: " + html) }
            if failures.count > 5 { break }
        }
        #expect(failures.isEmpty, "\(failures.map { $0.debugDescription })")
    }

    /// Words joined by one space, as read by bytes, are `split`'s by `Character`: on the pieces
    /// above and on every ASCII character around words (`\u{1C}` to `\u{1F}` are not white
    /// space, `\r\n` is one character that is).
    ///
    /// Text beyond ASCII is read as bytes too, unless a character could join a space or control
    /// in one `Character`: the third kind of text puts every such kind next to spaces, among
    /// letters, symbols and punctuation that do not (a price's `€`, a minus sign, CJK, emoji).
    @Test func wordsAreSplitsByCharacter() {
        var random = SeededGenerator(seed: Self.seed &+ 2)
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let joining = [
            "€", "−", "é", "東京", "👍", "🇫🇷", "ก", "«", "»", "·", "\u{1160}", "\u{AC00}", "word", "1.50", " ", " ", "\t", "\n", "\r\n", "\u{B}",
            "\u{301}", "\u{20DD}", "\u{903}", "\u{200D}", "\u{200C}", "\u{FE0F}", "\u{1F3FD}", "\u{FF9E}", "\u{2B0}", "\u{E0041}", "\u{0E33}", "\u{0EB3}",
            "\u{600}", "\u{6DD}", "\u{0D4E}", "\u{111C2}", "\u{110BD}", "\u{A0}", "\u{3000}", "\u{85}", "\u{2028}", "\u{202F}", "\u{1680}",
        ]
        var fast = 0, beyondASCII = 0
        for round in 0..<Self.count {
            let text: String
            switch round % 3 {
            case 0: text = Self.text(&random)
            case 1: text = (0..<Int.random(in: 0...12, using: &random)).map { _ in Bool.random(using: &random) ? "word" : ascii.randomElement(using: &random)! }.joined()
            default: text = (0..<Int.random(in: 0...10, using: &random)).map { _ in joining.randomElement(using: &random)! }.joined()
            }
            #expect(HTMLText.words(text) == text.split(whereSeparator: \.isWhitespace).joined(separator: " "), "\(text.debugDescription)")
            if round % 3 == 2, text.utf8.contains(where: { $0 >= 0x80 }) {
                beyondASCII += 1
                if text.withUTF8Bytes({ HTMLText.collapsedWords($0) }) != nil { fast += 1 }
            }
        }
        // More than a quarter of such text is read as bytes: the fast path is not one that always declines.
        #expect(fast * 4 > beyondASCII, "\(fast) of \(beyondASCII) texts beyond ASCII read as bytes")
    }

    @Test func quotedStringsAreTheScalarVersionsAndReadBack() throws {
        var random = SeededGenerator(seed: Self.seed &+ 1)
        for _ in 0..<Self.count {
            let text = Self.text(&random)
            var bytes: [UInt8] = []
            JSONValue.quote(text, into: &bytes)
            let quoted = String(decoding: bytes, as: UTF8.self)
            #expect(quoted == Self.scalarQuote(text), "\(text.debugDescription)")
            let read = try JSONSerialization.jsonObject(with: Data(("[" + quoted + "]").utf8)) as? [String]
            #expect(read == [text], "\(text.debugDescription)")
        }
    }

    /// Every byte to escape, and its neighbours in value, at every offset of a word and beyond:
    /// the eight-byte scan must stop for each of them.
    @Test func everyByteToEscapeIsFoundAtEveryOffset() {
        let bytes: [UInt8] = Array(0x00...0x23) + [0x5B, 0x5C, 0x5D, 0x7F, 0x80, 0xA2, 0xDC]
        for byte in bytes where byte != 0 {
            for offset in 0..<19 {
                let scalar = byte < 0x80 ? String(UnicodeScalar(byte)) : String(UnicodeScalar(UInt32(byte) + 0x100)!)
                let text = String(repeating: "é", count: offset % 3) + String(repeating: "a", count: offset) + scalar + "tail"
                var quoted: [UInt8] = []
                JSONValue.quote(text, into: &quoted)
                #expect(String(decoding: quoted, as: UTF8.self) == Self.scalarQuote(text), "byte \(byte) at \(offset)")
            }
        }
    }

    @Test func aDocumentIsTheSameBytesAsText() {
        let document: JSONValue = ["b": ["x", 1, true, .null, .double(2.5)], "a": ["k": "v\"\n"], "é": .double(3)]
        #expect(document.bytes == Array(document.text.utf8))
        #expect(document.text == "{\"a\":{\"k\":\"v\\\"\\n\"},\"b\":[\"x\",1,true,null,2.5],\"é\":3}\n")
    }

    /// The scalar-by-scalar quoting page JSON used before: the oracle.
    static func scalarQuote(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out.append("\\\"")
            case "\\": out.append("\\\\")
            case "\n": out.append("\\n")
            case "\r": out.append("\\r")
            case "\t": out.append("\\t")
            case _ where scalar.value < 0x20:
                out.append("\\u00")
                out.append(String(format: "%02x", scalar.value))
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

/// The Character-by-Character `HTMLText` that page JSON used before it read bytes: the oracle.
enum CharacterHTMLText {
    static func plain(_ html: String) -> String {
        var text = ""
        var inTag = false
        var tag = ""
        for character in html {
            if inTag {
                if character == ">" {
                    inTag = false
                    // Block ends become line breaks.
                    let name = tag.lowercased().split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init) ?? ""
                    if ["p", "li", "br", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "tr", "div"].contains(name) && tag.hasPrefix("/") || name == "br" {
                        text += "\n"
                    }
                    tag = ""
                } else {
                    tag.append(character)
                }
            } else if character == "<" {
                inTag = true
            } else {
                text.append(character)
            }
        }
        // Each line trimmed (only lines that start or end with white space need it); empty lines
        // dropped, so runs of line breaks become one.
        var lines: [String] = []
        for line in decodeEntities(text).split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = (line.first?.isWhitespace ?? false) || (line.last?.isWhitespace ?? false) ? line.trimmingCharacters(in: .whitespaces) : String(line)
            if !trimmed.isEmpty { lines.append(trimmed) }
        }
        return lines.joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var index = text.startIndex
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        while index < text.endIndex {
            if text[index] == "&", let end = text[index...].prefix(12).firstIndex(of: ";") {
                let name = String(text[text.index(after: index)..<end])
                var replacement: String?
                // As cmark and HTML do: `&#0;` and references to no character are U+FFFD.
                func character(_ value: UInt32?) -> String? {
                    value.map { value in Unicode.Scalar(value).flatMap { $0.value == 0 ? nil : String(Character($0)) } ?? "\u{FFFD}" }
                }
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = character(UInt32(name.dropFirst(2), radix: 16))
                } else if name.hasPrefix("#") {
                    replacement = character(UInt32(name.dropFirst()))
                } else {
                    replacement = named[name]
                }
                if let replacement {
                    result += replacement
                    index = text.index(after: end)
                    continue
                }
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }
}

