import Foundation
import Testing
@testable import TesseraKit

/// axe-core 4.12 in headless Chromium (`Scripts/axe-check.py`) on one page of every type the
/// example site has, on a phone (390 px: the tab bar, the icon-only search) and a desktop
/// (1280 px), light and dark: no violation at all.
@Suite struct ThemeAxeTests {
    static let pageTypes = [
        "index.html", "blog/index.html", "blog/page/2/index.html", "blog/accessible-cards/index.html", "tags/index.html",
        "tags/accessibility/index.html", "courses/index.html", "courses/swift-basics/index.html", "billing/index.html",
        "activity/index.html", "components/index.html", "search/index.html", "guides/feeds/index.html", "fr/index.html",
        "de/index.html", "ar/index.html", "404.html", "archive/index.html", "courses/swift-basics/control-flow/index.html",
    ]

    @Test(.enabled(if: CodeBlockAccessibilityTests.ready, "needs chromium, chromium-driver, and PyPI's selenium and axe-playwright-python"))
    func everyPageTypeHasNoAxeViolationOnAPhoneAndADesktopLightAndDark() async throws {
        let output = ExampleSiteCrawlTests.output
        for page in Self.pageTypes { #expect(FileManager.default.fileExists(atPath: output + "/" + page), "\(page) is built") }
        let (status, report) = try await Tools.run("env", ["AXE_WIDTHS=390,1280", "python3", Repository.root + "/Scripts/axe-check.py", output] + Self.pageTypes)
        #expect(status == 0, "axe found violations:\n\(report)")
        #expect(report.contains("\"pages\": \(Self.pageTypes.count)"), "\(report)")
    }

    /// The phone reader's checks (`Scripts/layout-check.py`): no page wider than a 320 or 390 px
    /// screen, and no keyboard focus under the fixed tab bar while tabbing through each page.
    @Test(.enabled(if: Tools.available("chromium") && Tools.available("chromedriver") && Tools.hasPythonModule("selenium"), "needs chromium, chromium-driver and PyPI's selenium"))
    func noPageOverflowsAPhoneAndNoFocusHidesUnderTheTabBar() async throws {
        let (status, report) = try await Tools.run("python3", [Repository.root + "/Scripts/layout-check.py", ExampleSiteCrawlTests.output] + Self.pageTypes)
        #expect(status == 0, "\(report)")
        let stops = report.components(separatedBy: "\"focusStops\": ").dropFirst().first.flatMap { Int($0.prefix { $0.isNumber }) } ?? 0
        #expect(stops > 200, "the check tabbed through the pages: \(stops) stops")
    }
}
