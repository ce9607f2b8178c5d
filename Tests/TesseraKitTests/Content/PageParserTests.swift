import Foundation
import Testing
@testable import TesseraKit

@Suite struct PageParserTests {
    let parser = PageParser(timeZone: TimeZone(identifier: "UTC")!)

    @Test(arguments: [
        ("index.md", nil, "/"),
        ("about.md", nil, "/about/"),
        ("a/b.md", nil, "/a/b/"),
        ("a/index.md", nil, "/a/"),
        ("a/_index.md", nil, "/a/"),
        ("a/b.md", "c", "/a/c/"),
        ("a/index.md", "x", "/x/"),
        ("feeds/home.json", nil, "/feeds/home/"),
        ("404.md", nil, "/404.html"),
    ] as [(String, String?, String)])
    func urlFromPath(_ path: String, slug: String?, url: String) {
        #expect(PageParser.url(for: path, slug: slug) == url)
    }

    @Test func readsFrontMatterKeysAndKeepsCustomOnesAsParams() throws {
        var parser = self.parser
        parser.languages = [SiteLanguage(code: "en", isDefault: true), SiteLanguage(code: "fr", isDefault: false)]
        let page = try parser.parse(text: """
            ---
            title: Swift Basics
            date: 2025-11-01T09:30:00Z
            draft: true
            slug: swift
            layout: course
            lang: fr
            tags: [swift, ios]
            summary: Learn Swift
            level: beginner
            ---
            Body *text*
            """, sourcePath: "/s/content/courses/basics.md", relativePath: "courses/basics.md")
        #expect(page.title == "Swift Basics")
        #expect(page.date == Date(timeIntervalSince1970: 1_761_989_400))
        #expect(page.draft)
        #expect(page.url == "/fr/courses/swift/")
        #expect(page.outputPath == "fr/courses/swift/index.html")
        #expect(page.layout == "course")
        #expect(page.language == "fr")
        #expect(page.tags == ["swift", "ios"])
        #expect(page.summary == "Learn Swift")
        #expect(page.params.map(\.key) == ["level"])
        #expect(page.body == "Body *text*")
        #expect(page.bodyLine == 12)
    }

    @Test func sectionsWithHeaderItemsFooterAndLayout() throws {
        let page = try parser.parse(text: """
            ---
            sections:
              - header: { component: section-header, title: In progress }
                layout: carousel
                id: progress
                items:
                  - component: course
                    title: A
                  - componentCode: notice
                footer: { component: section-footer, text: Daily }
            ---
            """, sourcePath: "/s/content/index.md", relativePath: "index.md")
        let section = try #require(page.sections.first)
        #expect(section.header?.code == "section-header")
        #expect(section.layout == "carousel")
        #expect(section.id == "progress")
        #expect(section.items.map(\.code) == ["course", "notice"])
        #expect(section.items[0].fields.map(\.key) == ["title"])
        #expect(section.items[0].codeLocation == SourceLocation(file: "/s/content/index.md", line: 7, column: 20))
        #expect(section.footer?.code == "section-footer")
    }

    @Test func componentsShorthandIsOneSectionWithoutHeaderOrFooter() throws {
        let page = try parser.parse(text: "---\ncomponents:\n  - component: a\n  - component: b\n---\n", sourcePath: "/s/content/x.md", relativePath: "x.md")
        #expect(page.sections.count == 1)
        #expect(page.sections[0].layout == "list")
        #expect(page.sections[0].header == nil)
        #expect(page.sections[0].items.map(\.code) == ["a", "b"])
    }

    @Test func feedFilesAreYAMLOrJSONWithoutBody() throws {
        let yaml = try parser.parse(text: "title: Feed\ncomponents:\n  - component: a\n", sourcePath: "/s/content/f.yml", relativePath: "f.yml")
        #expect(yaml.kind == .feed)
        #expect(yaml.title == "Feed")
        #expect(yaml.body.isEmpty)
        let json = try parser.parse(text: "{\n  \"title\": \"API\",\n  \"components\": [\n    {\"componentCode\": \"b\", \"x\": 1}\n  ]\n}\n", sourcePath: "/s/content/api.json", relativePath: "api.json")
        #expect(json.title == "API")
        #expect(json.sections[0].items[0].code == "b")
        #expect(json.sections[0].items[0].codeLocation.line == 4)
    }

    @Test func fileWithoutFrontMatterIsAllBody() throws {
        let page = try parser.parse(text: "# Hello\n", sourcePath: "/s/content/x.md", relativePath: "x.md")
        #expect(page.body == "# Hello\n")
        #expect(page.sections.isEmpty)
    }

    @Test func lookalikeKeysWarn() throws {
        let page = try parser.parse(text: "---\nsectons: []\n---\n", sourcePath: "/s/content/x.md", relativePath: "x.md")
        let warnings = PageParser.lookalikeWarnings(page)
        #expect(warnings.map(\.message) == ["'sectons' is not a front matter key Tessera knows; it is kept as a custom value"])
        #expect(warnings.first?.hint == "did you mean 'sections'?")
    }

    @Test func quotedScalarsStayText() throws {
        let node = try #require(try YAMLParser.parse("a: \"2026\"\nb: 2026\nc: 'true'\nd: 1.5\ne: 2026-11-01\nf: 16:9\n", file: "f"))
        #expect(node["f"]?.value == .string("16:9"), "not YAML 1.1's base-60 969")
        #expect(node["a"]?.value == .string("2026"))
        #expect(node["b"]?.value == .int(2026))
        #expect(node["c"]?.value == .string("true"))
        #expect(node["d"]?.value == .double(1.5))
        #expect(node["e"]?.value == .timestamp("2026-11-01"))
    }

    @Test func duplicateKeysAreErrors() {
        #expect(throws: TesseraError.self) { try YAMLParser.parse("a: 1\na: 2\n", file: "f") }
    }
}
