import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// The example site (content/ + themes/default) through the real pipeline: it builds, its home
/// page is a feed of most of the catalog, and the gallery shows every component.
@Suite struct CatalogSiteTests {
    @Test func exampleSiteBuildsWithoutWarnings() throws {
        let state = try ExampleSite.built()
        #expect(state.diagnostics.diagnostics.isEmpty, "\(state.diagnostics.diagnostics.map(\.message))")
        for path in ["index.html", "components/index.html", "activity/index.html", "billing/index.html", "guides/index.html", "guides/feeds/index.html"] {
            #expect(state.outputs.contains { $0.path == path }, "\(path) is built")
        }
    }

    @Test func homePageUsesMostOfTheCatalog() throws {
        // The home page's view data, read by a step over the mapped site (views are let go
        // once their page is rendered).
        let captured = Mutex<PageView?>(nil)
        var pipeline = BuildPipeline.standard
        pipeline.map.steps.append(Step("capture the home page") { mapped, _ in
            captured.withLock { $0 = mapped.views.first { $0.page.url == "/" } }
        })
        _ = try ExampleSite.build(pipeline: pipeline)
        let home = try #require(captured.withLock { $0 })
        func codes(_ component: ComponentView) -> [String] {
            [component.code] + component.data.pairs.flatMap { _, value -> [String] in
                if case .components(let children) = value { return children.flatMap(codes) }
                return []
            }
        }
        let used = Set(home.sections.flatMap { section in
            ([section.header, section.footer].compactMap { $0 } + section.items).flatMap(codes)
        })
        let catalog = Set(try CatalogFixture().themeCodes)
        #expect(used.isSubset(of: catalog))
        #expect(Double(used.count) >= 0.75 * Double(catalog.count), "the home page uses \(used.count) of \(catalog.count): \(catalog.subtracting(used).sorted()) unused")
    }

    @Test func galleryShowsEveryComponentWithItsDescription() throws {
        let state = try ExampleSite.built()
        let gallery = try ExampleSite.html("components/index.html", in: state)
        let fixture = try CatalogFixture()
        for code in fixture.themeCodes {
            #expect(gallery.contains("<li class=\"gallery-item\" id=\"component-\(code)\">"), "\(code) is in the gallery")
            #expect(gallery.contains("href=\"#component-\(code)\""), "\(code) is in the gallery's index")
        }
        #expect(gallery.contains("<code>payment-transaction</code>"))
    }

    @Test func segmentedMenuMarksTheCurrentPage() throws {
        let state = try ExampleSite.built()
        for (path, current) in [("index.html", "Overview"), ("activity/index.html", "Activity"), ("billing/index.html", "Billing")] {
            let page = try ExampleSite.html(path, in: state)
            // The segmented menu only: the main menu marks its own current entry.
            let html = String(page[try #require(page.range(of: "<nav class=\"segmented\"")).lowerBound...]).components(separatedBy: "</nav>")[0]
            #expect(html.components(separatedBy: "aria-current=\"page\"").count == 2, "one current segment on \(path)")
            #expect(html.contains("aria-current=\"page\">\(current)</a>"), "\(current) is current on \(path)")
        }
    }

    @Test func pagesMakeNoExternalRequests() throws {
        let state = try ExampleSite.built()
        for output in state.outputs where output.path.hasSuffix(".html") {
            let html = try ExampleSite.html(output.path, in: state)
            for attribute in ["src=\"http", "src=\"//", "href=\"//"] {
                #expect(!html.contains(attribute), "\(output.path) loads \(attribute)…")
            }
            #expect(!html.contains("<link rel=\"stylesheet\" href=\"http"), "\(output.path) loads an external stylesheet")
        }
        let css = try String(contentsOfFile: CatalogFixture.themeDirectory + "/static/assets/tessera.css", encoding: .utf8)
        #expect(!css.contains("url(http") && !css.contains("url(\"http") && !css.contains("@import"), "the theme's CSS fetches nothing")
    }
}
