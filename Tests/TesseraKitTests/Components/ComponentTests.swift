import Foundation
import Testing
@testable import TesseraKit

@Suite struct ViewValueEncoderTests {
    struct Card: Encodable {
        let title: String
        let subtitle: String?
        let count: Int
        let ratio: Double
        let flags: [Bool]
        let nested: Nested
        struct Nested: Encodable { let name: String }
    }

    @Test func encodesStructsAndKeepsNilOptionalsAsNull() throws {
        let value = try ViewValueEncoder().encode(Card(title: "T", subtitle: nil, count: 3, ratio: 0.5, flags: [true], nested: .init(name: "n")))
        #expect(value == .object([
            "title": .string("T"), "subtitle": .null, "count": .number(3), "ratio": .number(0.5),
            "flags": .list([.bool(true)]), "nested": .object(["name": .string("n")]),
        ]))
    }

    @Test func viewValuesPassThrough() throws {
        struct Wrapper: Encodable { let when: ViewValue }
        let date = ViewValue.formatted("today", ["iso": .string("2026-11-22")])
        #expect(try ViewValueEncoder().encode(Wrapper(when: date))["when"] == date)
    }

    @Test func viewDataEncodesToJSONForNativeClients() throws {
        let value = ViewValue.object(["title": .string("A"), "progress": .formatted("42%", ["value": .number(0.42)]), "x": .null])
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let json = String(decoding: try encoder.encode(value), as: UTF8.self)
        #expect(json == #"{"progress":{"text":"42%","value":0.42},"title":"A","x":null}"#)
    }
}

@Suite struct ViewDataMapperTests {
    struct Greeting: ComponentModel {
        static let code = "greeting"
        struct ViewData: Encodable { let headline: String }
        static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
            ViewData(headline: "Hello, \(fields.text("name") ?? "you") (\(fields.text("share") ?? ""))")
        }
    }

    func mapper() throws -> ViewDataMapper {
        var schema = ComponentSchema(code: "greeting", shell: nil, file: "greeting.yml")
        schema.fields = [
            FieldSpec(name: "name", type: .text, required: true, location: SourceLocation(file: "greeting.yml")),
            FieldSpec(name: "share", type: .percent, defaultValue: ContentNode(.double(0.5), at: SourceLocation(file: "greeting.yml")), location: SourceLocation(file: "greeting.yml")),
            FieldSpec(name: "note", type: .text, location: SourceLocation(file: "greeting.yml")),
        ]
        let registry = ComponentRegistry(definitions: [ComponentDefinition(schema: schema, templatePath: nil, model: AnyComponentModel(Greeting.self))])
        return ViewDataMapper(registry: registry, defaultShell: "card")
    }

    func use(_ yaml: String) throws -> ComponentUse {
        try ComponentUse.parse(try #require(try YAMLParser.parse(yaml, file: "c.md")), what: "an item")
    }

    @Test func schemaFieldsThenSwiftModelValues() throws {
        let context = TransformContext(locale: Locale(identifier: "en"), timeZone: .gmt, buildDate: Date(timeIntervalSince1970: 0), markdown: MarkdownRenderer(), links: LinkResolver())
        let view = try mapper().map(try use("component: greeting\nname: Ada\n"), context: context)
        #expect(view.shell == "card")
        #expect(view.data.keys == ["name", "share", "note", "headline"])
        #expect(view.data["note"] == .null)
        #expect(view.data["share"]?.text == "50%")
        #expect(view.data["headline"] == .string("Hello, Ada (50%)"))
    }

    /// A model's numbers of other widths, a nil `Float?` and a nested value, through the mapper:
    /// an `Int64` crashed the build (the encoder sent it back to itself until the stack ran out),
    /// and a nil `Float?` was missing where a nil `Double?` was null.
    struct Tally: ComponentModel {
        static let code = "greeting"
        struct ViewData: Encodable {
            let views: Int64
            let stars: UInt8
            let ratio: Float?
            let trend: Trend
            let parts: [Int32]
        }
        enum Trend: String, Encodable { case up }
        static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
            ViewData(views: 12_345_678_901, stars: 5, ratio: nil, trend: .up, parts: [1, -2])
        }
    }

    @Test func aModelsNumbersOfEveryWidthAndItsNilsReachTheData() throws {
        var schema = ComponentSchema(code: "greeting", shell: nil, file: "greeting.yml")
        schema.fields = [FieldSpec(name: "name", type: .text, location: SourceLocation(file: "greeting.yml"))]
        let registry = ComponentRegistry(definitions: [ComponentDefinition(schema: schema, templatePath: nil, model: AnyComponentModel(Tally.self))])
        let context = TransformContext(locale: Locale(identifier: "en"), timeZone: .gmt, buildDate: Date(timeIntervalSince1970: 0), markdown: MarkdownRenderer(), links: LinkResolver())
        let view = try ViewDataMapper(registry: registry, defaultShell: "card").map(try use("component: greeting\nname: Ada\n"), context: context)
        #expect(view.data.keys == ["name", "views", "stars", "ratio", "trend", "parts"])
        #expect(view.data["views"] == .number(12_345_678_901))
        #expect(view.data["stars"] == .number(5))
        #expect(view.data["ratio"] == .null)
        #expect(view.data["trend"] == .string("up"))
        #expect(view.data["parts"] == .list([.number(1), .number(-2)]))
    }
}

/// `FieldSpec` keeps its values in a box its copies share: a copy changed is copied first, so
/// every field still behaves as a value.
@Suite struct FieldSpecValueTests {
    @Test func aChangedCopyLeavesTheOriginalAsItWas() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldspec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("card.yml").path
        try """
        fields:
          title: { type: text, required: true, description: The card's title }
          photo: { type: image, sizes: "(min-width: 40em) 50vw, 100vw", ratio: "16:9", widths: [320, 640] }
          state: { type: enum, values: [open, closed], default: open }
        """.write(toFile: path, atomically: true, encoding: .utf8)
        let schema = try ComponentSchema.load(code: "card", path: path)
        let original = schema.fields
        #expect(original.map(\.name) == ["title", "photo", "state"])
        #expect(original[0].required && original[0].description == "The card's title")
        #expect(original[1].image.sizes == "(min-width: 40em) 50vw, 100vw" && original[1].image.widths == [320, 640])
        #expect(original[1].image.ratio == 16.0 / 9.0)
        #expect(original[2].values == ["open", "closed"] && original[2].defaultValue?.scalarText == "open")

        var changed = original
        changed[0].name = "heading"
        changed[0].required = false
        changed[1].image.sizes = "100vw"
        changed[1].image.widths = [1200]
        changed[2].values.append("archived")
        changed[2].defaultValue = nil
        #expect(changed[0].name == "heading" && !changed[0].required && changed[0].description == "The card's title")
        #expect(changed[1].image.sizes == "100vw" && changed[1].image.widths == [1200] && changed[1].type == .image)
        #expect(changed[2].values == ["open", "closed", "archived"] && changed[2].defaultValue == nil)
        // The originals, and the schema they came from, are as loaded.
        for fields in [original, schema.fields] {
            #expect(fields[0].name == "title" && fields[0].required)
            #expect(fields[1].image.sizes == "(min-width: 40em) 50vw, 100vw" && fields[1].image.widths == [320, 640])
            #expect(fields[2].values == ["open", "closed"] && fields[2].defaultValue?.scalarText == "open")
        }
        // Equality is by value, shared box or not.
        #expect(changed != original)
        var back = changed
        back[0].name = "title"
        back[0].required = true
        back[1].image = original[1].image
        back[2].values = ["open", "closed"]
        back[2].defaultValue = original[2].defaultValue
        #expect(back == original)
        #expect(original == schema.fields)
    }
}
