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

    /// Every file of the index, for the documents of every language.
    /// `translations`: the theme's and site's strings, whose `search.*` keys go into each
    /// `meta.json` for the search dialog (its script builds it when a reader opens it, so pages
    /// do not carry it).
    /// `languages`: the site's, each with its name in itself, for the search dialog's choice of
    /// language.
    static func files(_ documents: [SearchDocument], languages: [SiteLanguage], basePath: String, translations: [String: TranslationTable] = [:]) -> [OutputFile] {
        var byLanguage: [String: [SearchDocument]] = [:]
        for document in documents { byLanguage[document.language, default: []].append(document) }
        var files: [OutputFile] = []
        let others: JSONValue = .array(languages.map { .object(["code": .string($0.code), "name": .string($0.name)]) })
        for language in languages.map(\.code) {
            let documents = (byLanguage[language] ?? []).sorted { $0.url < $1.url }
            var strings: JSONObject = [:]
            for (key, entry) in translations[language]?.entries ?? [:] where key.hasPrefix("search.") {
                if case .text(let text) = entry { strings[String(key.dropFirst("search.".count))] = .string(text) }
            }
            files += self.files(of: documents, language: language, strings: strings, languages: others)
        }
        return files
    }

    private static func files(of documents: [SearchDocument], language: String, strings: JSONObject, languages: JSONValue) -> [OutputFile] {
        let folder = "search/\(language)/"
        let analyzer = SearchAnalyzer(language: language)
        let averageLength = documents.isEmpty ? 1 : Double(documents.reduce(0) { $0 + $1.length }) / Double(documents.count)

        // Postings: term → [(page, score)], pages in order, made for runs of pages on every core and
        // joined in the runs' order; each list as the bytes of a JSON array: page gaps × 64 + score.
        let runs = stride(from: 0, to: documents.count, by: 2_000).map { $0..<min($0 + 2_000, documents.count) }
        let partial = ParallelMap.map(runs) { run -> [String: [Int]] in
            var postings: [String: [Int]] = [:]
            for number in run {
                let length = documents[number].length
                for (term, weighted) in documents[number].terms {
                    postings[term, default: []].append(number * 64 + score(weighted: weighted, length: length, averageLength: averageLength))
                }
            }
            return postings
        }
        var postings = partial.first ?? [:]
        for more in partial.dropFirst() { postings.merge(more) { $0 + $1 } }
        var encoded: [(term: String, bytes: [UInt8])] = ParallelMap.map(Array(postings)) { term, list in
            var bytes: [UInt8] = [UInt8(ascii: "[")]
            bytes.reserveCapacity(list.count * 6 + 2)
            var previous = 0
            for (index, value) in list.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                let page = value >> 6
                appendDecimal((page - previous) * 64 + (value & 63), to: &bytes)
                previous = page
            }
            bytes.append(UInt8(ascii: "]"))
            return (term, bytes)
        }
        // By Unicode scalars, which is the order of their UTF-8 bytes.
        encoded.sort { $0.term.utf8.lexicographicallyPrecedes($1.term.utf8) }

        // Shards: terms grouped by prefix, a prefix split by its next letter while too large.
        var shards: [(prefix: String, terms: ArraySlice<(term: String, bytes: [UInt8])>)] = []
        func split(_ terms: ArraySlice<(term: String, bytes: [UInt8])>, prefix: [Unicode.Scalar]) {
            let size = terms.reduce(0) { $0 + $1.term.utf8.count + $1.bytes.count + 4 }
            if size <= shardBytes || terms.allSatisfy({ $0.term.unicodeScalars.count <= prefix.count }) {
                shards.append((String(String.UnicodeScalarView(prefix)), terms))
                return
            }
            // The terms that are the prefix itself, then a group per next letter.
            var start = terms.startIndex
            while start < terms.endIndex {
                let scalars = Array(terms[start].term.unicodeScalars)
                let next = scalars.count > prefix.count ? Array(scalars.prefix(prefix.count + 1)) : prefix
                var end = start
                while end < terms.endIndex {
                    let other = Array(terms[end].term.unicodeScalars)
                    let key = other.count > prefix.count ? Array(other.prefix(prefix.count + 1)) : prefix
                    if key != next { break }
                    end += 1
                }
                if next == prefix { shards.append((String(String.UnicodeScalarView(prefix)), terms[start..<end])) } else { split(terms[start..<end], prefix: next) }
                start = end
            }
        }
        var first = encoded.startIndex
        while first < encoded.endIndex {
            let letter = encoded[first].term.unicodeScalars.first!
            var end = first
            while end < encoded.endIndex, encoded[end].term.unicodeScalars.first == letter { end += 1 }
            split(encoded[first..<end], prefix: [letter])
            first = end
        }

        var files: [OutputFile] = []
        for (number, shard) in shards.enumerated() {
            var bytes: [UInt8] = [UInt8(ascii: "{")]
            for (index, entry) in shard.terms.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONValue.quote(entry.term, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                bytes += entry.bytes
            }
            bytes += Array("}\n".utf8)
            files.append(OutputFile(path: folder + "terms/\(number).json", contents: .data(Data(bytes))))
        }

        // Pages, twenty to a file.
        files += ParallelMap.map(Array(stride(from: 0, to: documents.count, by: pagesPerChunk))) { start in
            let chunk = documents[start..<min(start + pagesPerChunk, documents.count)].map { document -> JSONValue in
                var object: JSONObject = ["url": .string(document.url), "title": .string(document.title), "section": .string(document.section)]
                if let json = document.json { object["json"] = .string(json) }
                if let date = document.date { object["date"] = .string(date) }
                if let text = document.dateText { object["dateText"] = .string(text) }
                if !document.tags.isEmpty { object["tags"] = .array(document.tags.map(JSONValue.string)) }
                if !document.summary.isEmpty { object["summary"] = .string(document.summary) }
                return .object(object)
            }
            return OutputFile(path: folder + "docs/\(start / pagesPerChunk).json", contents: .data(Data(JSONValue.array(chunk).bytes)))
        }

        // Filters: section and tag → page numbers.
        var sections: [String: [Int]] = [:], tags: [String: [Int]] = [:]
        for (number, document) in documents.enumerated() {
            if !document.section.isEmpty { sections[document.section, default: []].append(number) }
            for tag in Set(document.tags) { tags[tag, default: []].append(number) }
        }
        func numbers(_ map: [String: [Int]]) -> JSONValue { .object(JSONObject(map.mapValues { JSONValue.array($0.map(JSONValue.int)) })) }
        files.append(OutputFile(path: folder + "filters.json", contents: .data(Data(JSONValue.object(["sections": numbers(sections), "tags": numbers(tags)]).bytes))))

        // Section titles: the title of each section's own page, the first in URL order whose URL
        // ends in `/<section>/`, found in one pass (a site of root pages has a section per page).
        let titles = Dictionary(documents.map { ($0.url, $0.title) }, uniquingKeysWith: { first, _ in first })
        var ownTitles: [String: String] = [:]
        for document in documents where !document.section.isEmpty && ownTitles[document.section] == nil && document.url.hasSuffix("/\(document.section)/") {
            ownTitles[document.section] = titles[document.url]
        }
        // Names the version of the other files, which clients ask for with it (`?v=`): an old copy
        // in a cache never meets a new meta.json.
        var digest = StableDigest()
        for file in files { if case .data(let data) = file.contents { digest.combine(file.path); digest.combine(data) } }
        let meta: JSONObject = [
            "format": .string(format), "version": .int(version), "language": .string(language),
            "build": .string(String(digest.value, radix: 16).leftPadded(to: 16)),
            "pages": .int(documents.count), "pagesPerChunk": .int(pagesPerChunk),
            "analyzer": .object([
                "stemmer": analyzer.stemmer.json,
                "stopWords": .array(analyzer.stopWords.sorted().map(JSONValue.string)),
                "marks": .array(SearchAnalyzer.foldedMarks.map { .array([.int(Int($0.lowerBound)), .int(Int($0.upperBound))]) }),
                "letters": .object(JSONObject(Dictionary(uniqueKeysWithValues: SearchAnalyzer.foldedLetters.map { (String($0.key), JSONValue.string($0.value)) }))),
            ]),
            "shards": .array(shards.map { .string($0.prefix) }),
            "strings": .object(strings),
            // Every language's index, by code, and its name in itself: a reader may search another.
            "languages": languages,
            "sections": .array(sections.keys.sorted().map { name in
                .object(["name": .string(name), "title": .string(ownTitles[name] ?? name), "pages": .int(sections[name]?.count ?? 0)])
            }),
            "tags": .array(tags.keys.sorted().map { .object(["name": .string($0), "pages": .int(tags[$0]?.count ?? 0)]) }),
        ]
        files.append(OutputFile(path: folder + "meta.json", contents: .data(Data(JSONValue.object(meta).bytes))))
        return files
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
