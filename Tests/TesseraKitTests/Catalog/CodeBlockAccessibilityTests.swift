import Foundation
import Testing
@testable import TesseraKit

/// axe-core 4.12 in headless Chromium (`Scripts/axe-check.py`) on every page of the example site
/// that shows a code block, light and dark: no violation at all (a block is focusable and named,
/// every token colour contrasts, the copy button is a named button).
@Suite struct CodeBlockAccessibilityTests {
    static let ready = Tools.available("chromium") && Tools.available("chromedriver") && Tools.hasPythonModule("selenium") && Tools.hasPythonModule("axe_playwright_python")

    @Test(.enabled(if: ready, "needs chromium, chromium-driver, and PyPI's selenium and axe-playwright-python"))
    func pagesWithCodeBlocksHaveNoAxeViolation() async throws {
        let output = ExampleSiteCrawlTests.output
        let pages = ExampleSiteCrawlTests.files(withSuffix: ".html").filter { page in
            (try? String(contentsOfFile: output + "/" + page, encoding: .utf8))?.contains("<pre class=\"highlight\"") == true
        }
        #expect(pages.count >= 15)
        let (status, report) = try await Tools.run("python3", [Repository.root + "/Scripts/axe-check.py", output] + pages)
        #expect(status == 0, "axe found violations:\n\(report)")
        #expect(report.contains("\"pages\": \(pages.count)"), "\(report)")
    }
}
