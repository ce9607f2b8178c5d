import Foundation
import Testing
@testable import TesseraClient

private func decode<T: Decodable>(_ type: T.Type, _ json: String) throws -> T {
    try JSONDecoder().decode(T.self, from: Data(json.utf8))
}

@Suite struct DecodingTests {
    @Test func pageWithSections() throws {
        let document = try decode(TesseraPageDocument.self, Fixtures.home)
        #expect(document.format == "tessera.page" && document.version == 5)
        let page = document.page
        #expect(page.id == "index" && page.json == "/index.json" && page.title == "Learning")
        #expect(page.minClientVersion == TesseraVersion(1, 2))
        #expect(page.dateValue == Date(timeIntervalSince1970: 1_793_491_200))
        #expect(page.image?.variants?.first?.width == 600 && page.image?.color == "#336699")
        #expect(page.translations == [TesseraTranslation(lang: "fr", url: "/fr/", json: "/fr/index.json")])
        #expect(page.pagination == nil && page.summary == nil && page.terms == nil)
        #expect(page.extra["newKey"]?["from"]?.string == "a newer generator")

        #expect(document.sections.map(\.id) == ["dashboard", "section-2"])
        let section = document.sections[0]
        #expect(section.layout == "grid")
        #expect(section.layoutOptions == ["columns": 2, "dense": true, "style": "cards"])
        #expect(section.layoutOptions["columns"]?.int == 2)
        #expect(section.header?.fields["text"]?.text == "This week")
        #expect(section.footer?.fields["text"]?.text == "Updated daily")
        #expect(section.footer?.fields["text"]?.html == "<p>Updated <em>daily</em></p>")
        #expect(section.more == TesseraMore(json: "/index/sections/dashboard/index.json", total: 12))
        #expect(section.items.count == 6)
        #expect(document.sections[1].layoutOptions.isEmpty && document.sections[1].more == nil)

        let stat = section.items[0]
        #expect(stat.type == "stat" && stat.version == 1)
        #expect(stat.fields["value"]?.text == "1,280" && stat.fields["value"]?.numericValue == 1280)
        #expect(stat.fields["change"]?.numericValue == 0.12)
        #expect(stat.computed["trend"]?.string == "up" && stat.computed["good"]?.bool == true)
        #expect(stat.action?.type == .navigate && stat.action?.json == "/stats/index.json")
        #expect(stat.accessibility?.label == "Learners this week: 1,280, up 12%")
        #expect(stat.fallback == nil)
    }

    /// An archive's section: its items, in order, are runs under each group's title.
    @Test func aGroupedSectionGivesItsItemsByGroup() throws {
        let item = { (n: Int) in #"{"id":"a/article-thumb-\#(n)","type":"article-thumb","version":1,"fields":{"title":{"text":"P\#(n)"}}}"# }
        let section = try decode(TesseraSection.self, #"{"id":"archive","layout":"archive","groups":[{"title":"2026","count":2},{"title":"2025","count":1}],"items":["# + (1...3).map(item).joined(separator: ",") + "]}")
        #expect(section.groups == [TesseraGroup(title: "2026", count: 2), TesseraGroup(title: "2025", count: 1)])
        #expect(section.groupedItems.map { "\($0.title): \($0.items.map { $0.fields["title"]?.text ?? "" })" } == [#"2026: ["P1", "P2"]"#, #"2025: ["P3"]"#])
        let plain = try decode(TesseraSection.self, #"{"id":"s","layout":"list","items":[]}"#)
        #expect(plain.groups.isEmpty && plain.groupedItems.isEmpty)
    }

    @Test func fallbacksDecodeFromObjectOrHide() throws {
        let items = try decode(TesseraPageDocument.self, Fixtures.home).sections[0].items
        guard case .component(let fallback)? = items[1].fallback else {
            Issue.record("expected a component fallback, got \(String(describing: items[1].fallback))")
            return
        }
        #expect(fallback.type == "text" && fallback.fields["text"]?.text == "See the leaderboard on the web")
        #expect(items[3].fallback == .hide)
        #expect(items[4].fallback == nil)
        guard case .component(let globe)? = items[5].fallback, case .component(let text)? = globe.fallback else {
            Issue.record("expected a two-level fallback chain")
            return
        }
        #expect(globe.type == "globe" && text.type == "text")
    }

    @Test func unknownActionTypeDecodesAndFallsBackToURL() throws {
        let leaderboard = try decode(TesseraPageDocument.self, Fixtures.home).sections[0].items[1]
        let action = try #require(leaderboard.action)
        #expect(action.type == TesseraActionType(rawValue: "open-sheet"))
        #expect(!action.type.isKnown && TesseraActionType.openExternal.rawValue == "open-external")
        #expect(leaderboard.destination == "/leaderboard/")
    }

    @Test func bodyBlocks() throws {
        let body = try #require(try decode(TesseraPageDocument.self, Fixtures.home).body)
        #expect(body.count == 4)
        #expect(body[0] == .markdown(html: "<p>Hello</p>"))
        guard case .component(let component) = body[1], case .code(let code) = body[2] else {
            Issue.record("unexpected blocks \(body)")
            return
        }
        #expect(component.fields["text"]?.text == "Hi")
        #expect(code.language == "swift" && code.languageName == "Swift" && code.markedLines == [1])
        #expect(code.tokens?.map(\.text).joined() == code.code)
        #expect(body[3] == .unknown(kind: "video"))
    }

    @Test func sectionIndexAndSiteDocuments() throws {
        let section = try decode(TesseraSectionDocument.self, Fixtures.sectionPage(1))
        #expect(section.page == "index" && section.section.items.map(\.id) == ["dashboard/stat-1"])
        #expect(section.pagination?.next == "/index/sections/dashboard/page/2/index.json")
        #expect(section.pagination?.items == 2 && section.pagination?.perPage == 1)

        let index = try decode(TesseraIndex.self, Fixtures.index)
        #expect(index.pages.map(\.id) == ["index", "blog/first-post"] && index.site == "/api/site.json")

        let site = try decode(TesseraSiteDocument.self, Fixtures.site)
        #expect(site.languages.first?.direction == "ltr")
        let blog = try #require(site.menu("main", language: "en").first)
        #expect(blog.json == "/blog/index.json" && blog.children.first?.external == true && blog.children.first?.json == nil)
    }

    @Test func wrongFormatIsRejectedClearly() {
        #expect {
            try decode(TesseraPageDocument.self, Fixtures.sectionPage(1))
        } throws: { error in
            guard case TesseraClientError.wrongFormat(let expected, let found) = error else { return false }
            return expected == "tessera.page" && found == "tessera.section"
        }
    }

    @Test func olderVersionsAreRejectedAndNewerOnesRead() throws {
        let old = Fixtures.notFound.replacingOccurrences(of: #""version":5"#, with: #""version":4"#)
        #expect {
            try decode(TesseraPageDocument.self, old)
        } throws: { error in
            guard case TesseraClientError.unsupportedFormatVersion(4, minimum: 5) = error else { return false }
            return true
        }
        let newer = Fixtures.notFound
            .replacingOccurrences(of: #""version":5"#, with: #""version":7,"signature":{"alg":"none"}"#)
            .replacingOccurrences(of: #""sections":[]"#, with: #""sections":[{"id":"s","layout":"stack","items":[],"grid":{"gap":4}}]"#)
        let document = try decode(TesseraPageDocument.self, newer)
        #expect(document.version == 7 && document.sections.first?.layout == "stack")
    }

    @Test func valueAccessorsAndRoundTrip() throws {
        let value: TesseraValue = ["a": [1, "two", true, nil], "n": 2.5, "t": ["text": "x", "value": 3]]
        #expect(value["a"]?[1]?.string == "two" && value["a"]?[2]?.bool == true && value["a"]?[3]?.isNull == true)
        #expect(value["a"]?[9] == nil && value["missing"] == nil && value["n"]?.int == nil && value["a"]?[0]?.int == 1)
        #expect(value["t"]?.text == "x" && value["t"]?.numericValue == 3 && value["n"]?.text == nil)
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(TesseraValue.self, from: data) == value)
        // `true` must stay a bool, not become 1.
        #expect(try decode(TesseraValue.self, "[true, 1]") == [true, 1])
    }

    @Test func nestedItemsFieldDecodesAsComponents() throws {
        let carousel = try decode(TesseraComponentData.self, #"""
        {"id":"c","type":"carousel","version":1,"fields":{"cards":[{"id":"c/1","type":"stat","version":1,"fields":{}}],"title":"T"}}
        """#)
        #expect(carousel.components(in: "cards").map(\.id) == ["c/1"])
        #expect(carousel.components(in: "title").isEmpty && carousel.components(in: "none").isEmpty)
    }

    @Test func decodingErrorsNameTheKeyPath() {
        let broken = Fixtures.notFound.replacingOccurrences(of: #""minClientVersion":"1""#, with: #""minClientVersion":"1.x""#)
        let error = TesseraClientError.decoding(url: URL(fileURLWithPath: "/404.json"), underlying: DecodingError.dataCorrupted(.init(codingPath: [], debugDescription: "x")))
        #expect(error.description.contains("/404.json"))
        do {
            _ = try decode(TesseraPageDocument.self, broken)
            Issue.record("a malformed minClientVersion must not decode")
        } catch {
            let described = TesseraClientError.decoding(url: URL(fileURLWithPath: "/404.json"), underlying: error).description
            #expect(described.contains("1.x") && described.contains(".page.minClientVersion"), "\(described)")
        }
    }
}
