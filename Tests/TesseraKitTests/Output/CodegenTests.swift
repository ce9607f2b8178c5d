import Foundation
import Testing
@testable import TesseraKit

/// Generated Swift and TypeScript types, compiled by the real compilers and used on every page of
/// the example site; and `schema diff` on each kind of change.
@Suite struct CodegenTests {
    /// On CI a missing compiler fails the tests instead of skipping them.
    static let hasSwiftc = Tools.available("swiftc")
    static let hasTsc = Tools.available("tsc")

    static func run(_ tool: String, _ arguments: [String], in folder: String) async throws -> (status: Int32, output: String) {
        try await Tools.run(tool, arguments, in: folder)
    }

    static var exampleRegistry: ComponentRegistry {
        get throws { try ComponentCatalog.loadRegistry(siteDirectory: Repository.root).1 }
    }

    /// Every page document of the written example site (not the API files, not JSON Feeds).
    static var examplePages: [String] {
        let root = ExampleSiteCrawlTests.output
        return (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".json") && !$0.hasPrefix("api/") && !$0.hasPrefix("search/") && !$0.hasSuffix("feed.json") }
            .sorted().map { root + "/" + $0 }
    }

    /// The example site's search documents for apps, one file per language (`search.documents: true`).
    static var exampleSearchDocuments: [String] {
        let folder = ExampleSiteCrawlTests.output + "/api/search"
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }.sorted().map { folder + "/" + $0 }
    }

    static func folder() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-codegen-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    static let decoder = """
        import Foundation
        var failures = 0, components = 0, unknown = 0
        func walk(_ list: [TesseraComponent]) {
            for component in list {
                components += 1
                switch component {
                case .unknown: unknown += 1
                case .horizontalContainer(let container): walk(container.fields.items)
                case .segmentedMenu(let menu): walk(menu.fields.items)
                default: break
                }
            }
        }
        for path in CommandLine.arguments.dropFirst() {
            do {
                if path.contains("/api/search/") {
                    let file = try JSONDecoder().decode(TesseraSearchDocuments.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
                    if file.documents.isEmpty || file.documents.contains(where: { $0.text.isEmpty && $0.summary == nil }) { failures += 1; print("\\(path): empty") }
                    continue
                }
                if path.hasSuffix("/api/site.json") {
                    let site = try JSONDecoder().decode(TesseraSiteDocument.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
                    if site.languages.isEmpty || site.menus.isEmpty { failures += 1; print("\\(path): empty") }
                    continue
                }
                // As an app tells them apart: by the document's format, not its path (a page
                // may be called "sections").
                struct Kind: Decodable { let format: String }
                let data = try Data(contentsOf: URL(fileURLWithPath: path))
                if try JSONDecoder().decode(Kind.self, from: data).format == "tessera.section" {
                    let part = try JSONDecoder().decode(TesseraSectionDocument.self, from: data)
                    walk(part.section.items)
                    continue
                }
                let page = try JSONDecoder().decode(TesseraPage.self, from: try Data(contentsOf: URL(fileURLWithPath: path)))
                for section in page.sections { walk(section.items + [section.header, section.footer].compactMap { $0 }) }
            } catch {
                failures += 1
                print("\\(path): \\(error)")
            }
        }
        print("decoded \\(CommandLine.arguments.count - 1 - failures) components \\(components) unknown \\(unknown)")
        exit(failures == 0 ? 0 : 1)
        """

    @Test(.enabled(if: hasSwiftc, "needs swiftc"))
    func theSwiftTypesCompileAndDecodeEveryPageOfTheExampleSite() async throws {
        let pages = Self.examplePages
        try #require(pages.count >= 50)
        let folder = try Self.folder()
        try CodeGenerator.generate(.swift, registry: Self.exampleRegistry).write(toFile: folder + "/TesseraContent.swift", atomically: true, encoding: .utf8)
        try Self.decoder.write(toFile: folder + "/main.swift", atomically: true, encoding: .utf8)
        // A page from newer content, with a component this app does not know.
        try #"{"format":"tessera.page","version":2,"page":{"id":"x","url":"/x/","json":"/x/index.json","lang":"en","tags":[]},"sections":[{"id":"s","layout":"list","items":[{"id":"a","type":"future-widget","version":3,"fields":{"anything":[1,2]}}]}]}"#
            .write(toFile: folder + "/future.json", atomically: true, encoding: .utf8)
        let compile = try await Self.run("swiftc", ["-Onone", "TesseraContent.swift", "main.swift", "-o", "decode"], in: folder)
        try #require(compile.status == 0, "\(compile.output)")
        let documents = Self.exampleSearchDocuments
        #expect(documents.count == 4, "en, fr, de, ar: \(documents)")
        let site = ExampleSiteCrawlTests.output + "/api/site.json"
        let decoded = try await Self.run(folder + "/decode", pages + [folder + "/future.json"] + documents + [site], in: folder)
        #expect(decoded.status == 0, "\(decoded.output)")
        let counts = decoded.output.split(separator: " ")
        #expect(decoded.output.hasPrefix("decoded \(pages.count + 2 + documents.count) "), "\(decoded.output)")
        #expect(counts.last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } == "1", "only the future widget is unknown: \(decoded.output)")

        // A wrong type in a known component fails to decode.
        let broken = try String(contentsOfFile: ExampleSiteCrawlTests.output + "/index.json", encoding: .utf8)
        let altered = broken.replacingOccurrences(of: #""type":"banner""#, with: #""type":"stat""#)
        try #require(altered != broken)
        try altered.write(toFile: folder + "/broken.json", atomically: true, encoding: .utf8)
        let failure = try await Self.run(folder + "/decode", [folder + "/broken.json"], in: folder)
        #expect(failure.status == 1 && failure.output.contains("broken.json"), "\(failure.output)")
    }

    @Test(.enabled(if: hasTsc, "needs tsc (Debian's node-typescript; make test installs it)"))
    func theTypeScriptTypesCheckStrictlyAgainstEveryPage() async throws {
        let pages = Self.examplePages
        try #require(pages.count >= 50)
        let folder = try Self.folder()
        try CodeGenerator.generate(.typescript, registry: Self.exampleRegistry).write(toFile: folder + "/tessera-content.ts", atomically: true, encoding: .utf8)
        // Each page as a typed constant: object literals keep their literal types, and excess
        // properties are errors, so a key the types do not declare fails the check.
        var source = "import type { TesseraPage, TesseraSearchDocuments, TesseraSectionDocument, TesseraSiteDocument } from \"./tessera-content\";\n"
        source += "export const site: TesseraSiteDocument = \(try String(contentsOfFile: ExampleSiteCrawlTests.output + "/api/site.json", encoding: .utf8));\n"
        for (index, page) in pages.enumerated() {
            // As an app tells them apart: by the document's format, not its path (a page may be
            // called "sections").
            let text = try String(contentsOfFile: page, encoding: .utf8)
            let type = text.hasPrefix("{\"format\":\"tessera.section\"") ? "TesseraSectionDocument" : "TesseraPage"
            source += "export const page\(index): \(type) = \(text);\n"
        }
        for (index, file) in Self.exampleSearchDocuments.enumerated() {
            source += "export const search\(index): TesseraSearchDocuments = \(try String(contentsOfFile: file, encoding: .utf8));\n"
        }
        try source.write(toFile: folder + "/pages.ts", atomically: true, encoding: .utf8)
        let check = try await Self.run("tsc", ["--noEmit", "--strict", "tessera-content.ts", "pages.ts"], in: folder)
        #expect(check.status == 0, "\(check.output.prefix(3000))")

        try source.replacingOccurrences(of: #""title":"Your learning feed""#, with: #""title":42"#).write(toFile: folder + "/pages.ts", atomically: true, encoding: .utf8)
        let broken = try await Self.run("tsc", ["--noEmit", "--strict", "tessera-content.ts", "pages.ts"], in: folder)
        #expect(broken.status != 0 && broken.output.contains("Type 'number' is not assignable to type 'string'"), "\(broken.output.prefix(2000))")
    }

    @Test func fieldNamesThatAreNotIdentifiersAreMappedBack() throws {
        let site = try TemporarySite([
            "themes/mini/components/odd.yml": "fields:\n  default: text\n  2nd-line: { type: text, required: true }\n  state: { type: enum, values: [up, \"down\"] }\n",
            "themes/mini/components/odd.mustache": "{{default}}",
        ])
        try site.build()
        let (_, registry) = try ComponentCatalog.loadRegistry(siteDirectory: site.root)
        let swift = CodeGenerator.generate(.swift, registry: registry)
        #expect(swift.contains("public let `default`: String?"))
        #expect(swift.contains("public let c2ndLine: String"))
        #expect(swift.contains("case c2ndLine = \"2nd-line\""))
        let typescript = CodeGenerator.generate(.typescript, registry: registry)
        #expect(typescript.contains("\"2nd-line\": string;") && typescript.contains("state?: \"up\" | \"down\";"))
    }

    // MARK: schema diff

    static func schema(_ components: [String: String]) throws -> Data {
        var files = components
        files["content/index.md"] = "---\ntitle: Home\n---\n"
        let site = try TemporarySite(files)
        try site.build()
        return try Data(contentsOf: URL(fileURLWithPath: site.output + "/api/schema.json"))
    }

    static let base: [String: String] = [
        "themes/mini/components/card.yml": "fields:\n  title: { type: text, required: true }\n  count: number\n  tone: { type: enum, values: [info, warning] }\n  link: link\n",
        "themes/mini/components/card.mustache": "{{title}}",
    ]

    @Test(arguments: [
        ("component removed", ["themes/mini/components/note.yml": nil], "breaking: component 'note' was removed"),
        ("field removed", ["themes/mini/components/card.yml": "fields:\n  title: { type: text, required: true }\n  tone: { type: enum, values: [info, warning] }\n  link: link\n"], "breaking: field 'count' of 'card' was removed"),
        ("type changed", ["themes/mini/components/card.yml": "fields:\n  title: { type: text, required: true }\n  count: text\n  tone: { type: enum, values: [info, warning] }\n  link: link\n"], "breaking: field 'count' of 'card' changed type from number to text: an app built for the old schema fails to decode it (it expects an object with text and value, and gets a string)"),
        ("made required", ["themes/mini/components/card.yml": "fields:\n  title: { type: text, required: true }\n  count: number\n  tone: { type: enum, values: [info, warning] }\n  link: { type: link, required: true }\n"], "breaking: field 'link' of 'card' was optional and is now required"),
        ("enum value removed", ["themes/mini/components/card.yml": "fields:\n  title: { type: text, required: true }\n  count: number\n  tone: { type: enum, values: [info] }\n  link: link\n"], "breaking: enum value 'warning' of field 'tone' of 'card' was removed"),
        ("version raised without a fallback", ["themes/mini/components/card.yml": "version: 2\nfields:\n  title: { type: text, required: true }\n  count: number\n  tone: { type: enum, values: [info, warning] }\n  link: link\n"], "breaking: 'card' is now version 2 (was 1): apps built for version 1 no longer show it (it has no fallback to show in its place)"),
        ("a newer app needed without a fallback", ["themes/mini/components/card.yml": "minClientVersion: \"2.3\"\nfields:\n  title: { type: text, required: true }\n  count: number\n  tone: { type: enum, values: [info, warning] }\n  link: link\n"], "breaking: 'card' now needs app version 2.3 (was 1.0): older apps do not show it (it has no fallback)"),
        ("a new component whose fallback is new too", ["themes/mini/components/badge.yml": "fallback: pill\nfields:\n  label: text\n", "themes/mini/components/badge.mustache": "{{label}}", "themes/mini/components/pill.yml": "fields:\n  label: text\n", "themes/mini/components/pill.mustache": "{{label}}"], "breaking: component 'badge' was added with fallback 'pill', which leads to no component of the old schema: apps built for it show nothing in its place"),
    ] as [(String, [String: String?], String)])
    func breakingChangesAreReported(_ name: String, _ change: [String: String?], _ expected: String) throws {
        var changed = Self.base
        for (path, text) in change {
            if let text { changed[path] = text } else { changed[path] = nil }
        }
        let old = try Self.schema(Self.base)
        var newFiles = changed
        // Removing a theme file: the base theme's note is replaced by nothing only if dropped from the base.
        if change.keys.contains("themes/mini/components/note.yml") {
            let site = try TemporarySite(newFiles.merging(["content/index.md": "---\ntitle: Home\n---\n"]) { _, new in new })
            try site.remove("themes/mini/components/note.yml")
            try site.remove("themes/mini/components/note.mustache")
            try site.build()
            let new = try Data(contentsOf: URL(fileURLWithPath: site.output + "/api/schema.json"))
            let diff = try SchemaDiff.compare(old: old, new: new)
            #expect(diff.isBreaking && diff.changes.map(\.description).contains(expected), "\(diff.changes)")
            return
        }
        newFiles = changed
        let diff = try SchemaDiff.compare(old: old, new: try Self.schema(newFiles))
        #expect(diff.isBreaking, "\(name)")
        #expect(diff.changes.map(\.description).contains(expected), "\(diff.changes)")
    }

    @Test func compatibleChangesAreListedButDoNotBreak() throws {
        var newer = Self.base
        newer["themes/mini/components/card.yml"] = "fields:\n  title: { type: text, required: true }\n  count: number\n  tone: { type: enum, values: [info, warning, error] }\n  link: link\n  subtitle: text\n"
        newer["themes/mini/components/badge.yml"] = "fallback: { component: card, fields: { title: label } }\nfields:\n  label: { type: text, required: true }\n  link: link\n"
        newer["themes/mini/components/badge.mustache"] = "{{label}}"
        newer["themes/mini/components/chip.yml"] = "fallback: hide\nfields:\n  label: text\n"
        newer["themes/mini/components/chip.mustache"] = "{{label}}"
        newer["themes/mini/components/tag.yml"] = "fields:\n  label: text\n"
        newer["themes/mini/components/tag.mustache"] = "{{label}}"
        let diff = try SchemaDiff.compare(old: try Self.schema(Self.base), new: try Self.schema(newer))
        #expect(!diff.isBreaking)
        #expect(diff.changes.map(\.description) == [
            "compatible: enum value 'error' was added to field 'tone' of 'card'",
            "compatible: field 'subtitle' was added to 'card'",
            "compatible: component 'badge' was added: apps built for the old schema show its fallback 'card'",
            "compatible: component 'chip' was added: apps built for the old schema hide it, as its fallback says",
            "compatible: component 'tag' was added: apps built for the old schema skip it (add `fallback:` to show something in its place)",
        ])
        #expect(try SchemaDiff.compare(old: try Self.schema(Self.base), new: try Self.schema(Self.base)).changes.isEmpty)
        #expect(throws: TesseraError.self) { try SchemaDiff.compare(old: Data("{}".utf8), new: Data("{}".utf8)) }
    }
}
