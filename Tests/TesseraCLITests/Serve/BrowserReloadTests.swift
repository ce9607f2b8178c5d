import Foundation
import HummingbirdTesting
import Testing
import TesseraKit
@testable import TesseraCLI

extension Serve {
    /// The live-reload script in a real browser: headless Chromium, driven over the DevTools protocol,
    /// against the preview server running in-process.
    @Suite(
        .enabled(if: HeadlessChromium.isAvailable, "chromium is not on PATH"),
        .serialized, .timeLimit(.minutes(2)))
    struct BrowserReloadTests {
        static let page = """
            <!doctype html>
            <html><head><title>Preview</title><link rel="stylesheet" href="/style.css"></head>
            <body><h1>Hello</h1></body></html>
            """

        static let diagnostic = Diagnostic(
            .error, "unknown component '<b>hero</b>'", at: SourceLocation(file: "content/index.md", line: 4, column: 3),
            hint: "did you mean 'banner'?")

        /// One page through a whole editing session: a rebuild reloads it, a failed build covers it
        /// with the errors, a stylesheet change swaps the CSS and clears them.
        @Test func reloadsOnRebuildsAndShowsBuildErrors() async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page, "style.css": "h1 { color: rgb(255, 0, 0) }"])
            try await Self.withHomePage(of: site) { devTools in
                try await Self.waitUntilListening(devTools)

                // A rebuild: the page reloads, so what the old page set on `window` is gone.
                #expect(try await devTools.evaluate("window.beforeReload = 'still here'") == "still here")
                await site.hub.publish(.reload)
                try await devTools.waitUntil("String(window.beforeReload)", is: "undefined")
                try await Self.waitUntilListening(devTools)

                // A failed build: the overlay lists the diagnostic, as text, over the page.
                await site.hub.publish(.failed([Self.diagnostic]))
                let overlay = "document.getElementById('\(LiveReloadScript.overlayID)')"
                try await devTools.waitUntil("String(\(overlay) !== null)", is: "true")
                let text = try #require(try await devTools.evaluate("\(overlay).textContent"))
                #expect(text.contains("content/index.md:4:3"))
                #expect(text.contains("error: unknown component '<b>hero</b>'"))
                #expect(text.contains("hint: did you mean 'banner'?"))
                #expect(try await devTools.evaluate("String(\(overlay).querySelector('b') === null)") == "true")
                #expect(try await devTools.evaluate("getComputedStyle(\(overlay)).position") == "fixed")
                #expect(try await devTools.evaluate("getComputedStyle(\(overlay)).zIndex") == "2147483647")

                // A stylesheet change: no reload, the link gets a fresh URL, the overlay goes.
                try site.write("style.css", "h1 { color: rgb(0, 0, 255) }")
                #expect(try await devTools.evaluate("window.beforeCSS = 'kept'") == "kept")
                await site.hub.publish(.stylesheets)
                try await devTools.waitUntil("String(\(overlay) === null)", is: "true")
                try await devTools.waitUntil(
                    "getComputedStyle(document.querySelector('h1')).color", is: "rgb(0, 0, 255)")
                #expect(try await devTools.evaluate("String(window.beforeCSS)") == "kept")
                #expect(try await devTools.evaluate("document.querySelector('link').href")?.contains("?tessera=") == true)

                // A fingerprinted stylesheet: the page as built now links a new name; the link
                // takes it, still without a reload.
                try site.write("style.9f8e7d.css", "h1 { color: rgb(0, 128, 0) }")
                try site.write("index.html", Self.page.replacingOccurrences(of: "/style.css", with: "/style.9f8e7d.css"))
                await site.hub.publish(.stylesheets)
                try await devTools.waitUntil("getComputedStyle(document.querySelector('h1')).color", is: "rgb(0, 128, 0)")
                #expect(try await devTools.evaluate("document.querySelector('link').getAttribute('href')") == "/style.9f8e7d.css")
                #expect(try await devTools.evaluate("String(window.beforeCSS)") == "kept")
                try site.write("index.html", Self.page)
            }
            #expect(try site.contents(of: "index.html") == Self.page)
        }

        /// A page opened while the site is broken shows the errors at once.
        @Test func aPageOpenedDuringAFailedBuildShowsTheErrors() async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page, "style.css": ""])
            await site.hub.publish(.failed([Self.diagnostic]))
            try await Self.withHomePage(of: site) { devTools in
                try await devTools.waitUntil(
                    "String(document.querySelectorAll('#\(LiveReloadScript.overlayID) .tessera-diagnostic').length)", is: "1")
            }
        }

        /// Ten tabs of one site share one event stream (browsers allow six connections a host), and
        /// one rebuild reloads every one of them. Each tab counts its loads in localStorage, which
        /// the tab the test drives reads for all.
        @Test func tenTabsShareOneConnectionAndAllReloadAfterOneEdit() async throws {
            let page = """
                <!doctype html>
                <html><head><title>Tab</title></head><body><h1>Tab</h1>
                <script>
                const key = location.search;
                localStorage.setItem("loads" + key, String((Number(localStorage.getItem("loads" + key)) || 0) + 1));
                setInterval(() => {
                  const live = window.__tesseraLiveReload;
                  if (live) localStorage.setItem("state" + key, live.state);
                }, 50);
                </script></body></html>
                """
            let site = try PreviewFixture(files: ["index.html": page])
            try await site.test(.live) { client in
                let port = try #require(client.port)
                let browser = try HeadlessChromium()
                defer { browser.stop() }
                let driver = try await DevToolsPage(in: browser)
                try await driver.navigate(to: "http://localhost:\(port)/?tab=0")
                for tab in 1..<10 { try await driver.openTab("http://localhost:\(port)/?tab=\(tab)") }
                let all = { (what: String, value: String) in
                    "String([0,1,2,3,4,5,6,7,8,9].every(n => localStorage.getItem('\(what)?tab=' + n) === '\(value)'))"
                }
                try await driver.waitUntil(all("state", "connected"), is: "true", timeout: .seconds(60))
                #expect(await site.hub.subscriberCount == 1, "one event stream for all ten tabs")
                try await driver.waitUntil(all("loads", "1"), is: "true")
                await site.hub.publish(.reload)
                try await driver.waitUntil(all("loads", "2"), is: "true", timeout: .seconds(60))
            }
        }

        /// The overlay shows the source excerpt, closes with its button or Escape, and comes back
        /// with the next failed build.
        @Test func theErrorOverlayShowsTheSourceAndCanBeDismissed() async throws {
            let site = try PreviewFixture(files: ["index.html": Self.page, "style.css": ""])
            let source = site.root + "/content.md"
            try "---\ntitle: x\n---\n".write(toFile: source, atomically: true, encoding: .utf8)
            let located = Diagnostic(.error, "unknown component 'hero'", at: SourceLocation(file: source, line: 2, column: 8), hint: "did you mean 'banner'?")
            try await Self.withHomePage(of: site) { devTools in
                try await Self.waitUntilListening(devTools)
                let overlay = "document.getElementById('\(LiveReloadScript.overlayID)')"
                await site.hub.publish(.failed([located]))
                try await devTools.waitUntil("String(\(overlay) !== null)", is: "true")
                let excerpt = try await devTools.evaluate("\(overlay).querySelector('.tessera-excerpt').textContent")
                #expect(excerpt == "  2 | title: x\n    |        ^", "\(excerpt ?? "nil")")
                _ = try await devTools.evaluate("\(overlay).querySelector('.tessera-overlay-close').click(), 'x'")
                try await devTools.waitUntil("String(\(overlay) === null)", is: "true")
                await site.hub.publish(.failed([located]))
                try await devTools.waitUntil("String(\(overlay) !== null)", is: "true")
                _ = try await devTools.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', { key: 'Escape' })), 'x'")
                try await devTools.waitUntil("String(\(overlay) === null)", is: "true")
            }
        }

        /// Serves the site, opens its home page in a fresh headless Chromium and runs `body` on it;
        /// the browser is stopped whatever happens.
        static func withHomePage(of site: PreviewFixture, _ body: @Sendable (DevToolsPage) async throws -> Void) async throws {
            try await site.test(.live) { client in
                let port = try #require(client.port)
                let browser = try HeadlessChromium()
                defer { browser.stop() }
                let page = try await DevToolsPage(in: browser)
                try await page.navigate(to: "http://localhost:\(port)/")
                try await body(page)
            }
        }

        /// The script has loaded and the server has subscribed the page.
        static func waitUntilListening(_ devTools: DevToolsPage) async throws {
            try await devTools.waitUntil("String(window.__tesseraLiveReload && window.__tesseraLiveReload.state)", is: "connected")
        }
    }
}
