import Foundation
import Testing
@testable import TesseraKit

/// The fast YAML reader must give exactly what Yams gives, locations included, and leave every
/// other document to Yams.
@Suite struct FastYAMLTests {
    /// Documents the fast reader takes.
    static let taken: [String] = [
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
        "p: 0.01\nq: -1.5\nr: -15\ns: 10.250\nt: 1_000\nu: 0\nv: 007\nw: 1e5\nx: 12:30\ny: -0\nz: 123456789012345678\n",
        "m: { a: yes, b: Null, c: off, d: offer, e: nulls, f: Yesterday, g: 3.14, h: -2 }\n",
        "a: 0\nb: 7\nc: 123456789012345678\nd: 0123\ne: 1234567890123456789012\nf: 12a\ng: 1_000\n",
        "a: 9999-99-99\nb: 2026-13-45T99:99:99Z\n",
        // Nesting, flow mappings and quoted scalars.
        "title: \"quoted\"\n",
        "title: 'single'\n",
        "title: 'it''s'\nother: \"say 'hi'\"\nempty: \"\"\nyes: 'yes'\nnum: \"12\"\n",
        "nested:\n  a: 1\n",
        "list:\n  - a\n  - b\n",
        "list:\n- a\n- b\nafter: c\n",
        "map: { a: 1 }\n",
        "map: {}\nlist: []\nboth: { a: [1, 2], b: { c: d } }\n",
        "title: -dash\nneg: -499.5\nn: -3\n",
        "sections:\n  - header: { component: section-header, title: Section 0 of page 999, link: /about/ }\n    items:\n      - { component: course-progress, title: Course 999, author: Ada Lovelace, progress: 0.99, lessonsLeft: 3, updated: 2024-04-04T10:00:00Z, link: /about/ }\n      - { component: notice, message: \"Notice **999** with a [link](/about/)\", tone: info }\n      - { component: payment-transaction, description: Invoice 999, amount: { amount: -499.5, currency: EUR }, date: 2024-04-04, detail: Visa 4242 }\n  - header: { component: section-header, title: Two }\n    items:\n      - { component: quote, text: \"Light is the *left hand* of darkness\", author: Le Guin }\n",
        "components:\n  - component: notice\n    message: Hello\n    tone: info\n  - component: stat\n    value: 12\n\n    # a comment between\n    label: Learners\n",
        "a:\n  b:\n    c:\n      - d\n      -\n        e: f\n  g: h\n",
        "menu:\n  main:\n    - { name: Home, url: / }\n    - { name: \"Café ☕\", url: /cafe/, weight: 2 }\n",
        "- a\n- b\n",
        "params:\n  kicker: Ünïcödé — x\n  list: [a, 'b c', \"d, e\"]\n",
    ]

    /// Documents it must leave to Yams.
    static let other: [String] = [
        "body: |\n  block\n",
        "body: >\n  folded\n",
        "title: \"escaped \\\" quote\"\n",
        "title: \"multi\n  line\"\n",
        "map: { a: 1,\n  b: 2 }\n",
        "map: { a: 1, }\n",
        "map: { a: 1, a: 2 }\n",
        "nested:\n  a: 1\n  a: 2\n",
        "list:\n  - a\n   - b\n",
        "list:\n  - a\n    continued\n",
        "key:\n  - a\n other: b\n",
        "- - a\n",
        "  indented: root\n",
        "a: b\n---\nc: d\n",
        "x: <<\n<<: { a: 1 }\n",
        "title: value # comment\n",
        "title: x # a comment, since the space comes before\n",
        "anchor: &a x\nalias: *a\n",
        "tagged: !str 12\n",
        "tags: [a, ]\n",
        "title: multi\n  line\n",
        "title: a\ntitle: b\n",
        "key:\n",
        "\ttitle: tab\n",
        "title: x\t\n",
        "\"quoted key\": v\n",
        "title: ends with colon:\n",
        "? complex\n: key\n",
        "title: a [b] c\n",
        "% directive\n",
        "",
        "# only a comment\n",
        // Characters libyaml refuses, or reads as line breaks or skips: in plain and quoted
        // values, flow items and keys.
        "title: a\u{01}b\n", "title: 'a\u{08}b'\n", "title: \"a\u{1B}b\"\n", "title: a\u{7F}\n", "tags: [a\u{80}b]\n", "ti\u{9F}tle: x\n",
        "title: a\u{FFFE}\n", "title: '\u{FFFF}'\n", "title: \u{0}\n", "title: x\n\u{1F}\n",
        "title: a\u{85}  b\n", "title: a\u{2028}  b\n", "title: 'a\u{2029}  b'\n", "title: a\rb\n", "title: a\r\n",
        "tags: [a:?b]\n", "m: { k: v:? }\n",
        "title: a\u{FEFF}b\n", "\u{FEFF}title: a\n", "title: a\n\u{FEFF}draft: true\n", "tags: [a, \u{FEFF}b]\n",
    ]

    @Test(arguments: Self.taken)
    func documentsReadAsYamsReadsThem(_ text: String) throws {
        let fast = FastYAML.parse(text, file: "f.md", lineOffset: 1)
        #expect(fast != nil, "the fast reader should take this document")
        let yams = try YAMLParser.parseWithYams(text, file: "f.md", lineOffset: 1)
        #expect(fast == yams)
    }

    @Test(arguments: Self.other)
    func everythingElseIsLeftToYams(_ text: String) {
        #expect(FastYAML.parse(text, file: "f.md", lineOffset: 1) == nil)
    }

    /// The fast reader bounds its own nesting (it recurses per level): deeper documents go the
    /// slow way, which measures nesting first, so none can exhaust the stack or pass the limit.
    @Test(arguments: [2, 8, 12, 40, 120, 5_000])
    func deepDocumentsAreLeftToTheNestingCheck(_ depth: Int) throws {
        let flow = "a: " + String(repeating: "{b: ", count: depth) + "1" + String(repeating: "}", count: depth) + "\n"
        let block = (0..<depth).map { String(repeating: "  ", count: $0) + "k\($0):" }.joined(separator: "\n") + " 1\n"
        for text in [flow, block] {
            let fast = FastYAML.parse(text, file: "f.md", lineOffset: 1)
            if depth <= 12 {
                #expect(fast != nil)
                #expect(fast == (try YAMLParser.parseWithYams(text, file: "f.md", lineOffset: 1)))
            } else {
                #expect(fast == nil, "\(depth) levels")
            }
            if depth > YAMLLimits.maxDepth {
                #expect(throws: TesseraError.self) { try YAMLParser.parse(text, file: "f.md", lineOffset: 1) }
            } else {
                #expect(try YAMLParser.parse(text, file: "f.md", lineOffset: 1) != nil)
            }
        }
    }

    /// Every front matter and data file of the example site and the test fixtures: what the fast
    /// reader takes, it reads as Yams does.
    @Test func everyContentFileOfTheRepositoryReadsAsYamsReadsIt() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var taken = 0, total = 0
        for folder in ["content", "Tests/TesseraKitTests/Fixtures", "themes"] {
            guard let files = FileManager.default.enumerator(atPath: root.appendingPathComponent(folder).path) else { continue }
            for case let relative as String in files where relative.hasSuffix(".md") || relative.hasSuffix(".yml") || relative.hasSuffix(".yaml") {
                let path = root.appendingPathComponent(folder).appendingPathComponent(relative).path
                guard var text = try? String(contentsOfFile: path, encoding: .utf8) else { continue }
                if relative.hasSuffix(".md") {
                    guard text.hasPrefix("---\n"), let end = text.range(of: "\n---", range: text.index(text.startIndex, offsetBy: 4)..<text.endIndex) else { continue }
                    text = String(text[text.index(text.startIndex, offsetBy: 4)...end.lowerBound])
                }
                total += 1
                guard let fast = FastYAML.parse(text, file: relative, lineOffset: 1) else { continue }
                taken += 1
                let yams = try? YAMLParser.parseWithYams(text, file: relative, lineOffset: 1)
                // `.nan` is not equal to itself: compare the descriptions too.
                #expect(fast == yams || yams.map { String(describing: $0) } == String(describing: fast), "\(folder)/\(relative)")
            }
        }
        #expect(total > 100 && taken * 2 > total, "the fast reader took \(taken) of \(total) files")
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

    @Test func foldersOfCleanPathsAreNSStrings() {
        let paths = ["/site/public/blog/index.html", "/blog", "/", "index.html", "a/b", "/a/b/c.d/e.f", "/é/ü/index.html", "a/.tessera-1/x"]
        for path in paths {
            #expect(PathText.folder(path) == (path as NSString).deletingLastPathComponent, "\(path)")
        }
    }
}
