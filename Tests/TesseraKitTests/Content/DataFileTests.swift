import Foundation
import Testing
@testable import TesseraKit

/// `data/` files: `site.data` in templates, query sections over records, and pages generated
/// from records, through the real pipeline; errors point at the record's line.
@Suite struct DataFileTests {
    static let csv = """
        slug,title,progress,updated
        swift,Swift Basics,0.42,2026-11-19
        feeds,"Building Feeds, the course",0.8,2026-11-21
        tests,"Testing
        with Swift",1,
        """

    static func site(_ files: [String: String]) throws -> TemporarySite {
        try TemporarySite(["data/courses.csv": csv].merging(files) { _, new in new })
    }

    static let list = "---\ntitle: Courses\nsections:\n  - query: { data: courses, sort: title, component: course, fields: { link: \"/courses/{slug}/\" } }\n---\n"

    @Test func csvRecordsKeepTheirLineThroughQuotedLineBreaks() throws {
        let node = try CSVRecords.parse(Self.csv, file: "data/courses.csv")
        let records = try #require(node.list)
        #expect(records.map(\.location.line) == [2, 3, 4])
        #expect(records[1]["title"]?.scalarText == "Building Feeds, the course")
        #expect(records[2]["title"]?.scalarText == "Testing\nwith Swift")
        #expect(records[0]["progress"]?.value == .double(0.42) && records[2]["progress"]?.value == .int(1))
        #expect(records[2]["updated"]?.isNull == true, "an empty cell is null")
        #expect(records[1]["title"]?.location.column == 2, "the column's place")
    }

    @Test func templatesReadSiteData() throws {
        let site = try Self.site([
            "data/team/people.yml": "- { name: Ada, role: Author }\n- { name: Grace, role: Editor }\n",
            "data/settings.json": "{\"banner\": \"Hello from JSON\"}",
            "themes/mini/layouts/page.mustache": "<p>{{site.data.settings.banner}}</p><ul>{{#site.data.team.people}}<li>{{name}}: {{role}}</li>{{/site.data.team.people}}</ul>{{#site.data.courses}}<i>{{title}}</i>{{/site.data.courses}}",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<p>Hello from JSON</p><ul><li>Ada: Author</li><li>Grace: Editor</li></ul>"))
        #expect(html.contains("<i>Swift Basics</i><i>Building Feeds, the course</i>"))
    }

    @Test func aQuerySectionListsRecordsAsComponents() throws {
        let site = try Self.site([
            "content/courses/index.md": Self.list,
            "content/courses/swift.md": "---\ntitle: S\n---\n", "content/courses/feeds.md": "---\ntitle: F\n---\n", "content/courses/tests.md": "---\ntitle: T\n---\n",
        ])
        try site.build()
        let html = try site.read("courses/index.html")
        let order = ["Building Feeds, the course", "Swift Basics", "Testing\nwith Swift"].map { html.range(of: "<h3>\($0)</h3>")?.lowerBound }
        #expect(order.allSatisfy { $0 != nil } && order == order.sorted { $0! < $1! }, "sorted by title")
        #expect(html.contains("<progress value=\"0.42\">42%</progress>"))
        #expect(html.contains("<a href=\"/courses/swift/\">go</a>"), "a link made from the record")
        let json = try site.read("courses/index.json")
        #expect(json.contains("\"type\":\"course\""))
    }

    @Test func aBadRecordIsAnErrorAtItsLineInTheDataFile() throws {
        let site = try Self.site([
            "data/courses.csv": "slug,title,progress\nswift,Swift,0.4\nfeeds,Feeds,lots\n",
            "content/courses/index.md": "---\ntitle: Courses\nsections:\n  - query: { data: courses, component: course }\n---\n",
        ])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.contains { $0.hasPrefix("data/courses.csv:3:3: error:") && $0.contains("listed by the query of content/courses/index.md, line 4") }, "\(diagnostics)")
    }

    @Test func mistakesInDataQueriesAreLocated() throws {
        let unknown = try Self.site(["content/c.md": "---\ntitle: C\nsections:\n  - query: { data: course, component: course }\n---\n"])
        #expect(unknown.diagnostics().contains { $0.hasPrefix("content/c.md:4:") && $0.contains("no data file 'course' in data/") && $0.contains("did you mean 'courses'?") })
        let mixed = try Self.site(["content/c.md": "---\ntitle: C\nsections:\n  - query: { data: courses, under: blog, component: course }\n---\n"])
        #expect(mixed.diagnostics().contains { $0.hasPrefix("content/c.md:4:") && $0.contains("'under' filters pages") })
        let notData = try Self.site(["data/notes.txt": "hello"])
        #expect(notData.diagnostics().contains { $0.hasPrefix("data/notes.txt") && $0.contains("is not a data file") })
        let ragged = try Self.site(["data/courses.csv": "slug,title\nswift,Swift,extra\n"])
        #expect(ragged.diagnostics().contains { $0.hasPrefix("data/courses.csv:2:1:") && $0.contains("3 values for 2 columns") })
    }

    /// `where:` keeps the records (or pages) whose value of each key is one of the given
    /// values; a generated page filters with its own record's value, as the example site's
    /// course pages list their lessons.
    @Test func whereKeepsTheRecordsAndPagesWithTheGivenValues() throws {
        let lessons = "course,number,title\nswift,1,Values\nfeeds,1,Sections\nswift,2,Optionals\ntests,1,First test\n"
        let site = try Self.site([
            "data/lessons.csv": lessons,
            "content/courses/all.yml": """
                generate:
                  data: courses
                  path: "courses/{slug}"
                  page:
                    title: "{title}"
                    sections:
                      - query: { data: lessons, where: { course: "{slug}" }, component: heading }

                """,
            "content/two.md": "---\ntitle: Two\nsections:\n  - query: { data: lessons, where: { course: [feeds, tests], number: 1 }, component: heading }\n---\n",
            "content/blog/a.md": "---\ntitle: A\ndate: 2026-11-01\nlevel: beginner\ntags: [swift]\n---\n",
            "content/blog/b.md": "---\ntitle: B\ndate: 2026-11-02\nlevel: advanced\ntags: [swift]\n---\n",
            "content/blog/c.md": "---\ntitle: C\ndate: 2026-11-03\n---\n",
            "content/easy.md": "---\ntitle: Easy\nsections:\n  - query: { under: blog, where: { level: beginner }, component: heading }\n---\n",
        ])
        try site.build()
        let swift = try site.read("courses/swift/index.html")
        #expect(swift.contains("Values") && swift.contains("Optionals") && !swift.contains("Sections") && !swift.contains("First test"), "\(swift)")
        let feeds = try site.read("courses/feeds/index.html")
        #expect(feeds.contains("Sections") && !feeds.contains("Values"))
        let two = try site.read("two/index.html")
        #expect(two.contains("Sections") && two.contains("First test") && !two.contains("Values"), "a list of values is any of them; keys are all required")
        let easy = try site.read("easy/index.html")
        #expect(easy.contains(">A<") && !easy.contains(">B<") && !easy.contains(">C<"), "pages without the key are left out: \(easy)")

        let bad = try Self.site(["content/c.md": "---\ntitle: C\nsections:\n  - query: { data: courses, where: swift, component: course }\n---\n"])
        #expect(bad.diagnostics().contains { $0.hasPrefix("content/c.md:4:") && $0.contains("'where' must map keys to the values an item must have") }, "\(bad.diagnostics())")
        let nested = try Self.site(["content/c.md": "---\ntitle: C\nsections:\n  - query: { data: courses, where: { slug: { a: b } }, component: course }\n---\n"])
        #expect(nested.diagnostics().contains { $0.hasPrefix("content/c.md:4:") && $0.contains("'where' must give 'slug' a value or a list of values") }, "\(nested.diagnostics())")
    }

    static let generator = """
        generate:
          data: courses
          path: "courses/{slug}"
          page:
            title: "{title}"
            components:
              - { component: course, title: "Course: {title}", progress: "{progress}", updated: "{updated}" }

        """

    @Test func aGeneratorMakesAPagePerRecord() throws {
        let site = try Self.site(["content/courses/all.yml": Self.generator])
        try site.build()
        #expect(try site.read("courses/swift/index.html").contains("<title>Swift Basics</title>"))
        #expect(try site.read("courses/feeds/index.html").contains("<h3>Course: Building Feeds, the course</h3>"))
        #expect(try site.read("courses/tests/index.html").contains("<progress value=\"1\">100%</progress>"))
        #expect(!site.exists("courses/all/index.html"), "the generator file is not a page")
        #expect(try site.read("courses/swift/index.json").contains("\"id\":\"courses/swift\""))
    }

    @Test func generatorMistakesAreLocatedInTheGeneratorOrTheDataFile() throws {
        let typo = try Self.site(["content/courses/all.yml": Self.generator.replacingOccurrences(of: "\"{title}\"\n", with: "\"{titel}\"\n")])
        #expect(typo.diagnostics().contains { $0.hasPrefix("content/courses/all.yml:5:") && $0.contains("no record of data/courses has 'titel'") && $0.contains("did you mean 'title'?") })

        let badValue = try Self.site([
            "data/courses.csv": "slug,title,progress,updated\nswift,Swift,0.4,2026-11-19\nfeeds,Feeds,lots,2026-11-19\n",
            "content/courses/all.yml": Self.generator,
        ])
        #expect(badValue.diagnostics().contains { $0.hasPrefix("data/courses.csv:3:3:") }, "\(badValue.diagnostics())")

        let badDate = try Self.site([
            "data/courses.csv": "slug,title,progress,updated\nswift,Swift,0.4,2026-02-29\n",
            "content/courses/all.yml": Self.generator,
        ])
        #expect(badDate.diagnostics() == ["data/courses.csv:2:4: error: '2026-02-29' in field 'updated' is not a date: February 2026 has 28 days\n    hint: write a day from 01 to 28, as in 2026-02-28"])

        let badPath = try Self.site(["data/courses.csv": "slug,title,progress,updated\n../up,Up,0.1,\n", "content/courses/all.yml": Self.generator])
        #expect(badPath.diagnostics().contains { $0.hasPrefix("data/courses.csv:2:") && $0.contains("is not a path of URL segments") })

        let extra = try Self.site(["content/courses/all.yml": Self.generator + "title: Stray\n"])
        #expect(extra.diagnostics().contains { $0.hasPrefix("content/courses/all.yml:") && $0.contains("holds only 'generate:'") })

        let clash = try Self.site(["content/courses/all.yml": Self.generator, "content/courses/swift.md": "---\ntitle: Mine\n---\n"])
        #expect(clash.diagnostics().contains { $0.contains("two pages have the URL /courses/swift/") })
    }

    @Test func theExampleSiteGeneratesItsCourseCatalogue() throws {
        let output = ExampleSiteCrawlTests.output
        let rows = try String(contentsOfFile: Repository.root + "/data/courses.csv", encoding: .utf8).split(separator: "\n").count - 1
        try #require(rows >= 5)
        let list = try String(contentsOfFile: output + "/courses/index.html", encoding: .utf8)
        #expect(list.components(separatedBy: "card--course-progress").count - 1 == rows)
        let page = try String(contentsOfFile: output + "/courses/swift-basics/index.html", encoding: .utf8)
        #expect(page.contains("Swift Basics") && page.contains("Ada Lovelace"))
    }
}
