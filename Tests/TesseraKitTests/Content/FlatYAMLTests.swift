import Foundation
import Testing
@testable import TesseraKit

/// The fast reader of flat front matter must give exactly what Yams gives, locations included,
/// and leave every other document to Yams.
@Suite struct FlatYAMLTests {
    /// Documents the fast reader takes.
    static let flat: [String] = [
        "title: Post number 7\ndate: 2026-11-01\nsummary: What post 7 is about.\n",
        "title: Hello\ntags: [swift, web, c-plus-plus]\n",
        "title: Café ☕\ntags: [Café, naïve, 日本語, x]\nlayout: article\n",
        "# a comment\n\ntitle: A\n\n# another\ndraft: true\n",
        "count: 12\nratio: 0.5\nneg: 1e3\nhex: 0x1F\nsexagesimal: 16:9\nflag: yes\noff: Off\nnothing: null\ntilde: ~\n",
        "date: 2026-11-20T10:00:00Z\nexpires: 2027-01-01 10:00:00\nslug: my-post\n",
        "url: https://example.com/a?b=c\ntime: 10:30\nemail: me@example.com\n",
        "title: Don't panic, it's fine\nquote: He said \"hi\"\n",
        "title: trailing spaces   \nweight: 3   \n",
        "tags: []\n",
        "tags: [1, 2.5, true, null, 2026-01-01]\n",
        "title: a:b\npath: C:/x\n",
        "Title: capital\nsnake_key: v\nkebab-key: v\nkey2: v\n",
        "y: Y\nn: no\non: on\n",
        "title: Ünïcödé\n",
        "a: 2026-11-20\nb: 2026-11-20T10:00:00Z\nc: 2026-1-2\nd: 2026-11-20T10:00:00+01:00\ne: 2026-11-20 10:00:00\n",
        "a: 0\nb: 7\nc: 123456789012345678\nd: 0123\ne: 1234567890123456789012\nf: 12a\ng: 1_000\n",
        "a: 9999-99-99\nb: 2026-13-45T99:99:99Z\n",
    ]

    /// Documents it must leave to Yams.
    static let other: [String] = [
        "title: \"quoted\"\n",
        "title: 'single'\n",
        "body: |\n  block\n",
        "body: >\n  folded\n",
        "nested:\n  a: 1\n",
        "list:\n  - a\n  - b\n",
        "title: value # comment\n",
        "title: x # a comment, since the space comes before\n",
        "anchor: &a x\nalias: *a\n",
        "tagged: !str 12\n",
        "map: { a: 1 }\n",
        "tags: [a, [b]]\n",
        "tags: [a, ]\n",
        "tags: ['a', b]\n",
        "title: multi\n  line\n",
        "title: a\ntitle: b\n",
        "key:\n",
        "\ttitle: tab\n",
        "title: x\t\n",
        "- a\n- b\n",
        "\"quoted key\": v\n",
        "title: -dash\n",
        "title: ends with colon:\n",
        "? complex\n: key\n",
        "title: a [b] c\n",
        "% directive\n",
        "",
        "# only a comment\n",
    ]

    @Test(arguments: Self.flat)
    func flatDocumentsReadAsYamsReadsThem(_ text: String) throws {
        let fast = FlatYAML.parse(text, file: "f.md", lineOffset: 1)
        #expect(fast != nil, "the fast reader should take this document")
        let yams = try YAMLParser.parseWithYams(text, file: "f.md", lineOffset: 1)
        #expect(fast == yams)
    }

    @Test(arguments: Self.other)
    func everythingElseIsLeftToYams(_ text: String) {
        #expect(FlatYAML.parse(text, file: "f.md", lineOffset: 1) == nil)
    }

    @Test func theLeftOversStillParseOrFailAsBefore() throws {
        // Through the public entry point, documents the fast reader refuses give Yams's answer,
        // errors included.
        for text in Self.other {
            let viaParse = Result { try YAMLParser.parse(text, file: "f.md") }
            let viaYams = Result { try YAMLParser.parseWithYams(text, file: "f.md") }
            switch (viaParse, viaYams) {
            case let (.success(a), .success(b)): #expect(a == b, "\(text)")
            case let (.failure(a as TesseraError), .failure(b as TesseraError)): #expect(a.diagnostics == b.diagnostics, "\(text)")
            default: Issue.record("different outcomes for \(text)")
            }
        }
    }
}

@Suite struct PathTextTests {
    @Test func partsOfPathsAreNSStrings() {
        let paths = ["a.md", "blog/first.fr.md", "index.md", "blog/index.fr.md", ".hidden", "a/.hidden", "a.", "a/b.", "noext", "a/b/c", "x.tar.gz", "dir.d/file", "dir.d/file.txt", "404.md", "é/ü.md", "a..b", "..", "a/.."]
        for path in paths {
            #expect(PathText.pathExtension(path) == (path as NSString).pathExtension, "\(path)")
            #expect(PathText.deletingPathExtension(path) == (path as NSString).deletingPathExtension, "\(path)")
            #expect(String(PathText.lastComponent(path)) == (path as NSString).lastPathComponent, "\(path)")
        }
    }
}
