import Foundation
import Testing
@testable import TesseraKit

@Suite struct MustacheTagTests {
    @Test func literalAndTemplatedTranslationsRenderTheSame() throws {
        // Translations without placeholders are handed to swift-mustache as final text, the
        // others as templates: both escape the same way.
        let site = try TemporarySite([
            "i18n/en.yml": "plain: \"Don't <stop> & \\\"go\\\" {not a tag\"\nplaced: \"Hi {page.title} & <bye>\"\nrawHTML: \"<b>bold</b>\"\n",
            "themes/mini/layouts/page.mustache": "<p>{{#t}}plain{{/t}}</p><p>{{#t}}placed{{/t}}</p><p>{{#t}}rawHTML{{/t}}</p>",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<p>Don&#39;t &lt;stop&gt; &amp; &quot;go&quot; &#123;not a tag</p>"), "\(html)")
        #expect(html.contains("<p>Hi Home &amp; &lt;bye&gt;</p>"), "\(html)")
        #expect(html.contains("<p><b>bold</b></p>"), "keys ending in HTML are not escaped: \(html)")
    }

    @Test func scansTagsWithPositions() {
        let tags = MustacheTag.scan("<h1>{{title}}</h1>\n  {{#items}}{{{html}}}{{/items}}\n{{> head}}{{! note }}{{&raw}}")
        #expect(tags.map(\.kind) == [.variable, .section, .variable, .closeSection, .partial, .comment, .variable])
        #expect(tags.map(\.name) == ["title", "items", "html", "items", "head", "", "raw"])
        #expect(tags[0].line == 1 && tags[0].column == 5)
        #expect(tags[1].line == 2 && tags[1].column == 3)
        #expect(tags[4].line == 3 && tags[4].column == 1)
    }

    @Test func followsDelimiterChanges() {
        let tags = MustacheTag.scan("{{=<% %>=}}<%title%> {{not}}")
        #expect(tags.map(\.name) == ["", "title"])
    }

    @Test func rootNameIsTheFirstSegment() {
        #expect(MustacheTag(kind: .variable, name: "progress.value", line: 1, column: 1).rootName == "progress")
    }
}

/// Rendering through a real site: the shell wraps the body, sections wrap items, the layout wraps sections.
@Suite struct RenderingTests {
    @Test func componentBodyInsideShellInsideSectionInsideLayout() throws {
        let site = try TemporarySite([
            "content/index.md": """
                ---
                title: Home
                sections:
                  - header: { component: heading, title: Now }
                    items:
                      - component: note
                        message: "Hi *there*"
                    footer: { component: heading, title: End }
                ---
                """,
        ])
        try site.build()
        #expect(try site.read("index.html") == "<title>Home</title><main><section><h2>Now</h2><ul><li><article class=\"note\"><p>Hi <em>there</em></p></article></li></ul><h2>End</h2></section></main>\n")
    }

    @Test func containerRendersNestedChildrenEachInItsShell() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ncomponents:\n  - component: row\n    items:\n      - { component: note, message: A }\n      - { component: heading, title: B }\n---\n",
        ])
        try site.build()
        #expect(try site.read("index.html").contains("<div class=\"row\"><span><article class=\"note\"><p>A</p></article></span><span><h2>B</h2></span></div>"))
    }

    @Test func bodyComponentPlacesMarkdownInTheFeedAndNotAgainInTheLayout() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: T\ncomponents:\n  - { component: heading, title: Before }\n  - component: body\n---\nThe *body*.\n",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html == "<title>T</title><main><section><ul><li><h2>Before</h2></li><li><div class=\"prose\"><p>The <em>body</em>.</p>\n</div></li></ul></section></main>\n")
    }

    @Test func valuesAreEscapedUnlessTheTemplateAsksForRaw() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: \"<b>T</b>\"\ncomponents:\n  - { component: heading, title: \"<script>alert(1)</script>\" }\n---\n",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<title>&lt;b&gt;T&lt;/b&gt;</title>"))
        #expect(html.contains("<h2>&lt;script&gt;alert(1)&lt;/script&gt;</h2>"))
    }

    @Test func siteTemplatesOverrideTheThemeFileByFile() throws {
        let site = try TemporarySite([
            "shells/card.mustache": "<div class=\"mine\">{{{body}}}</div>",
            "content/index.md": "---\ncomponents:\n  - { component: note, message: X }\n---\n",
        ])
        try site.build()
        #expect(try site.read("index.html").contains("<div class=\"mine\"><p>X</p></div>"))
    }

    @Test func siteComponentsAddToTheTheme() throws {
        let site = try TemporarySite([
            "components/badge.yml": "shell: none\nfields:\n  label: text\n",
            "components/badge.mustache": "<span class=\"badge\">{{label}}</span>",
            "content/index.md": "---\ncomponents:\n  - { component: badge, label: New }\n---\n",
        ])
        try site.build()
        #expect(try site.read("index.html").contains("<span class=\"badge\">New</span>"))
    }

    @Test func partialsAndAbsentOptionalFieldsDoNotLeakOuterValues() throws {
        let site = try TemporarySite([
            "themes/mini/partials/foot.mustache": "<footer>{{site.title}}</footer>",
            "themes/mini/layouts/page.mustache": "{{{sections}}}{{> foot}}",
            // `link` is absent on the item: it must not fall through to anything named link outside.
            "content/index.md": "---\ncomponents:\n  - { component: course, title: A, progress: 0.5 }\n---\n",
        ])
        try site.build()
        #expect(try site.read("index.html") == "<section><ul><li><article class=\"course\"><h3>A</h3><progress value=\"0.5\">50%</progress></article></li></ul></section><footer>Test Site</footer>")
    }

    @Test func shellsMayTestFieldsOnlySomeComponentsDeclare() throws {
        let site = try TemporarySite([
            "themes/mini/components/note.yml": "fields:\n  message: { type: inline-markdown, required: true }\n  accent: { type: text }\n",
            "themes/mini/shells/card.mustache": "<article{{#accent}} style=\"--a: {{accent}}\"{{/accent}}>{{{body}}}</article>",
            "content/index.md": "---\ncomponents:\n  - { component: note, message: A, accent: red }\n  - { component: course, title: B, progress: 1 }\n---\n",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<article style=\"--a: red\"><p>A</p></article>"))
        #expect(html.contains("<article><h3>B</h3>"), "course has no accent field: null in its shell, not an error")
        try site.write("themes/mini/shells/card.mustache", "<article>{{#acent}}x{{/acent}}{{{body}}}</article>")
        #expect(site.diagnostics().first?.contains("error: 'acent' is not a value of shell 'card'") == true)
    }

    @Test func missingVariableInAPartialPointsAtThePartial() throws {
        let site = try TemporarySite([
            "themes/mini/partials/foot.mustache": "<footer>\n{{site.title}} {{copyright}}</footer>",
            "themes/mini/layouts/page.mustache": "{{{sections}}}{{> foot}}",
        ])
        #expect(site.diagnostics().first?.hasPrefix("themes/mini/partials/foot.mustache:2:16: error: 'copyright' is not a value of layout 'page'") == true)
    }
}
