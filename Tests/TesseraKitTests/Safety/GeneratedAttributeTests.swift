import Foundation
import Testing
@testable import TesseraKit

/// Generated hostile values in every HTML attribute Markdown content fills: code-fence info
/// strings (`class="language-…"`), link and image titles, link URLs and alt texts. Through the
/// real Markdown renderer, each either is refused (a URL Tessera does not link) or comes out as
/// HTML whose tags carry only the attributes they should, each a quoted value that ends where it
/// should: nothing a value holds (quotes, `<`, `>`, `&`, backticks, newlines, `javascript:`)
/// opens a tag or an attribute of its own. Seeded; `TESSERA_ATTRIBUTE_CASES=N` tries more.
@Suite struct GeneratedAttributeTests {
    static let cases = ProcessInfo.processInfo.environment["TESSERA_ATTRIBUTE_CASES"].flatMap(Int.init) ?? 1_500

    static let pieces = [
        "\"", "'", "<", ">", "&", "`", "```", "\n", "\r\n", " ", "\t", "=", "javascript:", "JaVaScRiPt:", "on", "onerror=",
        "alert(1)", "<script>", "</code>", "\"><img src=x onerror=alert(1)>", "&quot;", "&#34;", "&#x22;", "&lt;", "\\", "\\\"",
        "(", ")", "[", "]", "*", "_", "{{", "}}", "a", "x y", "é", "\u{202E}", "\u{2028}", "%22", "//evil.example",
        // Control characters: what content may hold of them is decided elsewhere; here they must not open anything.
        "\u{1}", "\u{8}", "\u{1B}", "\u{7F}",
    ]

    /// Which attributes each tag of rendered Markdown may carry.
    static let allowed: [String: Set<String>] = [
        "a": ["href", "title"], "img": ["src", "alt", "title"], "code": ["class"], "pre": [], "p": [], "em": [], "strong": [],
        "br": [], "del": [], "h1": [], "h2": [], "h3": [], "h4": [], "h5": [], "h6": [], "hr": [], "blockquote": [],
        "ul": [], "ol": ["start"], "li": [], "table": [], "thead": [], "tbody": [], "tr": [], "th": ["align"], "td": ["align"],
        "input": ["type", "checked", "disabled"], "sup": [], "section": ["class", "data-footnotes"],
    ]

    static func value(_ random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...6, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
    }

    /// Markdown that puts `value` in one attribute.
    static func markdown(_ value: String, place: Int) -> String {
        switch place {
        case 0: return "```\(value)\nlet x = 1\n```\n"
        case 1: return "[a link](/page/ \"\(value)\")\n"
        case 2: return "![a picture](/pic.png \"\(value)\")\n"
        case 3: return "[a link](\(value))\n"
        case 4: return "[a link](<\(value)>)\n"
        default: return "![\(value)](/pic.png)\n"
        }
    }

    @Test func everyValueStaysInsideItsAttribute() {
        var random = SeededGenerator(seed: 27)
        var rendered = 0
        for index in 0..<Self.cases {
            let markdown = Self.markdown(Self.value(&random), place: index % 6)
            guard let html = try? MarkdownRenderer().html(markdown) else { continue }
            rendered += 1
            if let problem = Self.problem(in: html) {
                Issue.record("\(problem)\nMarkdown: \(markdown.debugDescription)\nHTML: \(html.debugDescription)")
            }
        }
        #expect(rendered > Self.cases / 2)
    }

    /// The checker is not blind: HTML with an attribute a value opened, a tag a value opened or an
    /// unquoted value is reported.
    @Test(arguments: [
        "<p><a href=\"/x\" onmouseover=\"alert(1)\">x</a></p>",
        "<p><img src=\"/p.png\" alt=\"a\"><script>alert(1)</script></p>",
        "<pre><code class=\"language-x\" autofocus>x</code></pre>",
        "<p><a href=/x>x</a></p>",
        "<p><a href=\"/x\" title=\"a\"b\">x</a></p>",
    ])
    func theCheckerCatchesEscapes(html: String) {
        #expect(Self.problem(in: html) != nil)
    }

    @Test func theCheckerPassesWhatCmarkWrites() throws {
        let html = try MarkdownRenderer().html("```swift\nx\n```\n\n[a](/b \"t &quot;\") ![c](/d.png \"e\")\n")
        #expect(Self.problem(in: html) == nil, "\(html)")
    }

    /// What is wrong with `html` as rendered Markdown, read as a browser tokenizes it: a tag not
    /// in `allowed`, an attribute its tag should not have, a value not in double quotes.
    static func problem(in html: String) -> String? {
        let bytes = Array(html.utf8)
        var index = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x2D
        }
        func name() -> String {
            let start = index
            while index < bytes.count, isNameByte(bytes[index]) { index += 1 }
            return String(decoding: bytes[start..<index], as: UTF8.self).lowercased()
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "<") else {
                if bytes[index] == UInt8(ascii: ">") { return "a bare > in text" }
                index += 1
                continue
            }
            index += 1
            if html.utf8.dropFirst(index).starts(with: "!--".utf8) {
                guard let end = html.range(of: "-->", range: html.utf8.index(html.startIndex, offsetBy: index)..<html.endIndex) else { return "an unclosed comment" }
                index = html.utf8.distance(from: html.startIndex, to: end.upperBound)
                continue
            }
            let closing = index < bytes.count && bytes[index] == UInt8(ascii: "/")
            if closing { index += 1 }
            let tag = name()
            guard let attributes = allowed[tag] else { return "the tag <\(tag)>" }
            while true {
                while index < bytes.count, [0x20, 0x0A, 0x09, 0x0D].contains(bytes[index]) { index += 1 }
                guard index < bytes.count else { return "an unclosed <\(tag)>" }
                if bytes[index] == UInt8(ascii: ">") { index += 1; break }
                if bytes[index] == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ">") { index += 2; break }
                if closing { return "junk in </\(tag)>" }
                let attribute = name()
                guard !attribute.isEmpty else { return "junk in <\(tag)> at byte \(index)" }
                guard attributes.contains(attribute) else { return "the attribute \(attribute) on <\(tag)>" }
                // Boolean attributes (a task list's `checked`) stand alone.
                guard index < bytes.count, bytes[index] == UInt8(ascii: "=") else { continue }
                guard index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "\"") else { return "an unquoted \(attribute) on <\(tag)>" }
                index += 2
                while index < bytes.count, bytes[index] != UInt8(ascii: "\"") {
                    if bytes[index] == UInt8(ascii: "<") || bytes[index] == UInt8(ascii: ">") { return "a raw < or > in \(attribute) of <\(tag)>" }
                    index += 1
                }
                guard index < bytes.count else { return "an unclosed \(attribute) on <\(tag)>" }
                index += 1
                // Attributes are separated: `title="a"b"` ends the value, then `b"` is junk.
                if index < bytes.count, ![0x20, 0x0A, 0x09, 0x0D, UInt8(ascii: ">"), UInt8(ascii: "/")].contains(bytes[index]) {
                    return "junk after \(attribute) on <\(tag)>"
                }
            }
        }
        return nil
    }
}
