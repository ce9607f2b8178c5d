import Foundation
import Testing
@testable import TesseraKit

/// `paginate:` on a query section, through the real pipeline.
@Suite struct PaginationTests {
    static func site(posts: Int, paginate: String = "2", extra: [String: String] = [:]) throws -> TemporarySite {
        var files: [String: String] = [
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/docs/\nbuildDate: 2026-11-22T12:00:00Z\n",
            "themes/mini/components/thumb.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n  link: { type: link }\n",
            "themes/mini/components/thumb.mustache": "<a class=\"thumb\" href=\"{{link}}\">{{title}}</a>",
            "themes/mini/layouts/page.mustache": """
                <head><link rel="canonical" href="{{page.permalink}}">{{#page.pagination}}{{#previous}}<link rel="prev" href="{{previous}}">{{/previous}}{{#next}}<link rel="next" href="{{next}}">{{/next}}{{/page.pagination}}</head>
                <main>{{{sections}}}</main>
                {{#page.pagination}}<nav data-current="{{current}}" data-total="{{total}}" data-first="{{first}}" data-last="{{last}}">{{#pages}}<a href="{{url}}"{{#current}} aria-current="page"{{/current}}>{{number}}</a>{{/pages}}</nav>{{/page.pagination}}
                """,
            "content/blog/index.md": "---\ntitle: Blog\nsections:\n  - query: { under: blog, sort: date desc, paginate: \(paginate), component: thumb }\n---\n",
        ]
        for day in stride(from: 1, through: posts, by: 1) {
            files["content/blog/post-\(day).md"] = "---\ntitle: Post \(day)\ndate: 2026-01-\(String(format: "%02d", day))\n---\n"
        }
        return try TemporarySite(files.merging(extra) { _, new in new })
    }

    static func titles(_ html: String) -> [String] {
        html.components(separatedBy: "class=\"thumb\"").dropFirst().compactMap { $0.split(separator: ">", maxSplits: 1).last?.split(separator: "<").first.map(String.init) }
    }

    @Test func aListIsSplitIntoNumberedPagesWithLinksBetweenThem() throws {
        let site = try Self.site(posts: 5)
        try site.build()
        #expect(Self.titles(try site.read("blog/index.html")) == ["Post 5", "Post 4"])
        #expect(Self.titles(try site.read("blog/page/2/index.html")) == ["Post 3", "Post 2"])
        #expect(Self.titles(try site.read("blog/page/3/index.html")) == ["Post 1"])
        #expect(!site.exists("blog/page/4/index.html"))

        let first = try site.read("blog/index.html")
        #expect(first.contains("<link rel=\"canonical\" href=\"https://example.com/docs/blog/\">"))
        #expect(!first.contains("rel=\"prev\""))
        #expect(first.contains("<link rel=\"next\" href=\"/docs/blog/page/2/\">"))
        #expect(first.contains("data-current=\"1\" data-total=\"3\" data-first=\"/docs/blog/\" data-last=\"/docs/blog/page/3/\""))
        #expect(first.contains("<a href=\"/docs/blog/\" aria-current=\"page\">1</a><a href=\"/docs/blog/page/2/\">2</a><a href=\"/docs/blog/page/3/\">3</a>"))

        let middle = try site.read("blog/page/2/index.html")
        #expect(middle.contains("<link rel=\"canonical\" href=\"https://example.com/docs/blog/page/2/\">"), "each page is its own canonical")
        #expect(middle.contains("<link rel=\"prev\" href=\"/docs/blog/\">") && middle.contains("<link rel=\"next\" href=\"/docs/blog/page/3/\">"))
        #expect(middle.contains("<a href=\"/docs/blog/page/2/\" aria-current=\"page\">2</a>"))

        let last = try site.read("blog/page/3/index.html")
        #expect(!last.contains("rel=\"next\"") && last.contains("<link rel=\"prev\" href=\"/docs/blog/page/2/\">"))
    }

    @Test func thePagerShowsAWindowWithGaps() {
        #expect(PageMapper.pageWindow(current: 1, total: 1) == [1])
        #expect(PageMapper.pageWindow(current: 1, total: 3) == [1, 2, 3])
        #expect(PageMapper.pageWindow(current: 6, total: 20) == [1, nil, 4, 5, 6, 7, 8, nil, 20])
        #expect(PageMapper.pageWindow(current: 1, total: 20) == [1, 2, 3, nil, 20])
        #expect(PageMapper.pageWindow(current: 20, total: 20) == [1, nil, 18, 19, 20])
        // A gap of one page shows the page: 1 2 3 4 5 6, not 1 … 3 4 5 6.
        #expect(PageMapper.pageWindow(current: 4, total: 6) == [1, 2, 3, 4, 5, 6])
        #expect(PageMapper.pageWindow(current: 500, total: 1_000).count == 9)
    }

    @Test func aLongListsPagesLinkAWindowOfPages() throws {
        let site = try Self.site(posts: 30, paginate: "1")
        try site.build()
        let middle = try site.read("blog/page/15/index.html")
        let pager = middle.components(separatedBy: "<nav data-current").last ?? ""
        #expect(pager.components(separatedBy: "<a href=\"/").count - 1 == 7, "1, 13–17 and 30")
        #expect(pager.components(separatedBy: "<a href=\"\"").count - 1 == 2, "two gaps")
    }

    @Test func pageOneRedirectsToTheList() throws {
        let site = try Self.site(posts: 3)
        try site.build()
        let redirect = try site.read("blog/page/1/index.html")
        #expect(redirect.contains("<meta http-equiv=\"refresh\" content=\"0; url=/docs/blog/\">"))
        #expect(redirect.contains("<link rel=\"canonical\" href=\"https://example.com/docs/blog/\">"))
    }

    @Test func anEmptyOrShortListIsOnePage() throws {
        for posts in [0, 2] {
            let site = try Self.site(posts: posts)
            try site.build()
            #expect(try site.read("blog/index.html").contains("data-total=\"1\""))
            #expect(!site.exists("blog/page/2/index.html"))
        }
    }

    @Test func laterPagesAreInTheSitemapAndAnExactMultipleMakesNoEmptyPage() throws {
        let site = try Self.site(posts: 4)
        try site.build()
        #expect(site.exists("blog/page/2/index.html") && !site.exists("blog/page/3/index.html"))
        #expect(try site.read("sitemap.xml").contains("<loc>https://example.com/docs/blog/page/2/</loc>"))
    }

    @Test func badPaginationIsALocatedError() throws {
        let zero = try Self.site(posts: 1, paginate: "0")
        #expect(zero.diagnostics().contains { $0.contains("content/blog/index.md:4:") && $0.contains("'paginate' must be a positive whole number") })

        let two = try Self.site(posts: 1, extra: [
            "content/blog/index.md": "---\ntitle: Blog\nsections:\n  - query: { under: blog, paginate: 2, component: thumb }\n  - query: { under: blog, paginate: 3, component: thumb }\n---\n",
        ])
        #expect(two.diagnostics().contains { $0.contains("content/blog/index.md:5:") && $0.contains("only one section of a page can be paginated") })

        let file = try Self.site(posts: 1, extra: [
            "content/404.md": "---\ntitle: Not found\nsections:\n  - query: { under: blog, paginate: 2, component: thumb }\n---\n",
        ])
        let fileDiagnostics = file.diagnostics()
        #expect(fileDiagnostics.contains { $0.contains("content/404.md:4:") && $0.contains("needs a folder URL") }, "\(fileDiagnostics)")
    }

    @Test func aNumberedPageThatWouldReplaceAPageIsAnError() throws {
        let site = try Self.site(posts: 3, extra: ["content/blog/page/2.md": "---\ntitle: Mine\n---\n"])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.contains { $0.contains("content/blog/index.md:4:") && $0.contains("page 2 of this list would be at /blog/page/2/") }, "\(diagnostics)")
    }

    @Test func aLimitCapsTheWholeList() throws {
        let site = try Self.site(posts: 7, extra: [
            "content/blog/index.md": "---\ntitle: Blog\nsections:\n  - query: { under: blog, sort: date desc, limit: 5, paginate: 2, component: thumb }\n---\n",
        ])
        try site.build()
        #expect(Self.titles(try site.read("blog/page/3/index.html")) == ["Post 3"])
        #expect(!site.exists("blog/page/4/index.html"))
    }
}
