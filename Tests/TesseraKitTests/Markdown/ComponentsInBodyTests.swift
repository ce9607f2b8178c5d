import Foundation
import Testing
@testable import TesseraKit

/// A fenced block of info string `component` places a component of the theme inside the prose:
/// checked against its schema with errors in the content file, rendered in its shell where it is
/// written, and a block of the body in the page's JSON.
@Suite struct ComponentsInBodyTests {
    static let post = """
        ---
        title: Home
        ---
        Before the note.

        ```component
        component: note
        message: Mind the *gap*.
        ```

        - In a list:

          ```component
          component: heading
          title: Listed
          ```

        After.
        """

    @Test func aPlacedComponentRendersInItsShellWhereItIsWritten() throws {
        let site = try TemporarySite(["content/index.md": Self.post])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("""
            <main><p>Before the note.</p>
            <article class="note"><p>Mind the <em>gap</em>.</p></article>
            <ul>
            <li>
            <p>In a list:</p>
            <h2>Listed</h2>
            </li>
            </ul>
            <p>After.</p>
            </main>
            """), "\(html)")
        #expect(!html.utf8.contains(0x05) && !html.utf8.contains(0x06))
    }

    @Test func thePagesJSONBodyIsItsBlocksInReadingOrder() throws {
        let site = try TemporarySite(["content/index.md": Self.post])
        try site.build()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(site.read("index.json").utf8)) as? [String: Any])
        let blocks = try #require(document["body"] as? [[String: Any]])
        #expect(blocks.map { $0["kind"] as? String } == ["markdown", "component", "markdown", "component", "markdown"])
        #expect(blocks[0]["html"] as? String == "<p>Before the note.</p>\n")
        let note = try #require(blocks[1]["component"] as? [String: Any])
        #expect(note["type"] as? String == "note" && (note["id"] as? String)?.hasPrefix("body/note-") == true)
        #expect((note["fields"] as? [String: Any])?["message"] as? [String: String] == ["html": "Mind the <em>gap</em>.", "text": "Mind the gap."])
        #expect(blocks[2]["html"] as? String == "<ul>\n<li>\n<p>In a list:</p>\n")
        #expect((blocks[3]["component"] as? [String: Any])?["type"] as? String == "heading")
        #expect(blocks[4]["html"] as? String == "</li>\n</ul>\n<p>After.</p>\n")
    }

    @Test func theBodyComponentsJSONHoldsTheBlocksToo() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: Home\nsections:\n  - items:\n      - component: body\n---\nText.\n\n```component\ncomponent: note\nid: the-note\nmessage: Hi.\n```\n",
        ])
        try site.build()
        let document = try #require(try JSONSerialization.jsonObject(with: Data(site.read("index.json").utf8)) as? [String: Any])
        let item = try #require(((document["sections"] as? [[String: Any]])?.first?["items"] as? [[String: Any]])?.first)
        let blocks = try #require((item["fields"] as? [String: Any])?["content"] as? [[String: Any]])
        #expect(blocks.count == 2 && blocks[0]["html"] as? String == "<p>Text.</p>\n")
        #expect((blocks[1]["component"] as? [String: Any])?["id"] as? String == "the-note", "`id:` as written")
        #expect(try site.read("index.html").contains("<p>Text.</p>\n<article class=\"note\"><p>Hi.</p></article>"))
    }

    @Test func mistakesInAPlacedComponentAreErrorsWhereTheyAreWrittenInTheContentFile() throws {
        let site = try TemporarySite([
            "content/index.md": """
                ---
                title: Home
                ---
                Intro.

                ```component
                component: nte
                message: Hi.
                ```

                > ```component
                > component: note
                > mesage: Hi.
                > ```

                ```component
                message: [unclosed
                ```

                ```component
                component: body
                ```
                """,
        ])
        #expect(site.diagnostics() == [
            "content/index.md:7:12: error: unknown component 'nte'\n    hint: did you mean 'note'? `tessera components` lists them all",
            "content/index.md:12:3: error: component 'note' needs field 'message'\n    hint: add `message:` (inline-markdown)",
            "content/index.md:13:3: error: unknown field 'mesage' for component 'note'\n    hint: did you mean 'message'?",
            "content/index.md:17:10: error: invalid YAML: unclosed '[': no ']' ends the list it opens\n    hint: add ']' after the list's last item",
            "content/index.md:21:12: error: the body cannot be placed inside itself\n    hint: place `component: body` in a section, not in the Markdown",
        ])
    }

    @Test func aComponentFenceOutsideAPagesBodyIsAnError() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: Home\nsections:\n  - items:\n      - component: note\n        message: |\n          ```component\n          component: note\n          ```\n---\n",
        ])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.count == 1 && diagnostics[0].contains("a component is placed in"), "\(diagnostics)")
    }

    @Test func feedsCarryTheProseAndLeaveTheComponentsOut() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\nbaseURL: https://example.com/\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nfeeds: { content: full }\n",
            "content/index.md": "---\ntitle: Home\nfeeds: [rss]\nsections:\n  - query: { under: blog, component: heading, fields: { title: title } }\n---\n",
            "content/blog/post.md": "---\ntitle: Post\ndate: 2026-11-01\n---\nBefore.\n\n```component\ncomponent: note\nmessage: Hi.\n```\n\nAfter.\n",
        ])
        try site.build()
        let feed = try site.read("index.xml")
        #expect(feed.contains("&lt;p&gt;Before.&lt;/p&gt;\n&lt;p&gt;After.&lt;/p&gt;"), "\(feed)")
        #expect(!feed.utf8.contains(0x05))
    }
}
