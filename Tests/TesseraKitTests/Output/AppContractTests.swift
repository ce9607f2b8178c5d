import Foundation
import Testing
@testable import TesseraKit

/// The page JSON's contract with apps built earlier: fallbacks, the client version a page needs,
/// typed actions, accessibility labels, layout parameters and published sections, through the
/// real pipeline.
@Suite struct AppContractTests {
    static func json(_ site: TemporarySite, _ path: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(site.read(path).utf8)) as? [String: Any])
    }

    static func items(_ document: [String: Any], section: Int = 0) -> [[String: Any]] {
        ((document["sections"] as? [[String: Any]]) ?? [])[section]["items"] as? [[String: Any]] ?? []
    }

    /// A theme with a newer component (`meter`) that falls back to `note`, and one that hides.
    static let theme: [String: String] = [
        "themes/mini/components/meter.yml": """
            minClientVersion: "2.4"
            fallback: { component: note, fields: { message: caption } }
            accessibility: { label: "{{caption}}: {{level.text}}", hint: Opens the details }
            fields:
              caption: { type: inline-markdown, required: true }
              level: { type: percent, required: true }
              link: link
            """,
        "themes/mini/components/meter.mustache": "<meter value=\"{{level.value}}\" aria-label=\"{{accessibilityLabel}}\">{{level}}</meter>",
        "themes/mini/components/poll.yml": "fallback: hide\nminClientVersion: \"3\"\nfields:\n  question: text\n",
        "themes/mini/components/poll.mustache": "<p>{{question}}</p>",
        "themes/mini/sections/grid.mustache": "<section class=\"grid\" style=\"--columns: {{section.layoutOptions.columns}}\">{{#items}}{{{html}}}{{/items}}</section>",
    ]

    @Test func aNewerComponentCarriesItsFallbackAndThePageTheVersionItNeeds() throws {
        let site = try TemporarySite(Self.theme.merging([
            "content/index.md": """
                ---
                title: Home
                sections:
                  - items:
                      - { component: meter, caption: "Disk *used*", level: 0.42, link: /about/ }
                      - { component: poll, question: Tabs or spaces? }
                      - { component: note, message: Plain }
                ---
                """,
            "content/about.md": "---\ntitle: About\n---\n",
        ]) { _, new in new })
        try site.build()
        let home = try Self.json(site, "index.json")
        #expect((home["page"] as? [String: Any])?["minClientVersion"] as? String == "3", "the highest any component of the page needs")
        #expect((try Self.json(site, "about/index.json")["page"] as? [String: Any])?["minClientVersion"] as? String == "1.0")
        let items = Self.items(home)
        let meter = items[0]
        let fallback = try #require(meter["fallback"] as? [String: Any])
        #expect(fallback["type"] as? String == "note" && fallback["id"] as? String == meter["id"] as? String)
        #expect((fallback["fields"] as? [String: Any])?["message"] as? [String: String] == ["html": "Disk <em>used</em>", "text": "Disk used"])
        #expect((fallback["action"] as? [String: String])?["page"] == "about", "the fallback does what the component does")
        #expect(items[1]["fallback"] as? String == "hide")
        #expect(items[2]["fallback"] == nil)
        #expect(meter["accessibility"] as? [String: String] == ["label": "Disk used: 42%", "hint": "Opens the details"])
        #expect(try site.read("index.html").contains("aria-label=\"Disk used: 42%\""), "the web's label is the app's")
        let schema = try Self.json(site, "api/schema.json")
        #expect(schema["x-tessera-minClientVersion"] as? String == "3")
        let meterSchema = try #require((schema["$defs"] as? [String: Any])?["component-meter"] as? [String: Any])
        #expect(meterSchema["x-tessera-fallback"] as? String == "note" && meterSchema["x-tessera-minClientVersion"] as? String == "2.4")
    }

    @Test(arguments: [
        ("fallback: nowhere\nfields:\n  caption: text\n", "component 'meter' falls back to 'nowhere', which the theme does not have"),
        ("fallback: { component: note, fields: { message: caption, tone: caption } }\nfields:\n  caption: inline-markdown\n", "the fallback 'note' has no field 'tone'"),
        ("fallback: note\nfields:\n  caption: text\n", "the fallback 'note' needs field 'message', which 'meter' does not give it"),
        ("fallback: { component: note, fields: { message: level } }\nfields:\n  level: percent\n", "'meter's field 'level' (percent) cannot fill 'note's field 'message' (inline-markdown)"),
        ("fallback: poll\nfields:\n  caption: text\n", "the fallbacks of 'meter' go round in a circle: meter → poll → meter"),
        ("minClientVersion: soon\nfields:\n  caption: text\n", "'minClientVersion' must be an app version of dotted numbers, found 'soon'"),
        ("accessibility: { label: \"{{#caption}}\" }\nfields:\n  caption: text\n", "the accessibility label is not a valid template"),
        ("fields:\n  action: link\n", "'action' cannot be a field name"),
    ])
    func aContractMistakeInASchemaIsAnErrorAtIt(_ schema: String, _ message: String) throws {
        let site = try TemporarySite([
            "themes/mini/components/meter.yml": schema,
            "themes/mini/components/meter.mustache": "<p>meter</p>",
            "themes/mini/components/poll.yml": "fallback: meter\nfields:\n  caption: text\n",
            "themes/mini/components/poll.mustache": "<p>poll</p>",
            "content/index.md": "---\ntitle: Home\n---\n",
        ])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.contains { $0.hasPrefix("themes/mini/components/meter.yml:") && $0.contains(message) }, "\(diagnostics)")
        #expect(!site.exists("index.json"))
    }

    @Test func actionsWrittenOnItemsAreTypedAndTheirLinksChecked() throws {
        let site = try TemporarySite([
            "content/index.md": """
                ---
                title: Home
                sections:
                  - items:
                      - { component: note, message: Share me, action: share }
                      - { component: note, message: Out, action: { type: open-external, url: "https://example.org/x" } }
                      - { component: note, message: Calendar, action: { type: add-to-calendar, url: /about/, date: "2026-12-01" } }
                      - { component: note, message: Go, action: { type: navigate, url: /about/, title: About us } }
                ---
                """,
            "content/about.md": "---\ntitle: About\n---\n",
        ])
        try site.build()
        let items = Self.items(try Self.json(site, "index.json"))
        #expect(items[0]["action"] as? [String: String] == ["type": "share"] && items[0]["url"] == nil)
        #expect(items[1]["action"] as? [String: String] == ["type": "open-external", "url": "https://example.org/x"] && items[1]["url"] as? String == "https://example.org/x")
        #expect(items[2]["action"] as? [String: String] == ["type": "add-to-calendar", "url": "/about/", "date": "2026-12-01"])
        #expect(items[3]["action"] as? [String: String] == ["type": "navigate", "url": "/about/", "title": "About us", "page": "about", "json": "/about/index.json"])

        for (action, message) in [
            ("{ type: navigate, url: /missing/ }", "content/index.md:6:"),
            ("{ type: navigate }", "a 'navigate' action needs a 'url'"),
            ("{ type: navigate, url: \"https://example.org/\" }", "'navigate' leads to a page of the site"),
            ("Share!", "an action needs a 'type'"),
            ("{ type: share, colour: red }", "unknown key 'colour' for a 'share' action"),
        ] {
            let broken = try TemporarySite(["content/index.md": "---\ntitle: Home\nsections:\n  - items:\n      - component: note\n        action: \(action)\n        message: Hi\n---\n"])
            let diagnostics = broken.diagnostics()
            #expect(diagnostics.contains { $0.contains(message) }, "\(action): \(diagnostics)")
        }
    }

    @Test func layoutParametersReachTheTemplateAndTheJSON() throws {
        let site = try TemporarySite(Self.theme.merging([
            "content/index.md": "---\ntitle: Home\nsections:\n  - layout: { name: grid, columns: 3, dense: true, style: cards }\n    items:\n      - { component: note, message: A }\n---\n",
        ]) { _, new in new })
        try site.build()
        let section = try #require((try Self.json(site, "index.json")["sections"] as? [[String: Any]])?.first)
        #expect(section["layout"] as? String == "grid")
        let options = try #require(section["layoutOptions"] as? [String: Any])
        #expect(options["columns"] as? Int == 3 && options["dense"] as? Bool == true && options["style"] as? String == "cards")
        #expect(try site.read("index.html").contains("style=\"--columns: 3\""))
        let broken = try TemporarySite(["content/index.md": "---\ntitle: Home\nsections:\n  - layout: { name: list, columns: [1, 2] }\n    items: []\n---\n"])
        #expect(broken.diagnostics().contains { $0.hasPrefix("content/index.md:4:36: error: the layout's 'columns' must be text, a number or true/false") }, "\(broken.diagnostics())")
    }

    static func blog(posts: Int) -> [String: String] {
        var files: [String: String] = [
            "themes/mini/components/thumb.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  link: { type: link }\n",
            "themes/mini/components/thumb.mustache": "<a href=\"{{link}}\">{{title}}</a>",
            "content/index.md": "---\ntitle: Home\nsections:\n  - id: latest\n    query: { under: blog, sort: title, limit: 2, publish: 3, component: thumb }\n---\n",
        ]
        for number in 1...posts { files["content/blog/p\(number).md"] = "---\ntitle: Post \(number)\n---\nText \(number).\n" }
        return files
    }

    @Test func aPublishedSectionIsItsWholeListPagedForApps() throws {
        let site = try TemporarySite(Self.blog(posts: 7))
        try site.build()
        let home = try Self.json(site, "index.json")
        let section = try #require((home["sections"] as? [[String: Any]])?.first)
        #expect((section["items"] as? [Any])?.count == 2, "the page shows its limit")
        let more = try #require(section["more"] as? [String: Any])
        #expect(more["json"] as? String == "/sections/latest/index.json" && more["total"] as? Int == 7)
        var titles: [String] = [], next: String? = "/sections/latest/index.json", pages = 0
        while let path = next {
            let part = try Self.json(site, String(path.dropFirst()))
            #expect(part["format"] as? String == "tessera.section" && part["page"] as? String == "index")
            titles += ((part["section"] as? [String: Any])?["items"] as? [[String: Any]] ?? []).compactMap { ($0["fields"] as? [String: Any])?["title"] as? String }
            let pager = try #require(part["pagination"] as? [String: Any])
            #expect(pager["items"] as? Int == 7 && pager["perPage"] as? Int == 3 && pager["total"] as? Int == 3)
            next = pager["next"] as? String
            pages += 1
        }
        #expect(pages == 3 && titles == (1...7).map { "Post \($0)" })

        // A body edit keeps the list; a title edit remakes it; each cached build equals a full one.
        try site.write("content/blog/p5.md", "---\ntitle: Post 5\n---\nNew text.\n")
        try site.build()
        #expect(try site.differencesFromAFullBuild() == [])
        try site.write("content/blog/p6.md", "---\ntitle: Post 6, renamed\n---\nText 6.\n")
        try site.build()
        #expect(try site.differencesFromAFullBuild() == [])
        #expect(try site.read("sections/latest/page/2/index.json").contains("Post 6, renamed"))
        try site.remove("content/blog/p7.md")
        try site.build()
        #expect(try site.differencesFromAFullBuild() == [])
        #expect(!site.exists("sections/latest/page/3/index.json"), "a page of the list that is gone is removed")
    }

    @Test func publishMistakesAreLocated() throws {
        for (query, message) in [
            ("{ under: blog, paginate: 2, publish: true, component: thumb }", "a paginated section is published already"),
            ("{ under: blog, publish: lots, component: thumb }", "'publish' must be true, false or a number of items per page"),
        ] {
            var files = Self.blog(posts: 2)
            files["content/index.md"] = "---\ntitle: Home\nsections:\n  - query: \(query)\n---\n"
            let diagnostics = try TemporarySite(files).diagnostics()
            #expect(diagnostics.contains { $0.hasPrefix("content/index.md:4:") && $0.contains(message) }, "\(diagnostics)")
        }
        var files = Self.blog(posts: 2)
        files["content/index.md"] = "---\ntitle: Home\nsections:\n  - id: ../../etc\n    query: { under: blog, publish: true, component: thumb }\n---\n"
        let diagnostics = try TemporarySite(files).diagnostics()
        #expect(diagnostics.contains { $0.hasPrefix("content/index.md:4:9: error: a published section's 'id' names its JSON folder") }, "a section id names a folder: \(diagnostics)")
    }

    @Test func idsDiffListsWhatATypoFixKeepsAndARemovalLoses() throws {
        func home(_ items: String) -> String { "---\ntitle: Home\nsections:\n  - items:\n\(items)---\n" }
        let site = try TemporarySite(["content/index.md": home("      - { component: note, message: Frist }\n      - { component: note, id: keep, message: Two }\n      - { component: note, message: Three }\n")])
        try site.build()
        let old = site.root + "/old"
        try FileManager.default.copyItem(atPath: site.output, toPath: old)
        try site.write("content/index.md", home("      - { component: note, message: First }\n      - { component: note, id: keep, message: Two }\n      - { component: note, message: Three }\n"))
        try site.build()
        #expect(try IDsDiff.compare(old: old, new: site.output).isEmpty, "a typo fix keeps every id")
        try site.write("content/index.md", home("      - { component: note, id: keep, message: Two }\n      - { component: note, message: Three }\n"))
        try site.write("content/gone.md", "---\ntitle: Gone\n---\n")
        try site.build()
        let newer = site.root + "/newer"
        try FileManager.default.copyItem(atPath: site.output, toPath: newer)
        try site.remove("content/gone.md")
        try site.build()
        let diff = try IDsDiff.compare(old: old, new: site.output)
        #expect(diff.removedComponents.map(\.ids) == [["section-1/note-2"]], "the first note went; the one after it takes its place's id, the written one stays")
        #expect(try IDsDiff.compare(old: newer, new: site.output).removedPages == ["gone"])
        #expect(throws: TesseraError.self) { try IDsDiff.compare(old: site.root + "/nothing", new: site.output) }
    }

    /// A published section's files never replace a page's: a page where they would go is an error.
    @Test func aPublishedSectionNeverOverwritesAPage() throws {
        var files = Self.blog(posts: 3)
        files["content/sections/latest.md"] = "---\ntitle: Clash\n---\nI live at /sections/latest/.\n"
        let site = try TemporarySite(files)
        let diagnostics = site.diagnostics()
        #expect(diagnostics.contains { $0.hasPrefix("content/sections/latest.md:1:1: error: the page's JSON would be written to sections/latest/index.json, where another file is") }, "\(diagnostics)")
        #expect(!site.exists("sections/latest/index.json") && !site.exists("index.html"), "nothing written")
    }
}
