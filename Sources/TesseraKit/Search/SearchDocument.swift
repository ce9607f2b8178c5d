import Foundation

/// What the search index keeps of one page: what a result shows, and the page's terms with
/// their weights. Made from the page's view as it renders: its text is the view's, and no HTML
/// is read again.
struct SearchDocument: Sendable, Equatable, Codable {
    /// With the base path: `/blog/swift-6/`.
    var url: String
    /// The page JSON's URL, whose `text` a result's excerpt is cut from; nil without page JSON.
    var json: String?
    var language: String
    var title: String
    /// The first segment of the URL below the language's (`blog`), "" for the home page.
    var section: String
    /// ISO 8601, and as the page's language writes it.
    var date: String?
    var dateText: String?
    var tags: [String]
    var summary: String
    /// The page's id (`page.id` of its JSON), and its words as plain text, for apps
    /// (`search.documents: true`); the text is nil otherwise.
    var id: String
    var text: String?
    /// Term → how often and where it appears: the sum of the weights of its places, with the
    /// `Weight.inTitle` bit for a term of the title.
    var terms: SearchTerms
    /// The number of terms of the page's text (title, headings and tags aside), for scores
    /// that do not favour long pages.
    var length: Int

    /// A page's terms and their weights, in the order of the terms (`<`), packed: the terms'
    /// UTF-8 one after another with where each ends, and the weights, in three arrays. Every
    /// page's document is kept until the search step: a dictionary of a page's terms was 2.5 KB
    /// of each (massif, 3,000 tagged posts), an array of `String`s and one of `Int`s 0.9 KB
    /// (10,000 tagged posts), these about half that.
    struct SearchTerms: Sendable, Equatable, Codable, Sequence {
        private var bytes: [UInt8] = []
        /// Where each term's bytes end in `bytes`.
        private var ends: [UInt32] = []
        private var values: [UInt32] = []

        /// `weights[i]` is the weight of `terms[i]`; the terms are distinct.
        init(terms: [String], weights: [Int]) {
            precondition(terms.count == weights.count, "one weight per term")
            let order = terms.indices.sorted { terms[$0] < terms[$1] }
            bytes.reserveCapacity(terms.reduce(0) { $0 + $1.utf8.count })
            ends.reserveCapacity(terms.count)
            values.reserveCapacity(terms.count)
            for index in order {
                bytes.append(contentsOf: terms[index].utf8)
                precondition(bytes.count <= Int(UInt32.max) && weights[index] >= 0 && weights[index] <= Int(UInt32.max), "a page's terms fit in 4 GB, its weights in 32 bits")
                ends.append(UInt32(bytes.count))
                values.append(UInt32(weights[index]))
            }
        }

        /// Terms packed as `bytes`, `ends` and `weights` of another's (`SearchStore` reads them
        /// back in the order they were written).
        init(packed: [UInt8], ends: [UInt32], weights: [UInt32]) {
            precondition(ends.count == weights.count && ends.last.map { Int($0) == packed.count } ?? packed.isEmpty, "one end and weight per term")
            bytes = packed
            self.ends = ends
            values = weights
        }

        init(_ dictionary: [String: Int]) {
            self.init(terms: Array(dictionary.keys), weights: Array(dictionary.values))
        }

        var count: Int { ends.count }
        var terms: [String] { map(\.0) }
        var weights: [Int] { values.map(Int.init) }
        var dictionary: [String: Int] { Dictionary(uniqueKeysWithValues: map { ($0.0, $0.1) }) }

        func makeIterator() -> Iterator { Iterator(terms: self) }

        struct Iterator: IteratorProtocol {
            let terms: SearchTerms
            var index = 0

            mutating func next() -> (String, Int)? {
                guard index < terms.ends.count else { return nil }
                defer { index += 1 }
                let start = index == 0 ? 0 : Int(terms.ends[index - 1]), end = Int(terms.ends[index])
                let term = terms.bytes.withUnsafeBufferPointer { String(decoding: UnsafeBufferPointer(rebasing: $0[start..<end]), as: UTF8.self) }
                return (term, Int(terms.values[index]))
            }
        }

        // Encoded as it always was: the terms and the weights, two arrays.
        private enum CodingKeys: String, CodingKey { case terms, weights }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            self.init(terms: try container.decode([String].self, forKey: .terms), weights: try container.decode([Int].self, forKey: .weights))
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(terms, forKey: .terms)
            try container.encode(weights, forKey: .weights)
        }
    }

    /// Where a word counts most: a title's words over headings' and tags', over the text's. A
    /// term of the title also has the `inTitle` bit of its count set.
    enum Weight {
        static let title = 10, heading = 4, tag = 4, text = 1
        static let inTitle = 1 << 24
    }

    /// The page's document, or nil when it is not searched: `search: false` in its front matter
    /// or the site's rule, a page the build made (term pages, later pages of a list), the 404
    /// page, and pages without HTML.
    static func make(_ view: PageView, registry: ComponentRegistry, options: SiteConfiguration.SearchOptions, outputs: [String], basePath: String, timeZone: TimeZone) -> SearchDocument? {
        let page = view.page
        guard isSearched(page, options: options, outputs: outputs) else { return nil }
        let analyzer = SearchAnalyzer.of(page.language)
        var texts: [String] = []
        let vocabulary = SearchVocabulary.take(for: analyzer)
        defer { vocabulary.giveBack() }
        var counts = SearchTermCounts(vocabulary: vocabulary)
        func add(_ text: String, weight: Int, title: Bool = false) {
            if options.documents && weight == Weight.text { texts.append(text) }
            counts.add(text, weight: weight, title: title)
        }
        let title = page.title ?? ""
        add(title, weight: Weight.title, title: true)
        for heading in view.headings { add(heading.text, weight: Weight.heading) }
        for tag in page.tags { add(tag, weight: Weight.tag) }
        if let content = view.content { add(Self.text(ofHTML: content), weight: Weight.text) }
        for block in view.code { add(block.block.code, weight: Weight.text) }
        // The text of the page's own components (not those of pages a list shows).
        let components = view.sections.flatMap { [$0.header].compactMap { $0 } + $0.items + [$0.footer].compactMap { $0 } } + view.embedded
        for component in components where component.sharedKey == nil {
            guard let schema = registry[component.code]?.schema, schema.searchable else { continue }
            for field in schema.fields where [.text, .markdown, .inlineMarkdown].contains(field.type) {
                switch component.data[field.name] {
                case .string(let text)?: add(field.type == .text ? text : Self.text(ofHTML: text), weight: Weight.text)
                case .formatted(let text, _)?: add(text, weight: Weight.text)
                default: break
                }
            }
        }
        let segments = page.url.split(separator: "/")
        let section = String((segments.first == Substring(page.language) ? segments.dropFirst() : segments[...]).first ?? "")
        // Formatted once per day and language, and proleptic Gregorian before 1582 (Foundation's
        // calendar is Julian there), as the date transformers do.
        let dateText = page.date.map { DateTransformer.styled($0, .abbreviated, locale: Locale(identifier: page.language), timeZone: timeZone) }
        return SearchDocument(
            url: basePath + page.url.dropFirst(), json: (page.outputs ?? outputs).contains("json") ? basePath + page.jsonOutputPath : nil,
            language: page.language, title: title, section: section,
            date: page.date.map(FeedWriter.rfc3339), dateText: dateText, tags: page.tags, summary: page.summary ?? "",
            id: page.contentID, text: options.documents ? texts.joined(separator: "\n") : nil, terms: counts.searchTerms, length: counts.length)
    }

    /// Whether the page is in the index (see `make`).
    static func isSearched(_ page: Page, options: SiteConfiguration.SearchOptions, outputs: [String]) -> Bool {
        options.enabled && (page.outputs ?? outputs).contains("html") && !page.isGenerated && !page.url.hasSuffix("/404.html") && page.layout != "404" && !options.excludes(page.url)
            && page.params.first(where: { $0.key == "search" })?.value.bool != false
    }

    /// The words of HTML, without its tags and the markers of placed components and code.
    static func text(ofHTML html: String) -> String {
        var text = HTMLText.plain(html)
        // `\u{5}c0\u{6}`: where code or a component is placed (`MarkdownComponents`); each
        // becomes a space. Found with `memchr`: most pages have none.
        return text.withUTF8 { bytes -> String? in
            guard var marker = ByteSearch.firstIndex(of: 5, in: bytes) else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count)
            var index = 0
            while true {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<marker]))
                // An unclosed marker runs to the end, as it always did.
                guard let close = ByteSearch.firstIndex(of: 6, in: bytes, from: marker) else { break }
                out.append(32)
                index = close + 1
                guard let next = ByteSearch.firstIndex(of: 5, in: bytes, from: index) else {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                    break
                }
                marker = next
            }
            return String(decoding: out, as: UTF8.self)
        } ?? text
    }
}
