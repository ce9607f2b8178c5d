import Foundation

/// A syndication format a page can ask for with `feeds: [rss, atom, json]`.
public enum FeedFormat: String, Sendable, CaseIterable {
    case rss, atom, json

    /// `feeds: [rss, atom, json]` (or one name).
    static func parse(_ node: ContentNode) throws -> [FeedFormat] {
        let names = node.list?.compactMap(\.scalarText) ?? node.scalarText.map { [$0] } ?? []
        guard !names.isEmpty, names.count == (node.list?.count ?? 1) else {
            throw TesseraError("'feeds' must be a list of feed formats, found \(node.kindDescription)", at: node.location, hint: "write `feeds: [rss, atom, json]`")
        }
        return try names.map { name in
            guard let format = FeedFormat(rawValue: name) else {
                throw TesseraError(
                    "unknown feed format '\(name)'", at: node.location,
                    hint: Suggestions.didYouMean(name, in: FeedFormat.allCases.map(\.rawValue)) ?? "the formats are rss, atom and json")
            }
            return format
        }
    }

    /// Written beside the page: `/blog/index.xml`, `/blog/atom.xml`, `/blog/feed.json`.
    public var fileName: String {
        switch self {
        case .rss: "index.xml"
        case .atom: "atom.xml"
        case .json: "feed.json"
        }
    }

    public var mediaType: String {
        switch self {
        case .rss: "application/rss+xml"
        case .atom: "application/atom+xml"
        case .json: "application/feed+json"
        }
    }

    public var title: String {
        switch self {
        case .rss: "RSS"
        case .atom: "Atom"
        case .json: "JSON Feed"
        }
    }
}

/// RSS 2.0, Atom 1.0 and JSON Feed 1.1 documents of the pages a page lists through its query
/// sections, with absolute URLs from `baseURL`.
struct FeedWriter {
    struct Entry {
        var page: Page
        var url: String
        /// Escaped HTML: the full body, or the summary as text.
        var html: String?
    }

    var title: String
    var pageURL: String
    var language: String
    var updated: Date
    var entries: [Entry]
    /// The channel's description: the list page's summary, else its title.
    var description: String?
    /// Who the feed is from: the site.
    var author: String?

    /// `Sun, 01 Nov 2026 09:30:00 +0000` (RSS), by arithmetic: a formatter's calendar is Julian
    /// before 1582, and RFC 5322 wants four-digit years.
    static func rfc822(_ date: Date) -> String {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= Double(CivilTime.first), seconds < Double(CivilTime.end) else {
            // Out of the years Tessera reads (a SOURCE_DATE_EPOCH far off): whatever the formatter says.
            return date.formatted(Date.VerbatimFormatStyle(
                format: "\(weekday: .abbreviated), \(day: .twoDigits) \(month: .abbreviated) \(year: .defaultDigits) \(hour: .twoDigits(clock: .twentyFourHour, hourCycle: .zeroBased)):\(minute: .twoDigits):\(second: .twoDigits) +0000",
                locale: Locale(identifier: "en_US_POSIX"), timeZone: TimeZone(identifier: "UTC")!, calendar: Calendar(identifier: .gregorian)))
        }
        let parts = CivilTime.unbounded(Int(seconds))
        let days = CivilTime.days(year: parts.year, month: parts.month, day: parts.day)
        let weekday = ["Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed"][((days % 7) + 7) % 7] // 1970-01-01 was a Thursday
        let month = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"][parts.month - 1]
        let iso = CivilTime.text(parts, offset: 0, withTime: true)  // 2026-11-01T09:30:00Z
        let utf8 = Array(iso.utf8)
        func slice(_ range: Range<Int>) -> String { String(decoding: utf8[range], as: UTF8.self) }
        return weekday + ", " + slice(8..<10) + " " + month + " " + slice(0..<4) + " " + slice(11..<19) + " +0000"
    }

    /// `2026-11-01T09:30:00Z`: what `date.formatted(.iso8601)` gives, computed directly (the
    /// sitemap and the JSON index print one per page; the format style costs microseconds each).
    static func rfc3339(_ date: Date) -> String {
        CivilTime.iso(date, offset: 0, withTime: true) ?? date.formatted(.iso8601)
    }

    static func xml(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            // Characters XML 1.0 cannot hold at all.
            case _ where character.value < 0x20 && character != "\n" && character != "\t" && character != "\r": continue
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }

    func document(_ format: FeedFormat) -> String {
        switch format {
        case .rss: rss()
        case .atom: atom()
        case .json: json()
        }
    }

    func rss() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0" xmlns:atom="http://www.w3.org/2005/Atom">
              <channel>
                <title>\(Self.xml(title))</title>
                <link>\(Self.xml(pageURL))</link>
                <description>\(Self.xml(description ?? title))</description>
                <language>\(Self.xml(language))</language>
                <lastBuildDate>\(Self.rfc822(updated))</lastBuildDate>
                <atom:link href="\(Self.xml(pageURL + FeedFormat.rss.fileName))" rel="self" type="application/rss+xml"/>

            """
        for entry in entries {
            out += "    <item>\n      <title>\(Self.xml(entry.page.title ?? entry.url))</title>\n      <link>\(Self.xml(entry.url))</link>\n      <guid isPermaLink=\"true\">\(Self.xml(entry.url))</guid>\n"
            if let date = entry.page.date { out += "      <pubDate>\(Self.rfc822(date))</pubDate>\n" }
            for tag in entry.page.tags { out += "      <category>\(Self.xml(tag))</category>\n" }
            if let html = entry.html { out += "      <description>\(Self.xml(html))</description>\n" }
            out += "    </item>\n"
        }
        return out + "  </channel>\n</rss>\n"
    }

    func atom() -> String {
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <feed xmlns="http://www.w3.org/2005/Atom" xml:lang="\(Self.xml(language))">
              <title>\(Self.xml(title))</title>
              <id>\(Self.xml(pageURL))</id>
              <link rel="alternate" type="text/html" href="\(Self.xml(pageURL))"/>
              <link rel="self" type="application/atom+xml" href="\(Self.xml(pageURL + FeedFormat.atom.fileName))"/>
              <updated>\(Self.rfc3339(updated))</updated>
              <author><name>\(Self.xml(author ?? title))</name></author>\(description.map { "\n  <subtitle>\(Self.xml($0))</subtitle>" } ?? "")

            """
        for entry in entries {
            out += "  <entry>\n    <title>\(Self.xml(entry.page.title ?? entry.url))</title>\n    <id>\(Self.xml(entry.url))</id>\n"
            out += "    <link rel=\"alternate\" type=\"text/html\" href=\"\(Self.xml(entry.url))\"/>\n"
            out += "    <updated>\(Self.rfc3339(entry.page.date ?? updated))</updated>\n"
            if let date = entry.page.date { out += "    <published>\(Self.rfc3339(date))</published>\n" }
            for tag in entry.page.tags { out += "    <category term=\"\(Self.xml(tag))\"/>\n" }
            if let html = entry.html { out += "    <content type=\"html\">\(Self.xml(html))</content>\n" }
            out += "  </entry>\n"
        }
        return out + "</feed>\n"
    }

    func json() -> String {
        var feed: [String: Any] = [
            "version": "https://jsonfeed.org/version/1.1",
            "title": title,
            "home_page_url": pageURL,
            "feed_url": pageURL + FeedFormat.json.fileName,
            "language": language,
        ]
        if let description { feed["description"] = description }
        if let author { feed["authors"] = [["name": author]] }
        feed["items"] = entries.map { entry -> [String: Any] in
            var item: [String: Any] = ["id": entry.url, "url": entry.url, "title": entry.page.title ?? entry.url]
            if let date = entry.page.date { item["date_published"] = Self.rfc3339(date) }
            if !entry.page.tags.isEmpty { item["tags"] = entry.page.tags }
            if let html = entry.html { item["content_html"] = html } else { item["content_text"] = "" }
            return item
        }
        let data = (try? JSONSerialization.data(withJSONObject: feed, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

extension Step where Product == RenderedSite {
    /// The feeds pages ask for: their entries are the pages their query sections list.
    public static var writeFeeds: Step { Step("feeds") { site, context in
        // The last build's, when it lists the same pages with the same front matter.
        guard !context.reuse.keepsStructure else { return }
        let routed = site.mapped.routed
        for page in routed.loaded.pages where !page.feeds.isEmpty && (page.pagination?.number ?? 1) == 1 {
            do {
                site.outputs += try routed.feedFiles(of: page)
            } catch {
                context.diagnostics.report(error)
            }
        }
    } }
}

extension RoutedSite {
    /// The feeds of `page` (the first page of a list, with `feeds:`): its query sections' pages.
    func feedFiles(of page: Page) throws -> [OutputFile] {
        let configuration = self.configuration
        let origin = configuration.origin
        func absolute(_ url: String) -> String { origin + configuration.basePath + url.dropFirst() }
        let location = page.feedsLocation ?? page.location
        guard !origin.isEmpty else {
            throw TesseraError(
                "feeds need an absolute baseURL: feed readers cannot follow a path alone", at: location,
                hint: "set `baseURL: https://your.domain/` in site.yml")
        }
        guard page.listsPages, !page.url.hasSuffix(".html") else {
            throw TesseraError(
                "'feeds' lists the pages of the page's query sections, and this page has none", at: location,
                hint: "add a section with `query: { under: …, component: … }`, or remove `feeds:`")
        }
        let listed = loaded.lists.allPages(of: page, limit: configuration.feeds.limit)
        let context = transformContext(for: page.language)
        let entries = listed.map { listed -> FeedWriter.Entry in
            var html: String?
            if configuration.feeds.fullContent, !listed.body.isBlank {
                var listedContext = context
                listedContext.pageURL = listed.url
                // Links were checked when the page itself was mapped; here they only need to be absolute.
                // Components placed in the body are left out: they need the theme's styles. Code
                // blocks stay, highlighted (a reader without the styles shows the code plain).
                html = (try? context.markdown.document(listed.body, links: listedContext.markdownLinks, components: true)).map { document in
                    FeedWriter.absolutize(MarkdownComponents.replacingMarkers(in: document.html) { placement in
                        guard case .code(let index) = placement, document.code.indices.contains(index) else { return "" }
                        return document.code[index].block.html()
                    }, origin: origin)
                }
            } else if let summary = listed.summary {
                html = FeedWriter.xml(summary)
            }
            return FeedWriter.Entry(page: listed, url: absolute(listed.url), html: html)
        }
        // "Blog · Tessera Learning": a reader's list of subscriptions names the site.
        let siteTitle = configuration.title(in: page.language)
        let title = page.title.map { $0 == siteTitle ? $0 : $0 + " · " + siteTitle } ?? siteTitle
        var writer = FeedWriter(
            title: title, pageURL: absolute(page.url), language: page.language,
            updated: loaded.lists.newestDate(of: page) ?? buildDate, entries: Array(entries))
        writer.description = page.summary ?? title
        writer.author = siteTitle
        let folder = page.outputPath.hasSuffix("index.html") ? String(page.outputPath.dropLast("index.html".count)) : ""
        return page.feeds.map { .text(folder + $0.fileName, writer.document($0)) }
    }

}

extension FeedWriter {
    /// Root-relative `href`/`src` and `srcset` candidates made absolute: a feed is read away
    /// from the site.
    static func absolutize(_ html: String, origin: String) -> String {
        var out = html
        for attribute in ["href", "src"] {
            // `//host/…` is already absolute; keep it apart while root-relative paths get the origin.
            out = out.replacingOccurrences(of: "\(attribute)=\"//", with: "\(attribute)=\"\u{1}")
                .replacingOccurrences(of: "\(attribute)=\"/", with: "\(attribute)=\"\(origin)/")
                .replacingOccurrences(of: "\(attribute)=\"\u{1}", with: "\(attribute)=\"//")
        }
        guard out.contains(" srcset=\"") else { return out }
        // `srcset="/a.320.webp 320w, /a.640.webp 640w"`: each candidate's URL.
        var parts = out.components(separatedBy: " srcset=\"")
        for index in parts.indices.dropFirst() {
            guard let end = parts[index].firstIndex(of: "\"") else { continue }
            let candidates = parts[index][..<end].components(separatedBy: ", ").map { candidate in
                candidate.hasPrefix("/") && !candidate.hasPrefix("//") ? origin + candidate : candidate
            }
            parts[index] = candidates.joined(separator: ", ") + parts[index][end...]
        }
        return parts.joined(separator: " srcset=\"")
    }
}
