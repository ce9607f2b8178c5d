import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
@testable import TesseraKit

/// `sitemap.xml` and `robots.txt`, read back with an XML parser.
@Suite struct SitemapTests {
    /// Each `<url>`: its `loc`, `lastmod` and `hreflang → href` alternates.
    final class Reader: NSObject, XMLParserDelegate {
        struct Entry: Equatable { var loc = "", lastmod: String?, alternates: [String: String] = [:] }
        var entries: [Entry] = []
        var text = ""
        var failed: Error?

        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]) {
            text = ""
            if name == "url" { entries.append(Entry()) }
            if name == "xhtml:link" || name == "link", let lang = attributes["hreflang"], let href = attributes["href"] {
                entries[entries.count - 1].alternates[lang] = href
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            if name == "loc" { entries[entries.count - 1].loc = text }
            if name == "lastmod" { entries[entries.count - 1].lastmod = text }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred error: Error) { failed = error }

        static func read(_ xml: String) -> Reader {
            let reader = Reader()
            let parser = XMLParser(data: Data(xml.utf8))
            parser.delegate = reader
            #expect(parser.parse(), "sitemap.xml is well-formed XML: \(String(describing: reader.failed))")
            return reader
        }
    }

    @Test func listsEveryPageWithAbsoluteURLsAndItsTranslations() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbaseURL: https://example.com/docs/\nlanguages: [en, fr]\n",
            "content/about.md": "---\ntitle: About & more\ndate: 2026-11-01\n---\n",
            "content/about.fr.md": "---\ntitle: À propos\n---\n",
            "content/404.md": "---\ntitle: Not found\n---\n",
        ])
        try site.build()
        let entries = Reader.read(try site.read("sitemap.xml")).entries
        #expect(entries.map(\.loc) == ["https://example.com/docs/", "https://example.com/docs/about/", "https://example.com/docs/fr/about/"], "the 404 page is not listed")
        #expect(entries[1].lastmod == "2026-11-01T00:00:00Z")
        let alternates = ["en": "https://example.com/docs/about/", "fr": "https://example.com/docs/fr/about/"]
        #expect(entries[1].alternates == alternates)
        #expect(entries[2].alternates == alternates)
        #expect(entries[0].alternates.isEmpty, "a page without translations has no alternates")
        #expect(try site.read("robots.txt") == "User-agent: *\nAllow: /\n\nSitemap: https://example.com/docs/sitemap.xml\n")
    }

    @Test func aSitesOwnFilesReplaceTheGeneratedOnes() throws {
        let site = try TemporarySite(["static/robots.txt": "User-agent: *\nDisallow: /\n", "static/sitemap.xml": "<urlset/>"])
        try site.build()
        #expect(try site.read("robots.txt") == "User-agent: *\nDisallow: /\n")
        #expect(try site.read("sitemap.xml") == "<urlset/>")
    }
}
