import Foundation
import Testing
@testable import TesseraKit

/// Schemas, definitions, transform contexts, compiled templates and component views share their
/// fields between copies (`CopyOnWrite`): a change to one copy is that copy's alone.
@Suite struct CopyOnWriteTests {
    @Test func aChangedSchemaLeavesItsCopiesAsTheyWere() {
        let original = ComponentSchema(code: "card", shell: "card", fields: [FieldSpec(name: "title", type: .text, location: SourceLocation(file: "card.yml"))], file: "card.yml")
        var changed = original
        #expect(changed == original)
        changed.version = 2
        changed.fields.append(FieldSpec(name: "date", type: .date, location: SourceLocation(file: "card.yml")))
        changed.shell = nil
        #expect(original.version == 1 && original.fields.map(\.name) == ["title"] && original.shell == "card")
        #expect(changed.version == 2 && changed.fields.map(\.name) == ["title", "date"] && changed.shell == nil)
        #expect(changed != original)
        // Equal fields in two boxes are equal schemas.
        var rebuilt = ComponentSchema(code: "card", shell: "card", fields: original.fields, file: "card.yml")
        #expect(rebuilt == original)
        rebuilt.searchable = false
        #expect(rebuilt != original)

        var definition = ComponentDefinition(schema: original, templatePath: "components/card.mustache", model: nil)
        let kept = definition
        definition.schema = changed
        definition.templatePath = nil
        #expect(kept.schema == original && kept.templatePath == "components/card.mustache" && kept.code == "card")
        #expect(definition.schema == changed && definition.templatePath == nil)
    }

    @Test func aPagesContextIsItsOwn() {
        let site = TransformContext(
            locale: Locale(identifier: "en_US"), timeZone: TimeZone(identifier: "Asia/Tokyo")!, buildDate: Date(timeIntervalSince1970: 0),
            markdown: MarkdownRenderer(), links: LinkResolver(), pageURL: "/")
        var page = site
        page.pageURL = "/blog/post/"
        page.locale = Locale(identifier: "fr_FR")
        page.timeZone = TimeZone(identifier: "Europe/Paris")!
        #expect(site.pageURL == "/" && site.locale.identifier == "en_US" && site.timeZone.identifier == "Asia/Tokyo")
        #expect(page.pageURL == "/blog/post/" && page.locale.identifier == "fr_FR")
        // The calendar follows the locale and the zone it was changed to, in that copy only.
        #expect(page.calendar.locale?.identifier == "fr_FR" && page.calendar.timeZone.identifier == "Europe/Paris")
        #expect(site.calendar.locale?.identifier == "en_US" && site.calendar.timeZone.identifier == "Asia/Tokyo")
    }

    @Test func aTemplatesPathIsItsCopysOwn() throws {
        let template = try CompiledTemplate(kind: .component, name: "card", path: "themes/a/components/card.mustache", text: "<p>{{title}}</p>")
        var moved = template
        moved.path = "components/card.mustache"
        #expect(template.path == "themes/a/components/card.mustache" && moved.path == "components/card.mustache")
        #expect(moved.key == "components/card" && moved.text == template.text && moved.tags.count == 1)
    }

    @Test func aChangedComponentViewLeavesItsCopiesAsTheyWere() {
        let location = SourceLocation(file: "content/index.md", line: 4, column: 7)
        var original = ComponentView(code: "card", data: ViewObject([("title", .string("Hello"))]), shell: "card", location: location)
        original.id = "intro"
        var changed = original
        #expect(changed == original)
        changed.code = "notice"
        changed.id = nil
        changed.listedID = "page:about"
        changed.action = ComponentAction(type: "share")
        changed.data = ViewObject([("title", .string("Bye"))])
        changed.shell = nil
        changed.location.line = 9
        changed.source = "{ component: notice }"
        changed.sharedKey = "about|en"
        #expect(original.code == "card" && original.id == "intro" && original.listedID == nil && original.action == nil)
        #expect(original.data["title"] == .string("Hello") && original.shell == "card" && original.location == location)
        #expect(original.source == nil && original.sharedKey == nil)
        #expect(changed.code == "notice" && changed.id == nil && changed.listedID == "page:about" && changed.action?.type == "share")
        #expect(changed.data["title"] == .string("Bye") && changed.shell == nil && changed.location.line == 9)
        #expect(changed.source == "{ component: notice }" && changed.sharedKey == "about|en")
        #expect(changed != original)
        // Views made apart with equal fields are equal; one field apart, they are not.
        var rebuilt = ComponentView(code: "card", data: ViewObject([("title", .string("Hello"))]), shell: "card", location: location)
        #expect(rebuilt != original)
        rebuilt.id = "intro"
        #expect(rebuilt == original)
        rebuilt.sharedKey = "x"
        #expect(rebuilt != original)
    }
}
