import Foundation
import Testing
@testable import TesseraKit

/// `{{#t}}goal.status.{{status}}{{/t}}`: a key built from a value is looked up as rendered, and a
/// missing one is named as rendered, with the keys the enum's other values need.
@Suite struct BuiltTranslationKeyTests {
    static let files: [String: String] = [
        "themes/mini/components/goal.yml": "shell: none\nfields:\n  status: { type: enum, values: [active, paused, done] }\n  label: text\n",
        "themes/mini/components/goal.mustache": "<p>{{#t}}goal.status.{{status}}{{/t}}</p>",
        "themes/mini/i18n/en.yml": "goal:\n  status:\n    active: Under way\n",
    ]

    static func page(_ status: String) -> String {
        "---\ntitle: Home\ncomponents:\n  - { component: goal, status: \(status), label: \(status) }\n---\n"
    }

    @Test func aBuiltKeyThatExistsIsTranslated() throws {
        let site = try TemporarySite(Self.files.merging(["content/index.md": Self.page("active")]) { _, new in new })
        try site.build()
        #expect(try site.read("index.html").contains("<p>Under way</p>"))
    }

    @Test func aMissingBuiltKeyIsNamedAsRenderedWithTheEnumsOtherKeys() throws {
        let site = try TemporarySite(Self.files.merging(["content/index.md": Self.page("paused")]) { _, new in new })
        #expect(site.diagnostics() == [
            "themes/mini/components/goal.mustache:1:4: error: missing translation 'goal.status.paused' (built by {{#t}}goal.status.{{status}}{{/t}}) for language 'en' in component 'goal'\n"
                + "    hint: add `goal.status.paused: …` to i18n/en.yml, and for the other values of enum 'status': goal.status.done; "
                + "or name each value's key with the enum's flags: {{#status.paused}}{{#t}}goal.status.paused{{/t}}{{/status.paused}}",
        ])
    }

    /// Built from text, the values are not knowable: the hint says that only the values pages
    /// give are checked.
    @Test func aMissingKeyBuiltFromTextSaysOnlyGivenValuesAreChecked() throws {
        var files = Self.files
        files["themes/mini/components/goal.mustache"] = "<p>\n{{#t}}goal.label.{{label}}{{/t}}</p>"
        files["content/index.md"] = Self.page("done")
        let site = try TemporarySite(files)
        #expect(site.diagnostics() == [
            "themes/mini/components/goal.mustache:2:1: error: missing translation 'goal.label.done' (built by {{#t}}goal.label.{{label}}{{/t}}) for language 'en' in component 'goal'\n"
                + "    hint: add `goal.label.done: …` to i18n/en.yml, and a key for every other value the tags of {{#t}}goal.label.{{label}}{{/t}} can print: "
                + "a key built from a value is checked only for the values pages give it",
        ])
    }
}
