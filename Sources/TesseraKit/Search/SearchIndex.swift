import Foundation

/// The site's search index, one per language, in files a browser fetches as a reader types:
///
///     search/<lang>/meta.json        how to read text (analyzer rules), the shards' prefixes,
///                                    the number of pages, the sections and tags
///     search/<lang>/terms/<n>.json   shard n: term → postings (page number and score)
///     search/<lang>/docs/<n>.json    pages 20·n … 20·n+19: URL, title, section, date, tags,
///                                    summary, page JSON
///     search/<lang>/filters.json     section and tag → pages, fetched when a filter is used
///
/// Shards hold the terms of one prefix, split until each is small, so a query fetches the
/// shards of its words and the pages of its first results, never the whole index. Pages are
/// numbered in the order of their URLs, and nothing in the files depends on the order pages
/// were rendered in: a cached build writes the same bytes as a full one.
enum SearchIndex {
    static let format = "tessera.search"
    static let version = 1
    /// Pages per file of `docs/`: a query's first ten results fetch at most ten files of about
    /// 5 KB.
    static let pagesPerChunk = 20
    /// A shard larger than this is split by the next letter of its terms.
    static let shardBytes = 16_000

    /// BM25's constants: how fast repeated words stop counting, and how much length counts.
    static let k1 = 1.2, b = 0.75

    /// A term's score in a page, 1…63: BM25's term-frequency part over the weighted count, and a
    /// bonus when the term is in the title, so a title's words rank first.
    static func score(weighted: Int, length: Int, averageLength: Double) -> Int {
        let tf = Double(weighted & (SearchDocument.Weight.inTitle - 1))
        let norm = k1 * (1 - b + b * Double(length) / max(averageLength, 1))
        let part = tf * (k1 + 1) / (tf + norm)
        let bonus = weighted & SearchDocument.Weight.inTitle != 0 ? 24 : 0
        return max(1, min(63, Int((part * 17).rounded()) + bonus))
    }

    static let documentsFormat = "tessera.search-documents"
    static let documentsVersion = 1

    /// `api/search/<lang>.json` of each language: every searched page's id, URL, title, summary,
    /// section, tags, date and text, for an app to load into an index of its own.
    static func appDocuments(_ documents: [SearchDocument], languages: [String]) -> [OutputFile] {
        languages.map { language in
            let list = documents.filter { $0.language == language }.sorted { $0.url < $1.url }.map { document -> JSONValue in
                var object: JSONObject = [
                    "id": .string(document.id), "url": .string(document.url), "title": .string(document.title), "section": .string(document.section),
                    "tags": .array(document.tags.map(JSONValue.string)), "text": .string(document.text ?? ""),
                ]
                if !document.summary.isEmpty { object["summary"] = .string(document.summary) }
                if let date = document.date { object["date"] = .string(date) }
                return .object(object)
            }
            let file: JSONValue = ["format": .string(documentsFormat), "version": .int(documentsVersion), "language": .string(language), "documents": .array(list)]
            return OutputFile(path: "api/search/\(language).json", contents: .data(Data(file.bytes)))
        }
    }

    /// Whether `path` names a numbered file of an index (`search/en/terms/12.json`), whose number
    /// of files changes with the pages.
    static func isShardOrChunk(_ path: String) -> Bool {
        guard path.hasPrefix("search/") else { return false }
        let parts = path.split(separator: "/")
        return parts.count == 4 && parts[0] == "search" && (parts[2] == "terms" || parts[2] == "docs")
            && parts[3].hasSuffix(".json") && parts[3].dropLast(5).allSatisfy(\.isNumber)
    }

    /// The index of each language, for the documents of every language.
    /// `translations`: the theme's and site's strings, whose `search.*` keys go into each
    /// `meta.json` for the search dialog (its script builds it when a reader opens it, so pages
    /// do not carry it).
    /// `languages`: the site's, each with its name in itself, for the search dialog's choice of
    /// language.
    /// `last`: the index of the last build, if there is one to update (`update(_:with:)`): used
    /// when its languages are these, with the pages that differ and these strings.
    static func make(_ documents: [SearchDocument], languages: [SiteLanguage], translations: [String: TranslationTable], from last: [Language]? = nil) -> [Language] {
        let others: JSONValue = .array(languages.map { .object(["code": .string($0.code), "name": .string($0.name)]) })
        let strings = languages.map { language in
            var strings: JSONObject = [:]
            for (key, entry) in translations[language.code]?.entries ?? [:] where key.hasPrefix("search.") {
                if case .text(let text) = entry { strings[String(key.dropFirst("search.".count))] = .string(text) }
            }
            return strings
        }
        if var index = last, index.map(\.code) == languages.map(\.code), index.allSatisfy({ $0.languages == others }) {
            for (position, strings) in zip(index.indices, strings) { index[position].restring(strings) }
            // One document per URL, as in every index made; found by their place in `documents`.
            var place: [String: Int] = [:]
            place.reserveCapacity(documents.count)
            for (number, document) in documents.enumerated() where place[document.url] == nil { place[document.url] = number }
            guard place.count == documents.count else { return make(documents, languages: languages, translations: translations) }
            var changed: [(url: String, document: SearchDocument?)] = []
            var before = [Bool](repeating: false, count: documents.count)
            for language in index {
                for document in language.documents {
                    guard let number = place[document.url] else {
                        changed.append((document.url, nil))
                        continue
                    }
                    before[number] = true
                    if documents[number] != document { changed.append((document.url, documents[number])) }
                }
            }
            for (number, document) in documents.enumerated() where !before[number] { changed.append((document.url, document)) }
            _ = update(&index, with: changed)
            return index
        }
        var byLanguage: [String: [SearchDocument]] = [:]
        for document in documents { byLanguage[document.language, default: []].append(document) }
        return zip(languages, strings).map { language, strings in
            let documents = (byLanguage[language.code] ?? []).sorted { $0.url < $1.url }
            return Language(documents: documents, code: language.code, strings: strings, languages: others)
        }
    }

    /// The index of each language with the edited pages as they are now (`changed`, by URL; nil
    /// for a page no longer searched), and the files that changed and those it no longer has.
    static func update(_ index: inout [Language], with changed: [(url: String, document: SearchDocument?)]) -> (files: [OutputFile], removed: [String]) {
        var files: [OutputFile] = [], removed: [String] = []
        let urls = Set(changed.map(\.url))
        for position in index.indices {
            if let changes = index[position].update(changed) {
                files += changes.files
                removed += changes.removed
                continue
            }
            // A page comes or goes, or scores change: the language's index is made anew.
            let last = index[position]
            let documents = (last.documents.filter { !urls.contains($0.url) } + changed.compactMap { $0.document }.filter { $0.language == last.code })
                .sorted { $0.url < $1.url }
            index[position] = Language(documents: documents, code: last.code, strings: last.strings, languages: last.languages)
            let changes = index[position].changes(from: last)
            files += changes.files
            removed += changes.removed
        }
        return (files, removed)
    }

    /// The decimal digits of a number ≥ 0, appended.
    static func appendDecimal(_ value: Int, to bytes: inout [UInt8]) {
        var digits: (UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        var count = 0, rest = value
        withUnsafeMutableBytes(of: &digits) { buffer in
            repeat {
                buffer[19 - count] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
                count += 1
            } while rest > 0
            bytes.append(contentsOf: buffer[(20 - count)...])
        }
    }
}
