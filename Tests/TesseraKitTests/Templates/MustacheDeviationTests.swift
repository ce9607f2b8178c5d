import Foundation
import Testing
@testable import TesseraKit

/// Where Tessera's Mustache deliberately differs from the spec and from swift-mustache, each as
/// Documentation/Templates.md lists it: what would print nothing (or a Swift description) is an
/// error at the tag.
@Suite struct MustacheDeviationTests {
    static let layout = "themes/mini/layouts/page.mustache"

    /// One row per deviation of Templates.md: the layout (and other files), and the first
    /// diagnostic, exactly.
    @Test(arguments: [
        ("a name no context has", [layout: "<p>{{titel}}</p>"],
         "themes/mini/layouts/page.mustache:1:4: error: 'titel' is not a value of layout 'page'"),
        ("a part a value lacks", [layout: "{{page.titel}}"],
         "themes/mini/layouts/page.mustache:1:1: error: 'titel' is not a part of 'page' in layout 'page'\n    hint: did you mean 'title'?"),
        ("a list printed", [layout: "<p>{{page.tags}}</p>", "content/index.md": "---\ntitle: Home\ntags: [a]\n---\n"],
         "themes/mini/layouts/page.mustache:1:4: error: 'page.tags' is a list and has no text to print in layout 'page'\n    hint: iterate it: {{#page.tags}}{{.}}{{/page.tags}}"),
        ("an object printed", [layout: "{{#site}}{{.}}{{/site}}"],
         "themes/mini/layouts/page.mustache:1:10: error: '.' is an object and has no text to print in layout 'page'\n    hint: print one of its parts, such as {{.title}}"),
        ("the view data printed", [layout: "<p>\n  {{.}}</p>"],
         "themes/mini/layouts/page.mustache:2:3: error: '.' outside a section is the view data of layout 'page', an object, and has no text to print\n    hint: print one of its values, such as {{content}}; a layout receives: content, page, sections, site, t"),
        ("an unknown partial", [layout: "{{> header}}"],
         "themes/mini/layouts/page.mustache:1:1: error: unknown partial 'header'\n    hint: create partials/header.mustache in the site or the theme"),
        ("an unknown partial named by a value", [layout: "<main>{{>*page.params.which}}</main>", "themes/mini/partials/card.mustache": "card", "content/index.md": "---\nwhich: crad\n---\n"],
         "themes/mini/layouts/page.mustache:1:7: error: {{>*page.params.which}} names the partial 'crad', which does not exist, in layout 'page'\n    hint: did you mean 'card'? create partials/crad.mustache in the site or the theme, or give 'page.params.which' the name of one: card"),
        ("a partial name that is not text", [layout: "{{>*page.tags}}", "themes/mini/partials/card.mustache": "card", "content/index.md": "---\ntags: [card]\n---\n"],
         "themes/mini/layouts/page.mustache:1:1: error: {{>*page.tags}} needs the name of a partial, but 'page.tags' is a list, in layout 'page'\n    hint: give it a text or enum value naming a file of partials/, such as 'card'"),
        ("a partial that includes itself", [layout: "{{> a}}", "themes/mini/partials/a.mustache": "x{{> a}}"],
         "themes/mini/partials/a.mustache:1:2: error: partial 'a' includes itself: a → a"),
        ("a transform", [layout: "{{uppercased(page.title)}}"],
         "themes/mini/layouts/page.mustache:1:3: error: template syntax error: transforms such as uppercased(name) are not supported"),
        ("sections nested past 100", [layout: String(repeating: "{{#a}}", count: 101) + String(repeating: "{{/a}}", count: 101)],
         "themes/mini/layouts/page.mustache:1:601: error: sections nested more than 100 deep"),
    ] as [(String, [String: String], String)])
    func isAnErrorAtTheTag(_ deviation: String, _ files: [String: String], _ expected: String) throws {
        let site = try TemporarySite(files)
        let first = site.diagnostics().first ?? "no error"
        #expect(first.hasPrefix(expected), "\(deviation):\n\(first)")
    }

    /// `{{#.}}` and `{{^.}}` outside every section test the view data, an object: as swift-mustache
    /// renders them (MustacheDifferentialTests holds both engines equal on them).
    @Test func theViewDataIsAnObjectForSections() throws {
        let site = try TemporarySite([Self.layout: "{{#.}}<h1>{{page.title}}</h1>{{/.}}{{^.}}never{{/.}}"])
        try site.build()
        #expect(try site.read("index.html") == "<h1>Home</h1>")
    }

    /// An absent partial name includes nothing, as a section over it renders nothing.
    @Test func anAbsentPartialNameIncludesNothing() throws {
        let site = try TemporarySite([Self.layout: "<main>{{>*page.params.which}}</main>", "themes/mini/partials/card.mustache": "card"])
        try site.build()
        #expect(try site.read("index.html") == "<main></main>")
    }

    /// An enum field names a partial by its value (a formatted value, which printed nothing before).
    @Test func anEnumValueNamesAPartial() throws {
        let site = try TemporarySite([
            "themes/mini/components/tile.yml": "shell: none\nfields:\n  style: { type: enum, values: [card, plain] }\n",
            "themes/mini/components/tile.mustache": "<div>{{>*style}}</div>",
            "themes/mini/partials/card.mustache": "[card]",
            "themes/mini/partials/plain.mustache": "[plain]",
            "content/index.md": "---\ncomponents:\n  - { component: tile, style: plain }\n  - { component: tile, style: card }\n---\n",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<div>[plain]</div>") && html.contains("<div>[card]</div>"), "\(html)")
    }

    /// A partial named by a value is found only while rendering: an error inside it is placed in
    /// its own file, at the tag, and names the tag that included it.
    @Test func anErrorInsideADynamicPartialIsPlacedInThePartial() throws {
        let site = try TemporarySite([
            Self.layout: "<title>{{page.title}}</title><main>{{>*page.params.which}}{{{sections}}}</main>\n",
            "themes/mini/partials/card.mustache": "<div>\n  {{titel}}\n</div>\n",
            "content/index.md": "---\ntitle: Home\nwhich: card\n---\n",
        ])
        #expect(site.diagnostics().first?.hasPrefix(
            "themes/mini/partials/card.mustache:2:3: error: 'titel' is not a value of layout 'page' (partial 'card' is included by {{>*page.params.which}} at layouts/page.mustache:1:36)\n    hint: ") == true,
            "\(site.diagnostics())")
    }

    /// The same through a static partial the dynamic one includes, and a part a value lacks.
    @Test func anErrorInAPartialOfADynamicPartialIsPlacedThereToo() throws {
        let site = try TemporarySite([
            Self.layout: "<main>{{#page}}{{>*params.which}}{{/page}}</main>\n",
            "themes/mini/partials/card.mustache": "<div>{{> inner}}</div>",
            "themes/mini/partials/inner.mustache": "\n{{page.date.isoo}}",
            "content/index.md": "---\ntitle: Home\nwhich: card\ndate: 2026-11-01\n---\n",
        ])
        #expect(site.diagnostics().first?.hasPrefix(
            "themes/mini/partials/inner.mustache:2:1: error: 'isoo' is not a part of 'page.date' in layout 'page' (partial 'inner' is included by partial 'card', which {{>*params.which}} at layouts/page.mustache:1:16 includes)") == true,
            "\(site.diagnostics())")
    }
}
