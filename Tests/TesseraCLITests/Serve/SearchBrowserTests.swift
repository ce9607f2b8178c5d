import Foundation
import HummingbirdTesting
import Testing
@testable import TesseraKit
@testable import TesseraCLI

extension Serve {
    /// The default theme's search in a real browser: a site built with it, served by the preview
    /// server, searched in headless Chromium as a reader would (the "/" key, typing, results).
    @Suite(
        .enabled(if: HeadlessChromium.isAvailable, "chromium is not on PATH"),
        .serialized, .timeLimit(.minutes(2)))
    struct SearchBrowserTests {
        static let files: [String: String] = [
            "site.yml": "title: Harbour\nbaseURL: https://example.com/\ntheme: default\nlanguages: [en, fr]\nbuildDate: 2026-11-22T12:00:00Z\n",
            "content/index.md": "---\ntitle: Home\n---\nWelcome aboard.\n",
            "content/index.fr.md": "---\ntitle: Accueil\n---\nBienvenue à bord.\n",
            "content/blog/airships.md": "---\ntitle: Airships of the north\ndate: 2026-03-01\ntags: [sky, travel]\n---\nThe zeppelin crossed the fjord at dawn, high over the harbour.\n",
            "content/blog/boats.md": "---\ntitle: Boats\ndate: 2026-02-01\ntags: [sea, travel]\n---\nFerries and boats of the harbour.\n",
            "content/blog/chevaux.fr.md": "---\ntitle: À cheval\ndate: 2026-01-10\n---\nLe cheval traverse la plaine.\n",
            "content/search.md": "---\ntitle: Search\nlayout: search\nsearch: false\n---\n",
            "content/search.fr.md": "---\ntitle: Recherche\nlayout: search\nsearch: false\n---\n",
        ]

        /// Builds the site into the fixture's folder, serves it and opens `path` in a fresh browser.
        static func withPage(_ path: String, _ body: @Sendable (DevToolsPage) async throws -> Void) async throws {
            let site = try PreviewFixture()
            let source = site.root + "/site"
            for (relative, text) in files {
                let file = source + "/" + relative
                try FileManager.default.createDirectory(atPath: (file as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try text.write(toFile: file, atomically: true, encoding: .utf8)
            }
            var options = BuildOptions(sourceDirectory: source, outputDirectory: site.output, fallbackBuildDate: Date())
            options.force = true
            try SiteBuilder(options: options).build()
            try await site.test(.live) { client in
                let port = try #require(client.port)
                let browser = try HeadlessChromium()
                defer { browser.stop() }
                let page = try await DevToolsPage(in: browser)
                try await page.navigate(to: "http://localhost:\(port)\(path)")
                try await page.waitUntil("document.readyState", is: "complete")
                try await body(page)
            }
        }

        static let results = "JSON.stringify([...document.querySelectorAll('#search-dialog-results .search-result-title')].map(a => a.getAttribute('href')))"
        static let status = "document.querySelector('#search-dialog [data-search-status]').textContent"

        static let pageResults = "JSON.stringify([...document.querySelectorAll('#search-page-results .search-result-title')].map(a => a.getAttribute('href')))"

        /// Opens the dialog with the header's search button, as a click would.
        static func openDialog(_ page: DevToolsPage) async throws {
            _ = try await page.evaluate("document.querySelector('[data-search-open]').click(), 'clicked'")
            try await page.waitUntil("String(document.getElementById('search-dialog').open)", is: "true")
        }

        static func type(_ text: String, into page: DevToolsPage) async throws {
            _ = try await page.evaluate("(() => { const i = document.querySelector('#search-dialog input[type=search]'); i.value = \(String(reflecting: text)); i.dispatchEvent(new Event('input')); return 'typed'; })()")
        }

        @Test func theDialogOpensWithTheSlashKeyAndFindsAWordOfOnePageBody() async throws {
            try await Self.withPage("/") { page in
                // Nothing of the search is fetched until it is used.
                let fetched = "String(performance.getEntriesByType('resource').some(r => r.name.includes('/search/') || r.name.includes('/assets/search.')))"
                #expect(try await page.evaluate(fetched) == "false")
                _ = try await page.evaluate("document.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true })), 'pressed'")
                try await page.waitUntil("String(document.getElementById('search-dialog').open)", is: "true")
                #expect(try await page.evaluate("String(document.activeElement === document.querySelector('#search-dialog input[type=search]'))") == "true", "the field has the focus")
                try await Self.type("zeppelin ", into: page)
                try await page.waitUntil(Self.results, is: "[\"/blog/airships/\"]")
                try await page.waitUntil(Self.status, is: "1 result")
                // The excerpt marks the word.
                try await page.waitUntil("document.querySelector('#search-dialog-results mark')?.textContent ?? ''", is: "zeppelin")
                #expect(try await page.evaluate(fetched) == "true")
                // Arrow down moves to the first result.
                _ = try await page.evaluate("document.getElementById('search-dialog').dispatchEvent(new KeyboardEvent('keydown', { key: 'ArrowDown', bubbles: true })), 'moved'")
                #expect(try await page.evaluate("document.activeElement.getAttribute('href') ?? ''") == "/blog/airships/")

                try await Self.type("xylophone ", into: page)
                try await page.waitUntil(Self.status, is: "No results for “xylophone”")
                #expect(try await page.evaluate(Self.results) == "[]")
            }
        }

        @Test func aFrenchQueryWithAnInflectedFormFindsTheSingular() async throws {
            try await Self.withPage("/fr/") { page in
                try await Self.openDialog(page)
                try await Self.type("chevaux ", into: page)
                try await page.waitUntil(Self.results, is: "[\"/fr/blog/chevaux/\"]")
                try await page.waitUntil(Self.status, is: "1 résultat")
            }
        }

        @Test func theSearchPageSearchesItsQuery() async throws {
            try await Self.withPage("/search/?q=ferries") { page in
                try await page.waitUntil(Self.pageResults, is: "[\"/blog/boats/\"]")
            }
            // A tag in the address filters the results, and the tag's choice shows it.
            try await Self.withPage("/search/?q=harbour&tag=sky") { page in
                try await page.waitUntil(Self.pageResults, is: "[\"/blog/airships/\"]")
                #expect(try await page.evaluate("document.querySelector('[data-search-tag]').value") == "sky")
            }
        }

        /// The dialog's filters: a tag narrows the results, and another language's index is
        /// searched with its own words, its results marked as in that language.
        @Test func theDialogFiltersByTagAndSearchesAnotherLanguage() async throws {
            try await Self.withPage("/") { page in
                try await Self.openDialog(page)
                try await Self.type("harbour ", into: page)
                try await page.waitUntil(Self.results, is: "[\"/blog/boats/\",\"/blog/airships/\"]")
                // The choices: every tag, both languages (named in themselves); one section, so no section choice.
                let tags = "JSON.stringify([...document.querySelectorAll('#search-dialog [data-search-tag] option')].map(o => o.value))"
                try await page.waitUntil(tags, is: "[\"\",\"sea\",\"sky\",\"travel\"]")
                #expect(try await page.evaluate("JSON.stringify([...document.querySelectorAll('#search-dialog [data-search-languages] option')].map(o => o.value + ':' + o.textContent))") == "[\"en:English\",\"fr:Français\"]")
                #expect(try await page.evaluate("String(document.querySelector('#search-dialog [data-search-section]').hidden)") == "true")
                #expect(try await page.evaluate("String(document.querySelector('#search-dialog [data-search-filters]').hidden)") == "false")
                _ = try await page.evaluate("(() => { const t = document.querySelector('#search-dialog [data-search-tag]'); t.value = 'sea'; t.dispatchEvent(new Event('change')); return 'chosen'; })()")
                try await page.waitUntil(Self.results, is: "[\"/blog/boats/\"]")
                try await page.waitUntil(Self.status, is: "1 result")

                _ = try await page.evaluate("(() => { const l = document.querySelector('#search-dialog [data-search-languages]'); l.value = 'fr'; l.dispatchEvent(new Event('change')); return 'chosen'; })()")
                try await Self.type("chevaux ", into: page)
                try await page.waitUntil(Self.results, is: "[\"/fr/blog/chevaux/\"]")
                #expect(try await page.evaluate("document.querySelector('#search-dialog-results .search-result').lang") == "fr")
                // The French index has no tags: the tag choice goes, and no longer filters.
                #expect(try await page.evaluate("String(document.querySelector('#search-dialog [data-search-tag]').hidden)") == "true")
            }
        }
    }
}
