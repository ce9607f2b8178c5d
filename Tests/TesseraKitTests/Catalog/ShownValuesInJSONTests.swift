import Foundation
import Testing
@testable import TesseraKit

/// What a reader sees on the web, an app can show from the JSON: every text a component's HTML
/// prints from view data (not the theme's own words) is a string of that component's JSON.
///
/// The example site is built once; its component gallery holds every component of the default
/// theme, and its feeds the real content. Each component's HTML (a `gallery-example` or a
/// `feed-item`) is paired, in order, with the page JSON's items, and each text node of it that
/// is not written in a theme template or translation must occur in a string of the item's JSON.
@Suite struct ShownValuesInJSONTests {
    static var output: String { ExampleSiteCrawlTests.output }

    /// Texts the theme writes itself: the text between tags of its templates, and its strings.
    static let themeTexts: Set<String> = {
        var texts: Set<String> = []
        let root = Repository.root + "/themes/default"
        for file in FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? [] {
            guard let text = try? String(contentsOfFile: root + "/" + file, encoding: .utf8) else { continue }
            if file.hasSuffix(".mustache") {
                // Mustache tags out, then the runs between HTML tags.
                let plain = text.replacingOccurrences(of: #"\{\{[^}]*\}\}\}?"#, with: "\u{1}", options: .regularExpression)
                for node in textNodes(of: plain) { for piece in node.split(separator: "\u{1}") { texts.insert(normalized(String(piece))) } }
            } else if file.hasPrefix("i18n/") {
                for line in text.split(separator: "\n") {
                    guard let colon = line.firstIndex(of: ":") else { continue }
                    var value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
                    if value.hasPrefix("\""), value.hasSuffix("\""), value.count >= 2 { value = String(value.dropFirst().dropLast()) }
                    for piece in value.split(whereSeparator: { $0 == "{" || $0 == "}" }) { texts.insert(normalized(String(piece))) }
                }
            }
        }
        texts.remove("")
        return texts
    }()

    static func normalized(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: " ·:,"))
    }

    /// The text between the tags of `html`, entities decoded, scripts and styles left out.
    static func textNodes(of html: String) -> [String] {
        let withoutCode = html.replacingOccurrences(of: #"<(script|style|template)\b[\s\S]*?</\1>"#, with: "<x>", options: .regularExpression)
        return withoutCode.components(separatedBy: "<").compactMap { piece -> String? in
            guard let close = piece.firstIndex(of: ">") else { return piece.isEmpty ? nil : piece }
            return String(piece[piece.index(after: close)...])
        }.map { node in
            node.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&quot;", with: "\"")
                .replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&#x27;", with: "'").replacingOccurrences(of: "&amp;", with: "&")
        }.filter { !$0.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty }
    }

    /// The inner HTML of each element that opens with `opening`, in order (nested ones of the same
    /// tag name counted).
    static func elements(startingWith opening: String, in html: String) -> [String] {
        let tag = String(opening.dropFirst().prefix { $0.isLetter })
        var results: [String] = []
        var searchFrom = html.startIndex
        while let start = html.range(of: opening, range: searchFrom..<html.endIndex) {
            guard let contentStart = html[start.upperBound...].firstIndex(of: ">").map({ html.index(after: $0) }) else { break }
            var depth = 1, cursor = contentStart
            while depth > 0, let next = html.range(of: "<", range: cursor..<html.endIndex) {
                let rest = html[next.upperBound...]
                if rest.hasPrefix("/" + tag + ">") { depth -= 1 } else if rest.hasPrefix(tag + " ") || rest.hasPrefix(tag + ">") { depth += 1 }
                if depth == 0 { results.append(String(html[contentStart..<next.lowerBound])) }
                cursor = next.upperBound
            }
            searchFrom = contentStart
        }
        return results
    }

    /// Every string in a JSON value, normalized.
    static func strings(in value: Any) -> [String] {
        switch value {
        case let text as String: return [normalized(text)] + textNodes(of: text).map(normalized)
        case let number as NSNumber: return [number.stringValue]
        case let list as [Any]: return list.flatMap(strings)
        case let object as [String: Any]: return object.values.flatMap(strings)
        default: return []
        }
    }

    /// The items of a page JSON's sections, header, items and footer in order.
    static func components(of page: String) throws -> [[String: Any]] {
        let data = try Data(contentsOf: URL(fileURLWithPath: output + "/" + page))
        let document = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return (document["sections"] as? [[String: Any]] ?? []).flatMap { section in
            section["items"] as? [[String: Any]] ?? []
        }
    }

    /// The texts of `html` an app cannot find in `json`. A text node may join values and the
    /// theme's words ("42% complete · 7 lessons left", "Dismiss: New course"): it passes when the
    /// JSON's strings and the theme's texts, taken out of it, leave only separators.
    static func missing(html: String, json: [String: Any]) -> [String] {
        let known = strings(in: json)
        // Longest first, so "Learners this week" goes before "week"; one letter would hide too much.
        let pieces = (Set(known).union(themeTexts)).filter { $0.count >= 2 }.sorted { $0.count > $1.count }
        return textNodes(of: html).map(normalized).filter { text in
            guard !text.isEmpty, !themeTexts.contains(text), !known.contains(where: { $0.contains(text) }) else { return false }
            var rest = text
            for piece in pieces where rest.contains(piece) { rest = rest.replacingOccurrences(of: piece, with: " ") }
            return !rest.unicodeScalars.allSatisfy { CharacterSet(charactersIn: " ·:,()–—-\u{200E}\u{200F}").contains($0) }
        }
    }

    @Test func everyComponentOfTheGalleryShowsOnlyWhatItsJSONHolds() throws {
        let html = try String(contentsOfFile: Self.output + "/components/index.html", encoding: .utf8)
        let shown = Self.elements(startingWith: "<div class=\"gallery-example\"", in: html)
        let items = try Self.components(of: "components/index.json")
        let codes = Set(items.compactMap { $0["type"] as? String })
        #expect(shown.count == items.count && codes.count >= 20, "\(shown.count) examples shown, \(items.count) in JSON, \(codes.count) types")
        for (html, item) in zip(shown, items) {
            let missing = Self.missing(html: html, json: item)
            #expect(missing.isEmpty, "'\(item["type"] ?? "?")' shows \(missing) and its JSON has no such text: \(item)")
        }
    }

    @Test func everyFeedItemOfTheHomePagesShowsOnlyWhatItsJSONHolds() throws {
        for page in ["index", "fr/index", "de/index", "ar/index"] {
            let html = try String(contentsOfFile: Self.output + "/" + page + ".html", encoding: .utf8)
            let shown = Self.elements(startingWith: "<li class=\"feed-item ", in: html)
            let items = try Self.components(of: page + ".json")
            try #require(shown.count == items.count, "\(page): \(shown.count) feed items, \(items.count) JSON items")
            for (html, item) in zip(shown, items) {
                let missing = Self.missing(html: html, json: item)
                #expect(missing.isEmpty, "\(page): '\(item["type"] ?? "?")' shows \(missing) and its JSON has no such text")
            }
        }
    }

    /// The check can fail: a text only the template knows is caught.
    @Test func aTextMadeInTheTemplateAloneIsCaught() throws {
        let item: [String: Any] = ["type": "stat", "fields": ["label": "Learners", "value": ["text": "1,280", "value": 1280]]]
        #expect(Self.missing(html: "<p>Learners</p><p>1,280</p><p>+25%</p>", json: item) == ["+25%"])
        #expect(Self.missing(html: "<p>Learners</p><p>1,280</p>", json: item).isEmpty)
    }
}
