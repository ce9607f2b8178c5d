import Foundation
import Testing
@testable import TesseraKit

/// Each bad input and the exact diagnostics it gets: file:line:column, what, and the hint.
@Suite struct ErrorMessageTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        let files: [String: String]
        let expected: [String]
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "YAML syntax error in front matter", files: [
            "content/index.md": "---\ntitle: Home\nsections: [\n  - items: []\n---\n",
        ], expected: [
            "content/index.md:3:11: error: invalid YAML: unclosed '[': no ']' ends the list it opens\n    hint: add ']' after the list's last item",
        ]),
        Case(name: "front matter not closed", files: [
            "content/index.md": "---\ntitle: Home\n\nHello\n",
        ], expected: [
            "content/index.md:1:1: error: front matter is not closed\n    hint: add a line with '---' after the last front matter key",
        ]),
        Case(name: "unknown component code, with the nearest known codes", files: [
            "content/index.md": "---\ncomponents:\n  - component: noet\n    message: Hi\n---\n",
        ], expected: [
            "content/index.md:3:16: error: unknown component 'noet'\n    hint: did you mean 'note'? `tessera components` lists them all",
        ]),
        Case(name: "componentCode is an alias of component", files: [
            "content/index.md": "---\ncomponents:\n  - componentCode: heading\n---\n",
        ], expected: [
            "content/index.md:3:5: error: component 'heading' needs field 'title'\n    hint: add `title:` (text)",
        ]),
        Case(name: "missing required field", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n---\n",
        ], expected: [
            "content/index.md:3:5: error: component 'course' needs field 'progress'\n    hint: add `progress:` (percent)",
        ]),
        Case(name: "wrong field type", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n    progress: [1, 2]\n---\n",
        ], expected: [
            "content/index.md:5:15: error: field 'progress' must be a number, found a list\n    hint: write a fraction such as 0.42, or \"42%\"",
        ]),
        Case(name: "unknown field, with a suggestion", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n    progres: 0.4\n    progress: 0.4\n---\n",
        ], expected: [
            "content/index.md:5:5: error: unknown field 'progres' for component 'course'\n    hint: did you mean 'progress'?",
        ]),
        Case(name: "unknown page layout", files: [
            "content/index.md": "---\nlayout: pgae\n---\n",
        ], expected: [
            "content/index.md:2:9: error: unknown layout 'pgae'\n    hint: did you mean 'page'?",
        ]),
        Case(name: "unknown section layout", files: [
            "content/index.md": "---\nsections:\n  - layout: grdi\n    items: []\n---\n",
        ], expected: [
            "content/index.md:3:13: error: unknown section layout 'grdi'\n    hint: the section layouts are list",
        ]),
        Case(name: "unknown shell named by a schema", files: [
            "themes/mini/components/note.yml": "shell: crad\nfields:\n  message: { type: text }\n",
        ], expected: [
            "themes/mini/components/note.yml:1:8: error: unknown shell 'crad' for component 'note'\n    hint: did you mean 'card'?",
        ]),
        Case(name: "unknown theme", files: [
            "site.yml": "theme: minni\n",
        ], expected: [
            "site.yml:1:8: error: unknown theme 'minni': there is no folder themes/minni\n    hint: did you mean 'mini'?",
        ]),
        Case(name: "unparsable date in a field", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n    progress: 0.5\n    updated: 2026-13-01\n---\n",
        ], expected: [
            "content/index.md:6:14: error: '2026-13-01' in field 'updated' is not a date: month 13 is out of range (01-12)\n    hint: write a month from 01 to 12, as in 2026-12-01",
        ]),
        Case(name: "a day the month does not have, in front matter", files: [
            "content/index.md": "---\ndate: 2026-11-31\n---\n",
        ], expected: [
            "content/index.md:2:7: error: '2026-11-31' is not a date: November 2026 has 30 days\n    hint: write a day from 01 to 30, as in 2026-11-30",
        ]),
        Case(name: "a leap second in a field", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n    progress: 0.5\n    updated: 9999-12-31T23:59:60Z\n---\n",
        ], expected: [
            "content/index.md:6:14: error: '9999-12-31T23:59:60Z' in field 'updated' is not a date: second 60 (a leap second) is out of range (00-59)\n    hint: write the second before, as in 9999-12-31T23:59:59Z",
        ]),
        Case(name: "an offset that moves the instant before the year 0001", files: [
            "content/index.md": "---\nexpires: 0001-01-01T00:00:00+18:00\n---\n",
        ], expected: [
            "content/index.md:2:10: error: '0001-01-01T00:00:00+18:00' is not a date: it is 0000-12-31T06:00:00Z in UTC, before 0001-01-01T00:00:00Z\n    hint: dates run from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in the Gregorian calendar",
        ]),
        Case(name: "the build date in site.yml", files: [
            "site.yml": "title: T\nbuildDate: 2027-02-29\ntheme: mini\n",
        ], expected: [
            "site.yml:2:12: error: 'buildDate' is not a date: February 2027 has 28 days\n    hint: write a day from 01 to 28, as in 2027-02-28",
        ]),
        Case(name: "unparsable page date", files: [
            "content/index.md": "---\ndate: next tuesday\n---\n",
        ], expected: [
            "content/index.md:2:7: error: 'next tuesday' is not a date\n    hint: write an ISO 8601 date such as 2026-11-01 or 2026-11-01T09:30:00Z",
        ]),
        Case(name: "broken internal link", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n    progress: 0.5\n    link: /gudes/\n---\n",
            "content/guides.md": "---\ntitle: Guides\n---\n",
        ], expected: [
            "content/index.md:6:11: error: broken link in field 'link': no page or file at /gudes/\n    hint: did you mean '/guides/'?",
        ]),
        Case(name: "broken page reference", files: [
            "content/index.md": "---\ncomponents:\n  - component: course\n    title: Swift\n    progress: 0.5\n    link: \"@/missing.md\"\n---\n",
        ], expected: [
            "content/index.md:6:11: error: broken link in field 'link': no page is written in content/missing.md\n    hint: link to a file of content/, for example @/index.md",
        ]),
        Case(name: "enum value not listed", files: [
            "themes/mini/components/note.yml": "fields:\n  message: { type: text }\n  tone: { type: enum, values: [info, warning] }\n",
            "content/index.md": "---\ncomponents:\n  - component: note\n    message: Hi\n    tone: warn\n---\n",
        ], expected: [
            "content/index.md:5:11: error: 'warn' is not a value of field 'tone'\n    hint: did you mean 'warning'? the values are info, warning",
        ]),
        Case(name: "unknown field type in a schema", files: [
            "themes/mini/components/note.yml": "fields:\n  message: { type: txt }\n",
        ], expected: [
            "themes/mini/components/note.yml:2:20: error: unknown field type 'txt'\n    hint: did you mean 'text'?",
        ]),
        Case(name: "unknown field type far from any, listing the types", files: [
            "themes/mini/components/note.yml": "fields:\n  message: { type: paragraph }\n",
        ], expected: [
            "themes/mini/components/note.yml:2:20: error: unknown field type 'paragraph'\n    hint: the types are text, markdown, inline-markdown, number, percent, currency, date, link, image, enum, bool, list, items",
        ]),
        Case(name: "a template variable nothing provides", files: [
            "themes/mini/components/note.mustache": "<p>{{{message}}}</p>\n<small>{{autor}}</small>",
            "content/index.md": "---\ncomponents:\n  - component: note\n    message: Hi\n---\n",
        ], expected: [
            "themes/mini/components/note.mustache:2:8: error: 'autor' is not a value of component 'note'\n    hint: this template receives: component, message, page, site, t",
        ]),
        Case(name: "a partial that does not exist", files: [
            "themes/mini/layouts/page.mustache": "{{> header}}<main>{{{sections}}}</main>",
        ], expected: [
            "themes/mini/layouts/page.mustache:1:1: error: unknown partial 'header'\n    hint: create partials/header.mustache in the site or the theme",
        ]),
        Case(name: "an unclosed section, at its opening tag", files: [
            "themes/mini/shells/card.mustache": "<article>\n{{#body}}{{{body}}}\n</article>",
        ], expected: [
            "themes/mini/shells/card.mustache:2:1: error: template syntax error: the section 'body' opened here is never closed\n    hint: check that every {{#section}} and {{^section}} is closed by a matching {{/section}}, and that tags are closed with }}",
        ]),
        Case(name: "unknown site.yml key", files: [
            "site.yml": "theme: mini\ntitel: Oops\n",
        ], expected: [
            "site.yml:2:1: error: unknown site.yml key 'titel'\n    hint: did you mean 'title'?",
        ]),
        Case(name: "a component not allowed in a container", files: [
            "themes/mini/components/row.yml": "shell: none\nfields:\n  items: { type: items, accepts: [note] }\n",
            "content/index.md": "---\ncomponents:\n  - component: row\n    items:\n      - { component: heading, title: Hi }\n---\n",
        ], expected: [
            "content/index.md:5:22: error: 'row' does not accept 'heading' in 'items'\n    hint: it accepts note",
        ]),
        Case(name: "two pages with one URL", files: [
            "content/a.md": "---\ntitle: A\n---\n",
            "content/b.md": "---\nslug: a\n---\n",
        ], expected: [
            "content/b.md:2:7: error: two pages have the URL /a/: this one and content/a.md:1:1\n    hint: rename one of the files or give one a different `slug:`",
        ]),
    ]

    @Test(arguments: cases)
    func reportsExactDiagnostic(_ testCase: Case) throws {
        let site = try TemporarySite(testCase.files)
        #expect(site.diagnostics() == testCase.expected)
    }

    @Test func reportsEveryErrorOfABuildNotOnlyTheFirst() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ncomponents:\n  - component: noet\n  - component: course\n    title: A\n---\n",
            "content/other.md": "---\ndate: soon\n---\n",
            "themes/mini/components/heading.mustache": "<h2>{{titel}}</h2>",
        ])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.count == 3)
        #expect(diagnostics.contains { $0.hasPrefix("content/index.md:3:16: error: unknown component 'noet'") })
        #expect(diagnostics.contains { $0.hasPrefix("content/index.md:4:5: error: component 'course' needs field 'progress'") })
        #expect(diagnostics.contains { $0.hasPrefix("content/other.md:2:7: error: 'soon' is not a date") })
    }
}
