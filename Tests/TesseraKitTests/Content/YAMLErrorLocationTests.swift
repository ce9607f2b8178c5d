import Foundation
import Testing
@testable import TesseraKit

/// YAML errors point where the author must look: an unclosed `[`, `{` or quote at the opener
/// (libyaml notices it lines below), a control character where it is; in front matter (whose
/// lines start below `---`), `data/` files and site.yml alike.
@Suite struct YAMLErrorLocationTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let file: String
        let text: String
        let expected: String
        var testDescription: String { name }
    }

    static let listHint = "\n    hint: add ']' after the list's last item"
    static let mappingHint = "\n    hint: add '}' after the mapping's last entry"
    static let syntaxHint = "\n    hint: check the indentation and that values containing ': ' or starting with '{', '[', '*', '&', '@' or '`' are quoted"

    static let cases: [Case] = [
        Case(name: "missing ] on line 4 of a Markdown file, the next key on line 5", file: "content/index.md",
             text: "---\ntitle: Home\nsummary: s\ntags: [swift, web\nlayout: page\n---\nBody\n",
             expected: "content/index.md:4:7: error: invalid YAML: unclosed '[': no ']' ends the list it opens" + listHint),
        Case(name: "missing ] at the end of the front matter", file: "content/index.md",
             text: "---\ntitle: Home\ntags: [swift, web\n---\n",
             expected: "content/index.md:3:7: error: invalid YAML: unclosed '[': no ']' ends the list it opens" + listHint),
        Case(name: "the outer { is the unclosed one", file: "content/index.md",
             text: "---\nmenu: { main: { weight: 2 }, label: x\ndraft: true\n---\n",
             expected: "content/index.md:2:7: error: invalid YAML: unclosed '{': no '}' ends the mapping it opens" + mappingHint),
        Case(name: "quoted ] and #, and an apostrophe, inside an unclosed [", file: "content/index.md",
             text: "---\ntitle: T\ntags: [\"a]\", 'b # c', it's\nx: 1\n---\n",
             expected: "content/index.md:3:7: error: invalid YAML: unclosed '[': no ']' ends the list it opens" + listHint),
        Case(name: "[ then block lines: libyaml names the missing node, not the [", file: "content/index.md",
             text: "---\ntitle: Home\nsections: [\n  - items: []\n---\n",
             expected: "content/index.md:3:11: error: invalid YAML: unclosed '[': no ']' ends the list it opens" + listHint),
        Case(name: "{ at the end of a data file", file: "data/items.yml",
             text: "a: 1\nm: {\n",
             expected: "data/items.yml:2:4: error: invalid YAML: unclosed '{': no '}' ends the mapping it opens" + mappingHint),
        Case(name: "a node missing from a closed list stays where libyaml stopped, a quoted [ before it notwithstanding", file: "data/items.yml",
             text: "t: 'x ['\nm: {a: 1}\nn: [, b]\n",
             expected: "data/items.yml:3:5: error: invalid YAML: did not find expected node content (while parsing a flow node at line 3)" + syntaxHint),
        Case(name: "unclosed double quote", file: "content/index.md",
             text: "---\ntitle: Home\nsummary: \"Hello\ndraft: true\n---\n",
             expected: "content/index.md:3:10: error: invalid YAML: unclosed quote '\"': no '\"' ends the text it opens\n    hint: add '\"' where the text ends; a '\"' inside the text is written '\\\"'"),
        Case(name: "unclosed single quote after an escaped one", file: "content/index.md",
             text: "---\ntitle: 'It''s\n---\n",
             expected: "content/index.md:2:8: error: invalid YAML: unclosed quote \"'\": no \"'\" ends the text it opens\n    hint: add \"'\" where the text ends; a \"'\" inside the text is written \"''\""),
        Case(name: "a list over lines in a data file", file: "data/items.yml",
             text: "items: [a,\n  b,\n  c\nnext: 1\n",
             expected: "data/items.yml:1:8: error: invalid YAML: unclosed '[': no ']' ends the list it opens" + listHint),
        Case(name: "unclosed quote at the end of a data file", file: "data/items.yml",
             text: "a: 1\nb: \"x\n",
             expected: "data/items.yml:2:4: error: invalid YAML: unclosed quote '\"': no '\"' ends the text it opens\n    hint: add '\"' where the text ends; a '\"' inside the text is written '\\\"'"),
        Case(name: "unclosed { in site.yml", file: "site.yml",
             text: "title: T\nlanguages: { en: { title: T }\n",
             expected: "site.yml:2:12: error: invalid YAML: unclosed '{': no '}' ends the mapping it opens" + mappingHint),
        Case(name: "a closed { with a missing comma stays where libyaml stopped", file: "content/index.md",
             text: "---\nm: {a: b c: d}\n---\n",
             expected: "content/index.md:2:11: error: invalid YAML: did not find expected ',' or '}' (while parsing a flow mapping at line 2)" + syntaxHint),
        Case(name: "an unknown escape stays at the escape", file: "content/index.md",
             text: "---\nt: \"a\\qb\"\n---\n",
             expected: "content/index.md:2:6: error: invalid YAML: found unknown escape character (while parsing a quoted scalar at line 2)" + syntaxHint),
        Case(name: "a control character is placed where it is", file: "content/index.md",
             text: "---\ntitle: Home\nsummary: a\u{1}b\n---\n",
             // Refused with the file, before YAML reads it: at the same place.
             expected: "content/index.md:3:11: error: this text holds the control character U+0001, which HTML, feeds and JSON cannot carry\n    hint: delete it: an editor may show it as ^@, ^A… or <0x01>, or not at all"),
        Case(name: "columns count characters before a DEL", file: "data/items.yml",
             text: "title: Café ☕ \u{7F}\n",
             expected: "data/items.yml:1:15: error: this text holds the control character U+007F (DEL), which HTML, feeds and JSON cannot carry\n    hint: delete it: an editor may show it as ^@, ^A… or <0x01>, or not at all"),
    ]

    @Test(arguments: cases)
    func reportsTheOpenerOrTheCharacter(_ testCase: Case) throws {
        let site = try TemporarySite([testCase.file: testCase.text])
        #expect(site.diagnostics() == [testCase.expected])
    }

    /// Whether the collection opened at the text's first `[` or `{` is closed.
    @Test(arguments: [
        ("[a, b]", true), ("[a, [b], {c: d}]", true), ("[a, b", false), ("[a, [b, c]", false),
        ("['a]', b]", true), ("[\"a]\", b", false), ("[it's, b]", true), ("[it''s]", true), ("['it''s]', x", false),
        ("[\"a \\\" ]\", b]", true), ("[a #]\n, b]", true), ("[a#], b", true), ("{a: b c: d}", true), ("{\"a\":\"b\"} ", true),
        ("{a: 'b", false), ("[a,\n  b\nc: d\n", false),
    ])
    func flowCollectionsAreClosedOrNot(_ text: String, _ closed: Bool) throws {
        let opener = try #require(text.unicodeScalars.firstIndex { $0 == "[" || $0 == "{" })
        #expect(FlowCollectionScan.isClosed(from: opener, in: text) == closed, "\(text)")
    }

    /// Marks are counted as libyaml counts them: CR LF is one line end, NEL, LS and PS are line ends.
    @Test func placesCountLinesAsLibyamlDoes() throws {
        let text = "a\r\nb\u{2028}c\u{85}d\re"
        let places = ["a": (1, 1), "b": (2, 1), "c": (3, 1), "d": (4, 1), "e": (5, 1)]
        for (letter, place) in places {
            let index = try #require(text.unicodeScalars.firstIndex(of: Unicode.Scalar(letter)!))
            #expect(YAMLTextPosition.place(of: index, in: text) == place, "\(letter)")
            #expect(YAMLTextPosition.index(line: place.0, column: place.1, in: text) == index, "\(letter)")
        }
    }
}
