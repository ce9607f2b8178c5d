import Foundation

/// `sitemap.xml` (every public page, with its translations as `hreflang` alternates) and a
/// `robots.txt` that points at it. A site's own `static/sitemap.xml` or `static/robots.txt`
/// replaces the generated one.
enum Sitemap {
    static let path = "sitemap.xml"
    static let robotsPath = "robots.txt"

    /// What the sitemap is made of, for the preview's cache.
    struct Inputs: Equatable, Sendable {
        struct Entry: Equatable, Sendable {
            var url: String, date: Date?, translationKey: String, language: String
        }
        var entries: [Entry]
        var origin: String, basePath: String, languages: [String]

        init(pages: [Page], configuration: SiteConfiguration) {
            entries = pages.map { Entry(url: $0.url, date: $0.date, translationKey: $0.translationKey, language: $0.language) }
            origin = configuration.origin
            basePath = configuration.basePath
            languages = configuration.languages.map(\.code)
        }
    }

    /// Error pages (`404.html`) are not pages to index.
    static func isListed(_ page: Page) -> Bool {
        !page.url.hasSuffix(".html")
    }

    static func xml(pages: [Page], configuration: SiteConfiguration) -> String {
        let origin = configuration.origin, basePath = configuration.basePath
        func absolute(_ url: String) -> String { origin + basePath + url.dropFirst() }
        let listed = pages.filter(isListed)
        // URLs apart, sorted by position: sorting the pages themselves retained each at every move.
        let urls = listed.map(\.url)
        let keys = listed.map(\.translationKey)
        // Translations are grouped only for keys that more than one page has.
        var counts: [String: Int] = [:]
        counts.reserveCapacity(keys.count)
        for key in keys { counts[key, default: 0] += 1 }
        var byKey: [String: [Int]] = [:]
        for (position, key) in keys.enumerated() where counts[key, default: 0] > 1 { byKey[key, default: []].append(position) }
        let order = Dictionary(uniqueKeysWithValues: configuration.languages.enumerated().map { ($1.code, $0) })
        var xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">

            """
        xml.reserveCapacity(listed.count * (origin.utf8.count + 80))
        for position in urls.indices.sorted(by: { urls[$0] < urls[$1] }) {
            xml += "  <url>\n    <loc>"
            xml += escape(absolute(urls[position]))
            xml += "</loc>\n"
            if let date = listed[position].date {
                xml += "    <lastmod>"
                xml += FeedWriter.rfc3339(date)
                xml += "</lastmod>\n"
            }
            if let group = byKey[keys[position]] {
                let versions = group.map { (language: listed[$0].language, url: urls[$0]) }
                    .sorted { (order[$0.language] ?? 0, $0.url) < (order[$1.language] ?? 0, $1.url) }
                for version in versions {
                    xml += "    <xhtml:link rel=\"alternate\" hreflang=\"\(escape(version.language))\" href=\"\(escape(absolute(version.url)))\"/>\n"
                }
            }
            xml += "  </url>\n"
        }
        return xml + "</urlset>\n"
    }

    static func robots(configuration: SiteConfiguration) -> String {
        "User-agent: *\nAllow: /\n\nSitemap: \(configuration.origin + configuration.basePath + path)\n"
    }

    private static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x26 || $0 == 0x3C || $0 == 0x3E || $0 == 0x22 || $0 == 0x27 }) else { return text }
        return text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
            .replacingOccurrences(of: "'", with: "&apos;")
    }
}

extension Step where Product == RenderedSite {
    public static var writeSitemap: Step { Step("sitemap") { site, context in
        guard !context.diagnostics.hasErrors else { return }
        let own = Set(site.staticFiles.map(\.path))
        // The sitemap is made of every page's URL, date and translations: front matter and file
        // names, which the build cache checks. Its configuration is part of the cache's environment.
        if !own.contains(Sitemap.path), !context.reuse.keep(Sitemap.path) {
            let pages = site.pages, configuration = site.configuration
            let make = { Data(Sitemap.xml(pages: pages, configuration: configuration).utf8) }
            let xml = context.reuse.derived(Sitemap.path, key: Sitemap.Inputs(pages: pages, configuration: configuration), make)
            site.outputs.append(context.reuse.stream(OutputFile(path: Sitemap.path, contents: .data(xml))))
        }
        if !own.contains(Sitemap.robotsPath) {
            site.outputs.append(.text(Sitemap.robotsPath, Sitemap.robots(configuration: site.configuration)))
        }
    } }
}
