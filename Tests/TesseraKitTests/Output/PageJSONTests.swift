import Foundation
import Testing
@testable import TesseraKit

/// Each page's view data as `index.json`, `/api/index.json` and `/api/schema.json`, through the
/// real pipeline.
@Suite struct PageJSONTests {
    static let home = """
        ---
        title: Home
        date: 2026-11-01
        summary: Where it starts.
        tags: [swift]
        sections:
          - id: progress
            header: { component: heading, title: In progress }
            items:
              - { component: course, id: swift-basics, title: Swift Basics, progress: 0.42, updated: 2026-11-20T10:00:00Z, link: /about/ }
              - { component: note, message: "Two courses are **due**." }
              - { component: row, items: [ { component: heading, title: Inside } ] }
        ---
        Body with *emphasis* & more.
        """

    static func site(_ files: [String: String] = [:]) throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/docs/\nbuildDate: 2026-11-22T12:00:00Z\nlanguages: [en, fr]\n",
            "content/index.md": home,
            "content/index.fr.md": "---\ntitle: Accueil\n---\n",
            "content/about.md": "---\ntitle: About\n---\nAbout us.\n",
        ].merging(files) { _, new in new })
    }

    static func json(_ site: TemporarySite, _ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(site.read(path).utf8)) as? [String: Any])
    }

    @Test func aPageIsItsSectionsOfTypedComponentsWithClientReadyFields() throws {
        let site = try Self.site()
        try site.build()
        let document = try Self.json(site, "index.json")
        #expect(document["format"] as? String == "tessera.page" && document["version"] as? Int == 5)
        let page = try #require(document["page"] as? [String: Any])
        #expect(page["id"] as? String == "index")
        #expect(page["url"] as? String == "/docs/" && page["json"] as? String == "/docs/index.json")
        #expect(page["permalink"] as? String == "https://example.com/docs/")
        #expect(page["title"] as? String == "Home" && page["summary"] as? String == "Where it starts." && page["lang"] as? String == "en")
        #expect(page["date"] as? String == "2026-11-01T00:00:00Z" && page["buildDate"] == nil, "no build date: an unchanged page gives unchanged bytes")
        #expect(page["tags"] as? [String] == ["swift"])
        let translations = try #require(page["translations"] as? [[String: String]])
        #expect(translations == [["lang": "en", "url": "/docs/", "json": "/docs/index.json"], ["lang": "fr", "url": "/docs/fr/", "json": "/docs/fr/index.json"]])
        #expect((document["body"] as? [[String: String]]) == [["kind": "markdown", "html": "<p>Body with <em>emphasis</em> &amp; more.</p>\n"]])

        let section = try #require((document["sections"] as? [[String: Any]])?.first)
        #expect(section["id"] as? String == "progress" && section["layout"] as? String == "list")
        #expect((section["header"] as? [String: Any])?["type"] as? String == "heading")
        let items = try #require(section["items"] as? [[String: Any]])
        let course = items[0]
        #expect(course["id"] as? String == "swift-basics" && course["type"] as? String == "course" && course["version"] as? Int == 1)
        #expect(course["action"] as? [String: String] == ["type": "navigate", "url": "/docs/about/", "page": "about", "json": "/docs/about/index.json"])
        #expect(course["url"] as? String == "/docs/about/", "the plain URL, for clients that only open URLs")
        let fields = try #require(course["fields"] as? [String: Any])
        #expect(fields["title"] as? String == "Swift Basics")
        #expect((fields["progress"] as? [String: Any])?["value"] as? Double == 0.42)
        #expect((fields["progress"] as? [String: Any])?["text"] as? String == "42%")
        #expect((fields["updated"] as? [String: Any])?["iso"] as? String == "2026-11-20T10:00:00Z")
        #expect((fields["updated"] as? [String: Any])?["text"] as? String == "2 days ago")
        #expect((fields["link"] as? [String: Any])?["url"] as? String == "/docs/about/")
        #expect((fields["link"] as? [String: Any])?["external"] as? Bool == false)
        let note = try #require(items[1]["fields"] as? [String: Any])
        #expect((note["message"] as? [String: String]) == ["html": "Two courses are <strong>due</strong>.", "text": "Two courses are due."])
        let children = try #require((items[2]["fields"] as? [String: Any])?["items"] as? [[String: Any]])
        #expect(children.count == 1 && children[0]["type"] as? String == "heading")
        #expect((children[0]["id"] as? String)?.hasPrefix((items[2]["id"] as? String ?? "?") + "/heading-") == true, "a child's id is under its parent's")
    }

    @Test func derivedIdsComeFromPlaceAndCodeNotText() throws {
        func ids(_ body: String) throws -> [String] {
            let site = try Self.site(["content/about.md": "---\ntitle: About\ncomponents:\n\(body)---\n"])
            try site.build()
            let items = (try Self.json(site, "about/index.json")["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]] ?? []
            return items.compactMap { $0["id"] as? String }
        }
        let before = try ids("  - { component: note, message: First }\n  - { component: note, message: Second }\n")
        #expect(before == ["section-1/note-1", "section-1/note-2"])
        let typoFixed = try ids("  - { component: note, message: Frist }\n  - { component: note, message: Second }\n")
        #expect(typoFixed == before, "a typo fix keeps every id")
        let after = try ids("  - { component: heading, title: New }\n  - { component: note, message: First }\n  - { component: note, message: Second }\n")
        #expect(Array(after.dropFirst()) == before, "a component of another type put before keeps the others' ids")
        let written = try ids("  - { component: note, id: welcome, message: Same }\n  - { component: note, message: Same }\n")
        #expect(written == ["welcome", "section-1/note-1"], "`id:` as written, and counting goes on without it")
    }

    @Test func anIdWrittenTwiceOnAPageIsAnError() throws {
        let site = try Self.site(["content/about.md": "---\ntitle: About\nsections:\n  - items:\n      - { component: note, id: hello, message: A }\n  - id: more\n    items:\n      - { component: note, id: hello, message: B }\n  - id: more\n    items: []\n---\n"])
        let messages = site.diagnostics().map(\.description)
        #expect(messages.contains { $0.hasPrefix("content/about.md:8:9: error: the component id 'hello' is used twice on this page (first at line 5, column 9)") }, "\(messages)")
        #expect(messages.contains { $0.contains("content/about.md:9:5: error: the section id 'more' is used twice on this page (first at line 6, column 5)") }, "\(messages)")
        #expect(!site.exists("about/index.json"))
    }

    /// A component's JSON is written to bytes as it is made, its keys put in order by hand and
    /// by `JSONMembers`: every object of the page, at every depth, has its keys once each and
    /// in the order of their UTF-8 bytes, whatever order the schema lists its fields in.
    @Test func everyObjectOfAPagesJSONHasItsKeysOnceInByteOrder() throws {
        let site = try Self.site([
            "themes/mini/components/every.yml": """
                accessibility: { label: "{{zeta}}", hint: Opens it }
                fallback: { component: note, fields: { message: élan } }
                fields:
                  zeta: { type: text, required: true }
                  Zeta: { type: markdown }
                  élan: { type: inline-markdown }
                  e_1: { type: number }
                  e-1: { type: percent }
                  amount: { type: currency }
                  when: { type: date }
                  link: { type: link }
                  away: { type: link }
                  photo: { type: image }
                  mood: { type: enum, values: [calm, loud] }
                  on: { type: bool }
                  names: { type: list }
                  kids: { type: items }
                """,
            "themes/mini/components/every.mustache": "<p>{{zeta}}</p>",
            "content/every.md": """
                ---
                title: Every
                sections:
                  - items:
                      - component: every
                        zeta: "Z \\"quoted\\" \\\\ é"
                        Zeta: "# Head\\n\\nText *here*."
                        élan: "An *élan*"
                        e_1: 1234.5
                        e-1: 0.25
                        amount: { amount: -3, currency: EUR }
                        when: 2026-11-01T10:00:00Z
                        link: /about/
                        away: https://example.org/x
                        photo: { src: "https://example.org/p.png", alt: A picture }
                        mood: loud
                        on: true
                        names: [b, a, é]
                        kids: [ { component: heading, title: Inside }, { component: course, title: C, progress: 0.5, link: https://example.org/ } ]
                ---
                """,
        ])
        try site.build()
        let text = try site.read("every/index.json")
        #expect(Self.keyOrderProblem(Array(text.utf8)) == nil, "\(text)")
        let item = try #require(((try Self.json(site, "every/index.json"))["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]]).first
        let fields = try #require(item?["fields"] as? [String: Any])
        #expect(fields.keys.sorted() == ["Zeta", "amount", "away", "e-1", "e_1", "kids", "link", "mood", "names", "on", "photo", "when", "zeta", "élan"])
        #expect((fields["away"] as? [String: Any])?["external"] as? Bool == true)
        #expect((fields["amount"] as? [String: Any])?["currency"] as? String == "EUR")
        #expect((fields["photo"] as? [String: Any])?["alt"] as? String == "A picture")
        #expect(fields["names"] as? [String] == ["b", "a", "é"] && fields["on"] as? Bool == true && fields["mood"] as? String == "loud")
        #expect((item?["accessibility"] as? [String: String]) == ["label": "Z \"quoted\" \\ é", "hint": "Opens it"])
        #expect((item?["fallback"] as? [String: Any])?["type"] as? String == "note")
        #expect(item?["url"] as? String == "/docs/about/", "the first link field's, in the schema's order")
        // And every JSON file the site writes.
        let written = OutputSafetyTests.snapshot(site.output).filter { $0.key.hasSuffix(".json") }
        #expect(written.count > 5)
        for (path, bytes) in written { #expect(Self.keyOrderProblem(Array(bytes)) == nil, "\(path)") }
    }

    /// Where a JSON text has an object whose keys are not strictly increasing by their UTF-8
    /// bytes (so also a key written twice); nil when none has.
    static func keyOrderProblem(_ json: [UInt8]) -> String? {
        var levels: [(isObject: Bool, last: [UInt8]?)] = []
        var expectsKey = false
        var index = 0
        while index < json.count {
            switch json[index] {
            case UInt8(ascii: "{"): levels.append((true, nil)); expectsKey = true
            case UInt8(ascii: "["): levels.append((false, nil)); expectsKey = false
            case UInt8(ascii: "}"), UInt8(ascii: "]"): levels.removeLast(); expectsKey = false
            case UInt8(ascii: ","): expectsKey = levels.last?.isObject == true
            case UInt8(ascii: "\""):
                // The string's bytes, its escapes read back (`\"`, `\\`, `\n`, `\u00xx`, …).
                var bytes: [UInt8] = []
                index += 1
                while json[index] != UInt8(ascii: "\"") {
                    if json[index] == UInt8(ascii: "\\") {
                        index += 1
                        switch json[index] {
                        case UInt8(ascii: "n"): bytes.append(0x0A)
                        case UInt8(ascii: "r"): bytes.append(0x0D)
                        case UInt8(ascii: "t"): bytes.append(0x09)
                        case UInt8(ascii: "u"):
                            bytes.append(UInt8(String(decoding: json[(index + 3)...(index + 4)], as: UTF8.self), radix: 16)!)
                            index += 4
                        default: bytes.append(json[index])
                        }
                    } else {
                        bytes.append(json[index])
                    }
                    index += 1
                }
                if expectsKey {
                    if let last = levels[levels.count - 1].last, !last.lexicographicallyPrecedes(bytes) {
                        return "'\(String(decoding: bytes, as: UTF8.self))' after '\(String(decoding: last, as: UTF8.self))'"
                    }
                    levels[levels.count - 1].last = bytes
                    expectsKey = false
                }
            default: break
            }
            index += 1
        }
        return nil
    }

    /// The checker finds keys out of order and repeated, at any depth, and is not fooled by
    /// braces and quotes inside strings.
    @Test func theKeyOrderCheckerFindsWhatItLooksFor() {
        #expect(Self.keyOrderProblem(Array(#"{"a":{"b":1,"c":[{"x":"}{,\"","y":2}]},"b":"\u0001"}"#.utf8)) == nil)
        #expect(Self.keyOrderProblem(Array(#"{"b":1,"a":2}"#.utf8)) == "'a' after 'b'")
        #expect(Self.keyOrderProblem(Array(#"{"a":[{"k":1,"k":2}]}"#.utf8)) == "'k' after 'k'")
        #expect(Self.keyOrderProblem(Array(#"{"é":1,"z":2}"#.utf8)) == "'z' after 'é'")
    }

    @Test func theOutputIsByteIdenticalAcrossBuilds() throws {
        let first = try Self.site(), second = try Self.site()
        try first.build()
        try second.build()
        for path in ["index.json", "fr/index.json", "about/index.json", "api/index.json", "api/schema.json"] {
            #expect(try first.read(path) == second.read(path), "\(path)")
        }
    }

    @Test func theIndexListsEveryPagesJSON() throws {
        let site = try Self.site()
        try site.build()
        let index = try Self.json(site, "api/index.json")
        #expect(index["format"] as? String == "tessera.index" && index["schema"] as? String == "/docs/api/schema.json")
        let pages = try #require(index["pages"] as? [[String: Any]])
        #expect(pages.compactMap { $0["json"] as? String } == ["/docs/about/index.json", "/docs/fr/index.json", "/docs/index.json", "/docs/tags/index.json", "/docs/tags/swift/index.json"])
        #expect(pages.first { $0["id"] as? String == "index" }?["date"] as? String == "2026-11-01T00:00:00Z")
    }

    @Test func outputsTurnEitherFormatOff() throws {
        let htmlOnly = try Self.site(["site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nlanguages: [en, fr]\noutputs: [html]\n"])
        try htmlOnly.build()
        #expect(htmlOnly.exists("index.html") && !htmlOnly.exists("index.json") && !htmlOnly.exists("api/index.json"))

        let jsonPage = try Self.site(["content/about.md": "---\ntitle: About\noutputs: [json]\n---\nAbout us.\n"])
        try jsonPage.build()
        #expect(jsonPage.exists("about/index.json") && !jsonPage.exists("about/index.html"))
        #expect(jsonPage.exists("index.html") && jsonPage.exists("index.json"))
    }

    @Test func queryItemsAreThePagesAndPaginationLinksTheJSONPages() throws {
        var files: [String: String] = [
            "themes/mini/components/thumb.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  link: { type: link }\n",
            "themes/mini/components/thumb.mustache": "<a href=\"{{link}}\">{{title}}</a>",
            "content/blog/index.md": "---\ntitle: Blog\nsections:\n  - query: { under: blog, sort: title, paginate: 1, component: thumb }\n---\n",
        ]
        for name in ["a", "b"] { files["content/blog/\(name).md"] = "---\ntitle: Post \(name)\n---\n" }
        let site = try Self.site(files)
        try site.build()
        let first = try Self.json(site, "blog/index.json")
        let item = try #require(((first["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.first)
        #expect(item["id"] as? String == "section-1/page:blog/a" && item["url"] as? String == "/docs/blog/a/")
        #expect((item["action"] as? [String: String])?["json"] == "/docs/blog/a/index.json")
        let pager = try #require((first["page"] as? [String: Any])?["pagination"] as? [String: Any])
        #expect(pager["next"] as? String == "/docs/blog/page/2/index.json" && pager["previous"] == nil && pager["total"] as? Int == 2)
        #expect(pager["items"] as? Int == 2 && pager["perPage"] as? Int == 1)
        let second = try Self.json(site, "blog/page/2/index.json")
        #expect(((second["page"] as? [String: Any])?["pagination"] as? [String: Any])?["previous"] as? String == "/docs/blog/index.json")
        #expect((second["page"] as? [String: Any])?["id"] as? String == "blog/index/page/2")
    }

    @Test func mistakesAreLocatedErrors() throws {
        for (files, place, message) in [
            (["content/about.md": "---\ntitle: About\ncomponents:\n  - { component: note, id: \"not ok\", message: Hi }\n---\n"], "content/about.md:4:", "a component's 'id' must be letters"),
            (["content/about.md": "---\ntitle: About\noutputs: [html, pdf]\n---\n"], "content/about.md:3:", "unknown output format 'pdf'"),
            (["themes/mini/components/note.yml": "version: 0\nfields:\n  message: { type: inline-markdown, required: true }\n"], "themes/mini/components/note.yml:1:", "a schema's 'version' must be a positive whole number"),
            (["themes/mini/components/note.yml": "fields:\n  id: text\n  message: { type: inline-markdown, required: true }\n"], "themes/mini/components/note.yml:2:", "'id' cannot be a field name"),
        ] {
            let diagnostics = try Self.site(files).diagnostics()
            #expect(diagnostics.contains { $0.hasPrefix(place) && $0.contains(message) }, "\(message) in \(diagnostics)")
        }
    }

    static let hasJSONSchema = Tools.hasPythonModule("jsonschema")

    /// Python's `jsonschema` (which `make test` installs) checks the schema itself, then every
    /// page document against it; prints one line per invalid document.
    static func validate(folder: String) throws -> (checked: Int, problems: String) {
        let script = """
            import json, os, sys
            from jsonschema import Draft202012Validator
            root = sys.argv[1]
            schema = json.load(open(os.path.join(root, "api/schema.json")))
            Draft202012Validator.check_schema(schema)
            validator = Draft202012Validator(schema)
            # The search documents for apps, against their definition.
            documents = Draft202012Validator({"$ref": "#/$defs/searchDocuments", "$defs": schema["$defs"]})
            # Published sections and api/site.json, against theirs.
            sections = Draft202012Validator({"$ref": "#/$defs/sectionDocument", "$defs": schema["$defs"]})
            site = Draft202012Validator({"$ref": "#/$defs/siteDocument", "$defs": schema["$defs"]})
            checked = 0
            if os.path.exists(os.path.join(root, "api/site.json")):
                checked += 1
                for error in site.iter_errors(json.load(open(os.path.join(root, "api/site.json")))):
                    print("api/site.json", list(error.absolute_path), error.message[:300])
            for folder, _, names in os.walk(root):
                if os.path.relpath(folder, root).split(os.sep)[:2] == ["api", "search"]:
                    for name in names:
                        path = os.path.join(folder, name)
                        checked += 1
                        for error in documents.iter_errors(json.load(open(path))):
                            print(os.path.relpath(path, root), list(error.absolute_path), error.message[:300])
                    continue
                for name in names:
                    # Page documents only: not the index and schema, feeds or the search index.
                    if not name.endswith(".json") or folder.endswith("/api") or name == "feed.json" or os.path.relpath(folder, root).split(os.sep)[0] == "search":
                        continue
                    path = os.path.join(folder, name)
                    checked += 1
                    document = json.load(open(path))
                    for error in (sections if document.get("format") == "tessera.section" else validator).iter_errors(document):
                        print(os.path.relpath(path, root), list(error.absolute_path), error.message[:300])
            print("checked", checked)
            """
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script, folder]
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let lines = text.split(separator: "\n")
        let checked = lines.last.flatMap { $0.hasPrefix("checked ") ? Int($0.dropFirst(8)) : nil } ?? 0
        return (checked, lines.dropLast().joined(separator: "\n") + errors)
    }

    @Test(.enabled(if: hasJSONSchema, "needs Python's jsonschema (make test installs it)"))
    func everyPageOfTheExampleSiteValidatesAgainstTheGeneratedSchema() throws {
        let result = try Self.validate(folder: ExampleSiteCrawlTests.output)
        #expect(result.checked >= 50, "every page has its JSON")
        #expect(result.problems.isEmpty, "\(result.problems)")
    }

    @Test(.enabled(if: hasJSONSchema, "needs Python's jsonschema (make test installs it)"))
    func theValidatorCatchesADocumentThatBreaksTheSchema() throws {
        let site = try Self.site()
        try site.build()
        // A field of the wrong type, as an app with an outdated payload would send.
        let broken = try site.read("index.json").replacingOccurrences(of: "\"title\":\"Swift Basics\"", with: "\"title\":42")
        try broken.write(toFile: site.output + "/index.json", atomically: true, encoding: .utf8)
        let result = try Self.validate(folder: site.output)
        #expect(result.problems.hasPrefix("index.json ['sections', 0, 'items', 0]") && result.problems.contains("'title': 42"), "\(result.problems)")
        #expect(!result.problems.contains("fr/index.json"), "only the broken document")
    }
}

@Suite struct HTMLTextTests {
    @Test(arguments: [
        "<p>Hello <em>world</em></p>\n<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n",
        "\n\n<p>  spaced  </p>\n\n\n<p>\tTabbed\t</p>",
        "<h2>Title</h2><p>One<br>two<br/>three</p><pre><code>let x = 1\n\n\nlet y = 2\n</code></pre>",
        "<p>&amp; &lt;tag&gt; &quot;q&quot; &#39;s&#39; &nbsp;nbsp&nbsp;</p>",
        "<p>\u{00A0}no-break\u{00A0}</p>\n<p>\u{2028}line sep\u{2028}</p>\r\n<p>cr\r</p>",
        "", "   ", "\n\n\n", "plain text", "<blockquote>\n<p>quoted</p>\n</blockquote>",
        "<table><tr><td>a</td></tr><tr><td>b</td></tr></table>", "<p>Émoji 👍🏽 and café</p>",
    ])
    func plainTextIsWhatItWas(_ html: String) {
        // The Character-by-Character version, the oracle of `JSONBytesDifferentialTests`.
        #expect(HTMLText.plain(html) == CharacterHTMLText.plain(html))
    }
    /// The preview patches `api/index.json` when a title changes: the same bytes as making it
    /// again, whatever the titles hold; nil when the pages themselves differ.
    @Test func thePatchedIndexIsTheIndexMadeAgain() throws {
        let entries = (0..<50).map { (index: Int) -> PageIndexEntry in
            let language = index % 2 == 0 ? "en" : "fr"
            let title: String? = index % 7 == 0 ? nil : "Page \(index)"
            let date: Date? = index % 5 == 0 ? nil : Date(timeIntervalSince1970: Double(index) * 86_400)
            return PageIndexEntry(id: "p\(index)", json: "/p\(index)/index.json", url: "/p\(index)/", language: language, title: title, date: date)
        }
        let last = PageIndex.make(entries, basePath: "/")
        var edited = entries
        // Titles that quote an entry's own text, escape, go, come, and a date that changes.
        edited[3].title = #"{"id":"p4","json":"/p4/index.json","lang":"en"} “quoted” \ / "# + "\u{7}"
        edited[14].title = "Now titled"
        edited[20].title = nil
        edited[21].title = "Was none"
        edited[49].date = nil
        edited[0].title = "First"
        let patched = try #require(PageIndex.patched((entries, last), to: edited))
        #expect(patched == PageIndex.make(edited, basePath: "/"))
        #expect(PageIndex.patched((entries, last), to: entries) == last)
        // Another page, or one more: made again instead.
        var moved = entries
        moved[2].json = "/moved/index.json"
        #expect(PageIndex.patched((entries, last), to: moved) == nil)
        #expect(PageIndex.patched((entries, last), to: entries + [entries[0]]) == nil)
    }
}
