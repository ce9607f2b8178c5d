import Foundation

extension SearchIndex {
    /// One language's index as made: its pages in the order of their URLs (a page's number is
    /// its place), every term's postings, and each file's bytes. The preview keeps it and makes
    /// the next edit's index from it (`update`): the postings of the edited pages' terms, the
    /// shards and files of `docs/` they are in, and `meta.json`; a full build makes the same bytes.
    struct Language: Sendable {
        let code: String
        /// The search dialog's strings, and every language's code and name, for `meta.json`.
        private(set) var strings: JSONObject
        let languages: JSONValue
        private(set) var documents: [SearchDocument]
        /// The pages' lengths, summed: scores use their average.
        private var totalLength: Int
        /// Every term in the order of its UTF-8 bytes, with its postings as the bytes of a JSON
        /// array of page gaps × 64 + score.
        private var postings: [(term: String, bytes: [UInt8])]
        /// Each shard's prefix and terms (a range of `postings`).
        private var shards: [(prefix: String, terms: Range<Int>)]
        private var shardFiles: [Stored]
        private var chunkFiles: [Stored]
        private var numbers: Filters
        private var filters: Stored
        /// `meta.json`'s lists of sections (with their titles and sizes) and tags.
        private var sectionsAndTags: (sections: JSONValue, tags: JSONValue)
        private var meta: Stored

        /// A file's bytes and their digest, which names the index's version in `meta.json`.
        struct Stored: Sendable, Equatable {
            var data: Data
            var digest: UInt64

            init(_ bytes: [UInt8]) {
                data = Data(bytes)
                var digest = StableDigest()
                digest.combine(data)
                self.digest = digest.value
            }
        }

        /// The index of `documents`, of one language, in the order of their URLs.
        init(documents: [SearchDocument], code: String, strings: JSONObject, languages: JSONValue) {
            self.code = code
            self.strings = strings
            self.languages = languages
            self.documents = documents
            totalLength = documents.reduce(0) { $0 + $1.length }
            let average = Double(SearchIndex.averageLength(total: totalLength, pages: documents.count))

            // Postings: term → [page × 64 + score], pages in order, made for runs of pages on every
            // core and joined in the runs' order.
            let runs = stride(from: 0, to: documents.count, by: 2_000).map { $0..<min($0 + 2_000, documents.count) }
            let partial = ParallelMap.map(runs) { run -> [String: [Int]] in
                var postings: [String: [Int]] = [:]
                for number in run {
                    let length = documents[number].length
                    for (term, weighted) in documents[number].terms {
                        postings[term, default: []].append(number * 64 + SearchIndex.score(weighted: weighted, length: length, averageLength: average))
                    }
                }
                return postings
            }
            var lists = partial.first ?? [:]
            for more in partial.dropFirst() { lists.merge(more) { $0 + $1 } }
            var postings = ParallelMap.map(Array(lists)) { term, list in (term: term, bytes: SearchIndex.encode(list)) }
            postings.sort { JSONValue.utf8Precedes($0.term, $1.term) }
            let shards = SearchIndex.split(postings)
            self.postings = postings
            self.shards = shards
            shardFiles = ParallelMap.map(shards) { Stored(SearchIndex.shardBytes(postings[$0.terms])) }
            chunkFiles = ParallelMap.map(Array(stride(from: 0, to: documents.count, by: pagesPerChunk))) { start in
                Stored(SearchIndex.chunkBytes(documents[start..<min(start + pagesPerChunk, documents.count)]))
            }
            numbers = SearchIndex.filters(of: documents)
            filters = SearchIndex.filtersFile(numbers)
            sectionsAndTags = SearchIndex.lists(numbers, documents: documents)
            meta = Stored([])
            meta = makeMeta()
        }

        /// Every file of the index, `meta.json` last.
        var files: [OutputFile] {
            paths.map { OutputFile(path: $0.path, contents: .data($0.stored.data)) }
        }

        private var folder: String { "search/\(code)/" }

        /// Every file's path and bytes, in the order of `files`.
        private var paths: [(path: String, stored: Stored)] {
            shardFiles.enumerated().map { (folder + "terms/\($0.offset).json", $0.element) }
                + chunkFiles.enumerated().map { (folder + "docs/\($0.offset).json", $0.element) }
                + [(folder + "filters.json", filters), (folder + "meta.json", meta)]
        }

        /// The index with the edited pages as they are now (by URL, nil for a page no longer
        /// searched; pages of other languages are another index's), and the files that changed
        /// and those it no longer has. Nil when a page of this language comes or goes, or when the
        /// average length changes, which may change every score: the index is then made anew.
        mutating func update(_ changed: [(url: String, document: SearchDocument?)]) -> (files: [OutputFile], removed: [String])? {
            var edited: [Int: SearchDocument] = [:]
            for (url, document) in changed {
                guard let number = number(of: url) else {
                    if let document, document.language == code { return nil }
                    continue
                }
                guard let document, document.language == code else { return nil }
                if document != documents[number] { edited[number] = document }
            }
            guard !edited.isEmpty else { return ([], []) }
            let total = edited.reduce(totalLength) { $0 + $1.value.length - documents[$1.key].length }
            let average = SearchIndex.averageLength(total: total, pages: documents.count)
            guard average == SearchIndex.averageLength(total: totalLength, pages: documents.count) else { return nil }

            // Each term an edited page had or has: the page, and its score now (nil: gone).
            var edits: [String: [(page: Int, score: Int?)]] = [:]
            var filtersChanged = false, titlesChanged = false
            for (number, document) in edited {
                let old = documents[number]
                for (term, _) in old.terms { edits[term, default: []].append((number, nil)) }
                for (term, weighted) in document.terms {
                    edits[term, default: []].append((number, SearchIndex.score(weighted: weighted, length: document.length, averageLength: Double(average))))
                }
                filtersChanged = filtersChanged || old.section != document.section || old.tags != document.tags
                titlesChanged = titlesChanged || old.title != document.title
                documents[number] = document
            }
            totalLength = total
            var added: [(term: String, bytes: [UInt8])] = []
            var removedTerms = false
            for (term, changes) in edits {
                let index = position(of: term)
                let exists = index < postings.count && postings[index].term == term
                var list = exists ? SearchIndex.decode(postings[index].bytes) : []
                let pages = Set(changes.map(\.page))
                list.removeAll { pages.contains($0 >> 6) }
                list += changes.compactMap { change in change.score.map { change.page * 64 + $0 } }
                list.sort()
                if exists {
                    // No list is empty but a term's that is gone: those are dropped below.
                    postings[index].bytes = list.isEmpty ? [] : SearchIndex.encode(list)
                    removedTerms = removedTerms || list.isEmpty
                } else if !list.isEmpty {
                    added.append((term, SearchIndex.encode(list)))
                }
            }
            if !added.isEmpty || removedTerms {
                added.sort { JSONValue.utf8Precedes($0.term, $1.term) }
                var merged: [(term: String, bytes: [UInt8])] = []
                merged.reserveCapacity(postings.count + added.count)
                var next = 0
                for entry in postings where !entry.bytes.isEmpty {
                    while next < added.count, JSONValue.utf8Precedes(added[next].term, entry.term) {
                        merged.append(added[next])
                        next += 1
                    }
                    merged.append(entry)
                }
                merged += added[next...]
                postings = merged
            }

            // Shards: those that hold a term whose postings changed, when the shards are those of
            // the last index (the same prefixes hold the same terms); else every shard.
            let oldShards = shards, oldFiles = paths
            shards = SearchIndex.split(postings)
            var remade: [Int]
            if shards.map(\.prefix) == oldShards.map(\.prefix) {
                // A term's shard has the longest prefix of the term among the shards' (no two
                // shards have the same), whether the term is there or was; by Unicode scalars.
                let shardOf = Dictionary(shards.enumerated().map { (Array($1.prefix.unicodeScalars), $0) }, uniquingKeysWith: { first, _ in first })
                var marked = Set<Int>()
                for term in edits.keys {
                    let scalars = Array(term.unicodeScalars)
                    for length in stride(from: scalars.count, through: 0, by: -1) {
                        guard let shard = shardOf[Array(scalars[..<length])] else { continue }
                        marked.insert(shard)
                        break
                    }
                }
                remade = marked.sorted()
            } else {
                remade = Array(shards.indices)
                shardFiles = Array(repeating: Stored([]), count: shards.count)
            }
            let postings = postings, shards = shards
            for (index, stored) in zip(remade, ParallelMap.map(remade) { Stored(SearchIndex.shardBytes(postings[shards[$0].terms])) }) {
                shardFiles[index] = stored
            }
            // Pages, twenty to a file: those of the edited pages.
            for chunk in Set(edited.keys.map { $0 / pagesPerChunk }) {
                let start = chunk * pagesPerChunk
                chunkFiles[chunk] = Stored(SearchIndex.chunkBytes(documents[start..<min(start + pagesPerChunk, documents.count)]))
            }
            if filtersChanged {
                numbers = SearchIndex.filters(of: documents)
                filters = SearchIndex.filtersFile(numbers)
            }
            // A section's title is its own page's.
            if filtersChanged || titlesChanged { sectionsAndTags = SearchIndex.lists(numbers, documents: documents) }
            meta = makeMeta()
            return changes(from: oldFiles)
        }

        /// The index with the search dialog's strings `strings`: they are only in `meta.json`.
        mutating func restring(_ strings: JSONObject) {
            guard strings != self.strings else { return }
            self.strings = strings
            meta = makeMeta()
        }

        /// The files that differ from `old` (paths and bytes of an index of the same language),
        /// and the paths of `old` this index has no more.
        func changes(from old: [(path: String, stored: Stored)]) -> (files: [OutputFile], removed: [String]) {
            let last = Dictionary(old.map { ($0.path, $0.stored) }, uniquingKeysWith: { first, _ in first })
            let now = paths
            let made = Set(now.map(\.path))
            return (
                now.filter { last[$0.path] != $0.stored }.map { OutputFile(path: $0.path, contents: .data($0.stored.data)) },
                old.map(\.path).filter { !made.contains($0) })
        }

        /// `changes(from:)` of another index's files.
        func changes(from old: Language) -> (files: [OutputFile], removed: [String]) {
            changes(from: old.paths)
        }

        /// The number of the page with that URL.
        private func number(of url: String) -> Int? {
            var low = 0, high = documents.count
            while low < high {
                let middle = (low + high) / 2
                if documents[middle].url < url { low = middle + 1 } else { high = middle }
            }
            // Byte for byte: another spelling of the URL is another page.
            return low < documents.count && documents[low].url.utf8.elementsEqual(url.utf8) ? low : nil
        }

        /// Where `term` is in `postings`, or would be.
        private func position(of term: String) -> Int {
            var low = 0, high = postings.count
            while low < high {
                let middle = (low + high) / 2
                if JSONValue.utf8Precedes(postings[middle].term, term) { low = middle + 1 } else { high = middle }
            }
            return low
        }

        /// `meta.json`: how to read text, the shards, the pages, sections and tags, and the
        /// index's version, which names the other files' bytes: clients ask for them with it
        /// (`?v=`), so an old copy in a cache never meets a new meta.json.
        private func makeMeta() -> Stored {
            var digest = StableDigest()
            for (path, stored) in paths.dropLast() {
                digest.combine(path)
                digest.combine(stored.digest)
            }
            let analyzer = SearchAnalyzer(language: code)
            let meta: JSONObject = [
                "format": .string(format), "version": .int(version), "language": .string(code),
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
                "sections": sectionsAndTags.sections,
                "tags": sectionsAndTags.tags,
            ]
            return Stored(JSONValue.object(meta).bytes)
        }
    }

    /// The average length of a page, in whole terms, that scores use: an edit that changes a
    /// page's length by a few words seldom changes it, so the preview need not score every page
    /// again.
    static func averageLength(total: Int, pages: Int) -> Int {
        pages == 0 ? 1 : max(1, (total + pages / 2) / pages)
    }

    /// Postings (page × 64 + score, pages ascending) as the bytes of a JSON array of page gaps
    /// × 64 + score.
    static func encode(_ list: [Int]) -> [UInt8] {
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
        return bytes
    }

    /// The postings `encode` wrote.
    static func decode(_ bytes: [UInt8]) -> [Int] {
        var list: [Int] = []
        var page = 0, value = 0, digits = false
        for byte in bytes {
            if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
                digits = true
            } else if digits {
                page += value >> 6
                list.append(page * 64 + (value & 63))
                value = 0
                digits = false
            }
        }
        return list
    }

    /// Shards: terms grouped by prefix, a prefix split by its next letter while its terms are
    /// too large for one file (`shardBytes`). `postings` are in the order of their UTF-8 bytes,
    /// which is that of their Unicode scalars.
    static func split(_ postings: [(term: String, bytes: [UInt8])]) -> [(prefix: String, terms: Range<Int>)] {
        var shards: [(prefix: String, terms: Range<Int>)] = []
        // The scalar of a term after its first `depth`, nil for a term that short.
        func scalar(_ index: Int, at depth: Int) -> Unicode.Scalar? {
            var scalars = postings[index].term.unicodeScalars.makeIterator()
            for _ in 0..<depth where scalars.next() == nil { return nil }
            return scalars.next()
        }
        // `range`: the terms that begin with `prefix`, of `depth` scalars.
        func split(_ range: Range<Int>, prefix: String, depth: Int) {
            let size = postings[range].reduce(0) { $0 + $1.term.utf8.count + $1.bytes.count + 4 }
            if size <= shardBytes || range.allSatisfy({ scalar($0, at: depth) == nil }) {
                shards.append((prefix, range))
                return
            }
            // The term that is the prefix itself, then a group per next letter.
            var start = range.lowerBound
            while start < range.upperBound {
                let next = scalar(start, at: depth)
                var end = start + 1
                while end < range.upperBound, scalar(end, at: depth) == next { end += 1 }
                if let next { split(start..<end, prefix: prefix + String(next), depth: depth + 1) } else { shards.append((prefix, start..<end)) }
                start = end
            }
        }
        var first = 0
        while first < postings.count {
            let letter = scalar(first, at: 0)
            var end = first + 1
            while end < postings.count, scalar(end, at: 0) == letter { end += 1 }
            if let letter { split(first..<end, prefix: String(letter), depth: 1) } else { shards.append(("", first..<end)) }
            first = end
        }
        return shards
    }

    /// A shard's file: its terms and their postings.
    static func shardBytes(_ terms: ArraySlice<(term: String, bytes: [UInt8])>) -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        bytes.reserveCapacity(terms.reduce(4) { $0 + $1.term.utf8.count + $1.bytes.count + 4 })
        for (index, entry) in terms.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONValue.quote(entry.term, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            bytes += entry.bytes
        }
        bytes += Array("}\n".utf8)
        return bytes
    }

    /// A file of `docs/`: what a result shows of each page.
    static func chunkBytes(_ documents: ArraySlice<SearchDocument>) -> [UInt8] {
        let chunk = documents.map { document -> JSONValue in
            var object: JSONObject = ["url": .string(document.url), "title": .string(document.title), "section": .string(document.section)]
            if let json = document.json { object["json"] = .string(json) }
            if let date = document.date { object["date"] = .string(date) }
            if let text = document.dateText { object["dateText"] = .string(text) }
            if !document.tags.isEmpty { object["tags"] = .array(document.tags.map(JSONValue.string)) }
            if !document.summary.isEmpty { object["summary"] = .string(document.summary) }
            return .object(object)
        }
        return JSONValue.array(chunk).bytes
    }

    /// Section and tag → the numbers of their pages.
    typealias Filters = (sections: [String: [Int]], tags: [String: [Int]])

    static func filters(of documents: [SearchDocument]) -> Filters {
        var sections: [String: [Int]] = [:], tags: [String: [Int]] = [:]
        for (number, document) in documents.enumerated() {
            if !document.section.isEmpty { sections[document.section, default: []].append(number) }
            for tag in Set(document.tags) { tags[tag, default: []].append(number) }
        }
        return (sections, tags)
    }

    /// `filters.json`.
    static func filtersFile(_ filters: Filters) -> Language.Stored {
        func numbers(_ map: [String: [Int]]) -> JSONValue { .object(JSONObject(map.mapValues { JSONValue.array($0.map(JSONValue.int)) })) }
        return Language.Stored(JSONValue.object(["sections": numbers(filters.sections), "tags": numbers(filters.tags)]).bytes)
    }

    /// `meta.json`'s lists of sections, with their titles and sizes, and of tags.
    static func lists(_ filters: Filters, documents: [SearchDocument]) -> (sections: JSONValue, tags: JSONValue) {
        // Section titles: the title of each section's own page, the first in URL order whose URL
        // ends in `/<section>/`, found in one pass (a site of root pages has a section per page).
        var ownTitles: [String: String] = [:]
        for document in documents where !document.section.isEmpty && ownTitles[document.section] == nil && isOwnPage(url: document.url, section: document.section) {
            ownTitles[document.section] = document.title
        }
        return (
            sections: JSONValue.array(filters.sections.keys.sorted().map { name in
                .object(["name": .string(name), "title": .string(ownTitles[name] ?? name), "pages": .int(filters.sections[name]?.count ?? 0)])
            }),
            tags: JSONValue.array(filters.tags.keys.sorted().map { .object(["name": .string($0), "pages": .int(filters.tags[$0]?.count ?? 0)]) }))
    }

    /// Whether the page's URL ends in `/<its section>/`, compared by bytes as `hasSuffix` did
    /// for the URLs and sections pages have (no string is made per page).
    static func isOwnPage(url: String, section: String) -> Bool {
        let url = url.utf8, section = section.utf8
        guard url.count >= section.count + 2, url.last == UInt8(ascii: "/") else { return false }
        let end = url.index(before: url.endIndex), start = url.index(end, offsetBy: -section.count)
        return url[url.index(before: start)] == UInt8(ascii: "/") && url[start..<end].elementsEqual(section)
    }
}
