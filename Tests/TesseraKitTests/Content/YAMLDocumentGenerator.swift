import Foundation
@testable import TesseraKit

/// Random YAML documents shaped like front matter and data files, salted with every character and
/// form that YAML reads in a way of its own, for the differential test of `FastYAML` against Yams.
///
/// Most documents are the plain content FastYAML is for, so the fast path is exercised; the rest
/// mix in control and special characters, Unicode line breaks, BOMs, tabs, quotes, indicators,
/// typed-value lookalikes, anchors, tags, comments and multi-line forms, in keys and values alike.
struct YAMLDocumentGenerator {
    var random: SeededGenerator

    init(seed: UInt64) { random = SeededGenerator(seed: seed) }

    static let words = ["title", "a", "Tags", "draft", "x-y", "snake_key", "k2", "Café ☕", "日本語", "e\u{301}t\u{301}e\u{301}", "🙂 ok", "hello world", "a:b", "C:/x", "it's", "say \"hi\"", "/about/", "(c) 2026", "$5", "-dash", "x_", "nbsp\u{A0}", "ideo\u{3000}space"]

    static let keys = ["title", "a", "Tags", "draft", "x-y", "snake_key", "k2", "x_", "yes", "null", "on", "n", "true", "Off", "id", "url", "Y2"]

    /// Scalars YAML 1.1 (as Yams resolves them) may type as something other than text.
    static let typed = YAMLScalarTests.scalars + [
        "0b101", "+1", "+.5", "1_000.5", "-.Inf", ".INF", ".NaN", "0o17", "0x_1F", "1:30", "190:20:30.15", "-1:30",
        "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5", "2002-12-14", "2026-11-01T09:30:00.5Z", "1e-3", "-1E+3", "6.8523015e+5",
        "685.230_15e+03", "~", "", "o", "0.", "-", "- x", "? x", "<<", "!", "&", "*", "|", ">", "%", "@", "`",
    ]

    /// Characters that YAML, or libyaml's reader, treats specially: every C0 and C1 control, DEL,
    /// the Unicode line breaks, BOM, U+FFFE and U+FFFF (surrogates cannot be in a Swift string).
    static let specials: [String] = (0..<0x20).map { String(UnicodeScalar(UInt8($0))) } + ["\u{7F}"]
        + (0x80...0x9F).map { String(UnicodeScalar(UInt8($0))) }
        + ["\u{2028}", "\u{2029}", "\u{FEFF}", "\u{FFFE}", "\u{FFFF}", "\u{FFFD}", "\u{E000}", "\u{10FFFF}", "\u{D7FF}", "\u{A0}"]

    /// Text that means something to YAML's syntax.
    static let indicators = ["#", " #", "# ", ": ", ":", ":?", "'", "\"", "''", "\\", "\\n", "\\x41", ",", ", ", "[", "]", "{", "}", "&a ", "*a", "!t ", "!!str ",
                             "|", ">", "%", "@", "`", "?", "? ", "- ", "-", "---", "...", " ", "  ", "\t", "\r\n", "\n", "\n  ", "\r"]

    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }
    mutating func pick<T>(_ items: [T]) -> T { items.randomElement(using: &random)! }

    /// A document: four in ten without special characters, the others with some of their
    /// scalars salted (one in ten, or three in ten).
    mutating func document() -> String {
        let clean = pick([100, 100, 100, 100, 90, 90, 90, 70, 70, 70])
        var lines: [String] = []
        if chance(3) { lines.append("---") }
        if chance(3) { lines.append("# a comment") }
        block(indent: 0, depth: 0, clean: clean, into: &lines)
        if chance(2) { lines.append("...") }
        let breakText = chance(95) ? "\n" : pick(["\r\n", "\r", "\u{85}", "\u{2028}", "\u{2029}", "\n\n"])
        var text = lines.joined(separator: breakText)
        if chance(70) { text += "\n" }  // front matter has no line end after its last line
        if chance(2) { text = "\u{FEFF}" + text }
        return text
    }

    /// A block mapping or sequence at `indent`.
    mutating func block(indent: Int, depth: Int, clean: Int, into lines: inout [String]) {
        let pad = String(repeating: chance(2) ? "\t" : " ", count: indent)
        let isList = depth > 0 && chance(30)
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            if chance(4) { lines.append(chance(50) ? "" : pad + "# note") }
            let head = isList ? pad + "-" : pad + key(clean: clean) + (chance(97) ? ":" : pick([" :", ":\t", "::"]))
            switch Int.random(in: 0..<100, using: &random) {
            case 0..<55:
                lines.append(head + (chance(95) ? " " : pick(["  ", ""])) + inline(depth: depth, clean: clean) + (chance(3) ? pick([" # c", "#c", "  ", " \t"]) : ""))
            case 55..<65 where depth < 3:
                lines.append(head)
                block(indent: indent + (isList ? 2 : Int.random(in: 1...4, using: &random)), depth: depth + 1, clean: clean, into: &lines)
            case 65..<72 where depth < 3 && !isList:
                // A list at the key's own indentation.
                lines.append(head)
                let list = String(repeating: " ", count: indent)
                for _ in 0..<Int.random(in: 1...3, using: &random) { lines.append(list + "- " + inline(depth: depth + 1, clean: clean)) }
            case 72..<80 where depth < 3:
                // `- key: value` items whose keys line up.
                lines.append(head)
                let list = String(repeating: " ", count: indent + Int.random(in: 0...2, using: &random))
                for _ in 0..<Int.random(in: 1...2, using: &random) {
                    lines.append(list + "- " + key(clean: clean) + ": " + inline(depth: depth + 1, clean: clean))
                    if chance(60) { lines.append(list + (chance(90) ? "  " : " ") + key(clean: clean) + ": " + inline(depth: depth + 1, clean: clean)) }
                }
            case 80..<85:
                lines.append(head + " " + pick(["|", ">", "|-", ">+", "&a", "!!map", "&x |"]))
                lines.append(pad + "  " + scalar(clean: clean))
            case 85..<90:
                // A plain or quoted scalar continued on the next line.
                lines.append(head + " " + pick(["", "'", "\""]) + scalar(clean: clean))
                lines.append(pad + String(repeating: " ", count: Int.random(in: 0...3, using: &random)) + scalar(clean: clean) + pick(["", "'", "\""]))
            default:
                lines.append(head + " " + flow(depth: depth, clean: clean))
            }
        }
    }

    mutating func key(clean: Int) -> String {
        let word = chance(90) ? pick(Self.keys) : scalar(clean: clean)
        return chance(4) ? quoted(word) : word
    }

    /// A scalar's text: a word or a typed-value lookalike, perhaps with special characters mixed in.
    mutating func scalar(clean: Int) -> String {
        var text = chance(50) ? pick(Self.words) : pick(Self.typed)
        if chance(100 - clean) {
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                let insert = chance(55) ? pick(Self.specials) : pick(Self.indicators)
                let offset = pick([0, text.count / 2, text.count, Int.random(in: 0...text.count, using: &random)])
                text.insert(contentsOf: insert, at: text.index(text.startIndex, offsetBy: offset))
            }
        }
        if chance(5) { text = pick([" ", "  "]) + text }
        if chance(5) { text += pick([" ", "  "]) }
        return text
    }

    mutating func quoted(_ text: String) -> String {
        if chance(50) { return "'" + (chance(85) ? text.replacingOccurrences(of: "'", with: "''") : text) + "'" }
        return "\"" + (chance(85) ? text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") : text) + "\""
    }

    /// A value that fits on the rest of a line.
    mutating func inline(depth: Int, clean: Int) -> String {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<60: return scalar(clean: clean)
        case 60..<85: return quoted(scalar(clean: clean))
        default: return flow(depth: depth, clean: clean)
        }
    }

    /// A flow list or mapping, sometimes malformed (unclosed, trailing comma, over two lines).
    mutating func flow(depth: Int, clean: Int) -> String {
        let separator = pick([", ", ", ", ",", " , ", ",  "])
        func item(_ generator: inout YAMLDocumentGenerator) -> String {
            depth < 3 && generator.chance(15) ? generator.flow(depth: depth + 1, clean: clean)
                : generator.chance(30) ? generator.quoted(generator.scalar(clean: clean)) : generator.scalar(clean: clean)
        }
        let count = Int.random(in: 0...3, using: &random)
        var text: String
        if chance(50) {
            text = "[" + (0..<count).map { _ in item(&self) }.joined(separator: separator) + (chance(95) ? "]" : "")
        } else {
            text = "{" + (0..<count).map { _ in key(clean: clean) + (chance(90) ? ": " : pick([":", " : ", ":  "])) + item(&self) }.joined(separator: separator) + (chance(95) ? "}" : "")
        }
        if chance(5) { text.insert(contentsOf: pick([",", ", ", "\n  ", " "]), at: text.index(before: text.endIndex)) }
        if chance(5) { text = pick(["&a ", "!!seq ", "!t "]) + text }
        return text
    }
}
