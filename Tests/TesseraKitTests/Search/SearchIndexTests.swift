import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// The search index through real builds: what is in it, what is not, cached builds, and the
/// browser's side (`search.js`, run by Node) reading text and answering queries exactly as
/// the build meant.
@Suite struct SearchIndexTests {
    static let searchScript = Repository.root + "/themes/default/static/assets/search.js"

    static func site(_ files: [String: String] = [:]) throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: T\nbaseURL: https://example.com/\ntheme: mini\nlanguages: [en, fr]\ntaxonomies: [tags]\nsearch: { exclude: [/legal/**], documents: true }\nbuildDate: 2026-11-22T12:00:00Z\n",
            "content/index.md": "---\ntitle: Home\n---\nWelcome aboard.\n",
            "content/index.fr.md": "---\ntitle: Accueil\n---\nBienvenue.\n",
            "content/blog/airships.md": "---\ntitle: Airships of the north\ndate: 2026-03-01\ntags: [travel]\n---\nThe zeppelin crossed the fjord at dawn.\n\n## Engines\n\nFour engines hummed.\n",
            "content/blog/boats.md": "---\ntitle: Boats\ndate: 2026-02-01\ntags: [travel, sea]\n---\nFerries and boats of the harbour.\n",
            "content/blog/chevaux.fr.md": "---\ntitle: À cheval\ndate: 2026-01-10\n---\nLe cheval traverse la plaine l'été.\n",
            "content/blog/hidden.md": "---\ntitle: Hidden\nsearch: false\n---\nA secret zeppelin.\n",
            "content/legal/terms.md": "---\ntitle: Terms\n---\nLegal zeppelin terms.\n",
            "content/404.md": "---\ntitle: Not found\n---\nNo zeppelin here.\n",
        ].merging(files) { _, new in new })
    }

    /// The URLs a language's index lists, in order.
    static func indexed(_ site: TemporarySite, _ language: String) throws -> [String] {
        let meta = try JSONSerialization.jsonObject(with: Data(site.read("search/\(language)/meta.json").utf8)) as! [String: Any]
        let pages = meta["pages"] as! Int, perChunk = meta["pagesPerChunk"] as! Int
        var urls: [String] = []
        for chunk in 0..<((pages + perChunk - 1) / perChunk) {
            let list = try JSONSerialization.jsonObject(with: Data(site.read("search/\(language)/docs/\(chunk).json").utf8)) as! [[String: Any]]
            urls += list.map { $0["url"] as! String }
        }
        #expect(urls.count == pages)
        return urls
    }

    @Test func theIndexHoldsThePagesToSearchAndNoOthers() throws {
        let site = try Self.site()
        try site.build()
        #expect(try Self.indexed(site, "en") == ["/", "/blog/airships/", "/blog/boats/"], "no search: false, no excluded section, no 404, no term page")
        #expect(try Self.indexed(site, "fr") == ["/fr/", "/fr/blog/chevaux/"])
        let airships = try site.read("search/en/docs/0.json")
        #expect(airships.contains("\"dateText\":\"Mar 1, 2026\"") && airships.contains("\"section\":\"blog\"") && airships.contains("\"tags\":[\"travel\"]"), "\(airships)")
        // The French plural and the elided article are the stems the text's words make.
        let terms = try (0..<40).compactMap { try? site.read("search/fr/terms/\($0).json") }.joined()
        #expect(terms.contains("\"cheval\":") && terms.contains("\"ete\":") && !terms.contains("\"l'ete\""), "\(terms)")
        #expect(!terms.contains("\"la\":"), "stop words are left out")
        // For apps: each searched page's text, in the language's file.
        let documents = try JSONSerialization.jsonObject(with: Data(site.read("api/search/en.json").utf8)) as! [String: Any]
        let list = documents["documents"] as! [[String: Any]]
        #expect(documents["format"] as? String == "tessera.search-documents" && list.map { $0["url"] as! String } == ["/", "/blog/airships/", "/blog/boats/"])
        #expect((list[1]["text"] as? String)?.contains("The zeppelin crossed the fjord at dawn.") == true && list[1]["date"] as? String == "2026-03-01T00:00:00Z", "\(list[1])")
        #expect(try site.read("api/search/fr.json").contains("Le cheval traverse la plaine"))
    }

    /// A search result's date is the date the page shows: proleptic Gregorian before 1582 (Foundation
    /// formats those days in the Julian calendar: 1000-01-01 would be "Dec 27, 999"), in the
    /// page's language.
    @Test func aResultsDateIsProlepticGregorianInThePagesLanguage() throws {
        let site = try Self.site([
            "content/blog/vikings.md": "---\ntitle: Vikings\ndate: 1000-01-01\n---\nLongships.\n",
            "content/blog/moines.fr.md": "---\ntitle: Moines\ndate: 1000-01-01\n---\nUn monastère.\n",
        ])
        try site.build()
        let english = try site.read("search/en/docs/0.json"), french = try site.read("search/fr/docs/0.json")
        #expect(english.contains("\"dateText\":\"Jan 1, 1000\"") && english.contains("\"date\":\"1000-01-01T00:00:00Z\""), "\(english)")
        #expect(french.contains("\"dateText\":\"1 janv. 1000\""), "\(french)")
        #expect(english.contains("\"dateText\":\"Mar 1, 2026\""), "\(english)")
    }

    /// Each section of `meta.json` is titled by its own page: the first, in URL order, whose URL
    /// ends in `/<section>/`; a section without one by its name. A page at the root is a section
    /// of its own, so a site of root pages has as many sections as pages (their titles were once
    /// found by a scan of every page for each section: 10,000 root pages took 0.3 s of each
    /// preview edit).
    @Test func sectionsAreTitledByTheirOwnPagesWhateverTheirNumber() throws {
        var files: [String: String] = [
            "content/blog/index.md": "---\ntitle: The Blog\n---\nEvery post.\n",
            "content/notes/first.md": "---\ntitle: First note\n---\nA note.\n",
        ]
        for number in 0..<300 { files["content/root-\(number).md"] = "---\ntitle: Root page \(number)\n---\nWords of page \(number).\n" }
        let site = try Self.site(files)
        try site.build()
        let meta = try JSONSerialization.jsonObject(with: Data(site.read("search/en/meta.json").utf8)) as! [String: Any]
        let sections = meta["sections"] as! [[String: Any]]
        let titles = Dictionary(uniqueKeysWithValues: sections.map { ($0["name"] as! String, $0["title"] as! String) })
        #expect(titles["blog"] == "The Blog" && titles["notes"] == "notes", "\(titles.filter { !$0.key.hasPrefix("root-") })")
        #expect(sections.filter { ($0["name"] as! String).hasPrefix("root-") }.count == 300)
        #expect((0..<300).allSatisfy { titles["root-\($0)"] == "Root page \($0)" })
        #expect(sections.map { $0["name"] as! String } == sections.map { $0["name"] as! String }.sorted())
    }

    @Test func theAnalyzerFoldsSegmentsAndStemsEachLanguage() {
        #expect(SearchAnalyzer(language: "fr").terms("Les Chevaux de l’été") == ["cheval", "ete"])
        #expect(SearchAnalyzer(language: "de").terms("Die Häuser der Straße") == ["haus", "strass"])
        #expect(SearchAnalyzer(language: "en").terms("Swift's libraries, 3.14 tasks") == ["swift", "library", "3.14", "task"])
        #expect(SearchAnalyzer(language: "ar").terms("المكتبات العامة في المدينة") == ["مكتب", "عام", "مدين"])
        let japanese = SearchAnalyzer(language: "ja").terms("東京都に住んでいます")
        #expect(japanese.first == "東京" && japanese.count > 3, "split into words by ICU's dictionary: \(japanese)")
        #expect(SearchAnalyzer(language: "zh").terms("我们的网站支持中文搜索") .contains("搜索"))
    }

    /// The ASCII reader gives ICU's words, folded, for every ASCII text it reads, and declines
    /// the others: generated texts of letters, digits, joiners in every position, punctuation.
    @Test func theASCIIReaderGivesICUsWordsOrDeclines() {
        // With the smart punctuation Markdown writes, which the reader takes, and marks it declines.
        let alphabet = Array("aZ9 '.,;:-_!?/\n\t@#()\"e0Q") + Array("\u{2018}\u{2019}\u{201C}\u{201D}\u{2013}\u{2014}\u{2026}\u{A0}\u{AB}\u{BB}") + ["\u{202F}", "\u{2024}", "\u{AD}", "\u{301}"]
        var generator = SeededGenerator(seed: 11)
        var read = 0, declined = 0, readWithSmartPunctuation = 0
        for _ in 0..<8000 {
            let length = Int(generator.next() % 24)
            var text = String((0..<length).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            if generator.next() % 4 == 0 { text += " caf\u{E9}" }
            var fast: [String] = []
            let accepted = ASCIIWords.forEach(text) { fast.append(String(decoding: $0, as: UTF8.self)) }
            var icu: [String] = []
            SearchAnalyzer.words(text) { icu.append(SearchAnalyzer.fold($0)) }
            if accepted {
                read += 1
                if text.unicodeScalars.contains(where: { $0.value >= 0x80 }) { readWithSmartPunctuation += 1 }
                #expect(fast == icu, "\(text.debugDescription): \(fast) against ICU's \(icu)")
            } else {
                declined += 1
                #expect(fast.isEmpty)
                #expect(text.contains("_") || text.unicodeScalars.contains { $0.value >= 0x80 }, "\(text.debugDescription)")
            }
        }
        #expect(read > 1500 && declined > 2000 && readWithSmartPunctuation > 1000, "\(read) read (\(readWithSmartPunctuation) with smart punctuation), \(declined) declined")

        // Longer ASCII texts of every byte next to the upper-case range (`@`, `[`, `` ` ``, `{`):
        // the reader lowers them eight bytes at a time, and a smart quote between sends it back
        // to one byte at a time for a while.
        let ascii = Array("@AMZ[`amz{09 '.-?!\n") + ["\u{2019}"]
        for _ in 0..<4000 {
            let text = String((0..<Int(8 + generator.next() % 57)).map { _ in ascii[Int(generator.next() % UInt64(ascii.count))] })
            var fast: [String] = []
            let accepted = ASCIIWords.forEach(text) { fast.append(String(decoding: $0, as: UTF8.self)) }
            var icu: [String] = []
            SearchAnalyzer.words(text) { icu.append(SearchAnalyzer.fold($0)) }
            #expect(accepted && fast == icu, "\(text.debugDescription): \(fast) against ICU's \(icu)")
        }
    }

    /// Code's identifiers (`snake_case`, `__init__`, `_1`, `MAX_SIZE`) are read too: `_` joins
    /// letters, digits and other `_` as ICU's ExtendNumLet does, one `_` alone is no word, and
    /// the joiners of letters and numbers do not join across it. Generated texts of little else.
    @Test func theASCIIReaderGivesICUsWordsAroundUnderscores() {
        let alphabet = Array("a9_'.,;:Z_ -")
        var generator = SeededGenerator(seed: 1_615)
        for _ in 0..<6000 {
            let text = String((0..<Int(generator.next() % 14)).map { _ in alphabet[Int(generator.next() % UInt64(alphabet.count))] })
            var fast: [String] = []
            let accepted = ASCIIWords.forEach(text) { fast.append(String(decoding: $0, as: UTF8.self)) }
            var icu: [String] = []
            SearchAnalyzer.words(text) { icu.append(SearchAnalyzer.fold($0)) }
            #expect(accepted && fast == icu, "\(text.debugDescription): \(fast) against ICU's \(icu)")
        }
        // Terms too: stemmed and stop words dropped as on ICU's path.
        let analyzer = SearchAnalyzer(language: "en"), code = "def __init__(self, max_size): _ = MAX_SIZE if the_value else 1_000"
        var icuTerms: [String] = []
        analyzer.forEachICUTerm(code) { icuTerms.append($0) }
        #expect(analyzer.terms(code) == icuTerms)
        #expect(icuTerms.contains("__init__") && icuTerms.contains("1_000"))
    }

    /// A page's terms counted by `SearchTermCounts` (each different ASCII word stemmed once)
    /// are those of `forEachTerm`, counted one by one: generated pages of several texts, with
    /// weights, a title, repeated words, stop words, smart punctuation and words ICU reads;
    /// counted with a vocabulary of their own, and with one per language that every page before
    /// them used too (as the pages a thread renders share one).
    @Test func termCountsAreThoseOfEachTermCounted() {
        let pieces = ["the", "The", "libraries", "library", "Swift's", "boxes", "box", "series", "don’t", "l’été", "chevaux", "Häuser", "3.14", "1,000",
                      "a", "and", "it’s", "“quoted”", "—", "…", "word", "Words", "WORDS", "x", "v2", "e.g.", "東京都に住んで", "naïve", "‘tis", "«", "\n", ",",
                      "max_size", "__init__", "snake_cases", "1_000", "_private", "_", "the_libraries"]
        var generator = SeededGenerator(seed: 29)
        let languages = ["en", "fr", "de", "ar"]
        let shared = languages.map { SearchVocabulary(analyzer: SearchAnalyzer(language: $0)) }
        for round in 0..<600 {
            let language = languages[round % 4]
            let analyzer = SearchAnalyzer(language: language)
            var fast = SearchTermCounts(analyzer: analyzer)
            var sharing = SearchTermCounts(vocabulary: shared[round % 4])
            var expected: [String: Int] = [:], length = 0
            for _ in 0..<(1 + Int(generator.next() % 5)) {
                let count = Int(generator.next() % 300)
                let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined(separator: generator.next() % 5 == 0 ? "" : " ")
                let weight = [SearchDocument.Weight.title, SearchDocument.Weight.heading, SearchDocument.Weight.text][Int(generator.next() % 3)]
                let title = weight == SearchDocument.Weight.title
                fast.add(text, weight: weight, title: title)
                sharing.add(text, weight: weight, title: title)
                analyzer.forEachTerm(text) { term in
                    expected[term, default: 0] += weight
                    if title { expected[term]! |= SearchDocument.Weight.inTitle }
                    if weight == SearchDocument.Weight.text { length += 1 }
                }
            }
            #expect(fast.searchTerms.dictionary == expected && fast.length == length, "round \(round)")
            #expect(sharing.searchTerms == fast.searchTerms && sharing.length == length, "round \(round), a shared vocabulary")
            // Kept in the terms' order whatever order they were read in: equal terms, equal documents.
            #expect(fast.searchTerms.terms == fast.searchTerms.terms.sorted() && fast.searchTerms == SearchDocument.SearchTerms(expected), "round \(round)")
        }
        // Thousands of different words of 1 to 12 letters, each twice: the tables of short
        // (up to 8 bytes) and long words grow while a page is counted, and again across pages.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        for round in 0..<3 {
            let words = (0..<6_000).map { _ in String((0...Int(generator.next() % 12)).map { _ in letters[Int(generator.next() % 26)] }) }
            let text = (words + words.reversed()).joined(separator: " ")
            var fast = SearchTermCounts(analyzer: SearchAnalyzer(language: "en")), sharing = SearchTermCounts(vocabulary: shared[0])
            fast.add(text, weight: SearchDocument.Weight.text, title: false)
            sharing.add(text, weight: SearchDocument.Weight.text, title: false)
            var expected: [String: Int] = [:]
            shared[0].analyzer.forEachTerm(text) { expected[$0, default: 0] += 1 }
            #expect(fast.searchTerms.dictionary == expected && sharing.searchTerms == fast.searchTerms, "many words, round \(round)")
            #expect(expected.count > 4_000 && fast.length == expected.values.reduce(0, +))
        }
    }

    /// A page's terms are packed (their bytes one after another): they read back as given, in
    /// the terms' order, whatever the script or length, and encode as the two arrays they were.
    @Test func packedTermsReadBackAsGivenAndEncodeAsBefore() throws {
        var generator = SeededGenerator(seed: 37)
        let pieces = ["a", "swift", "é", "東京", "👩‍💻", "straße", "x", String(repeating: "long", count: 10), "ﬁ", "1"]
        for round in 0..<500 {
            var given: [String: Int] = [:]
            for _ in 0..<Int(generator.next() % 40) {
                let term = (0...Int(generator.next() % 3)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
                given[term] = Int(generator.next() % 300) | (generator.next() % 4 == 0 ? SearchDocument.Weight.inTitle : 0)
            }
            let terms = SearchDocument.SearchTerms(given)
            #expect(terms.dictionary == given && terms.count == given.count, "round \(round)")
            #expect(terms.terms == given.keys.sorted() && terms.weights == given.keys.sorted().map { given[$0]! }, "round \(round)")
            #expect(Array(terms).map(\.0) == terms.terms)
            let json = try JSONEncoder().encode(terms)
            let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
            #expect(object?["terms"] as? [String] == terms.terms && object?["weights"] as? [Int] == terms.weights)
            #expect(try JSONDecoder().decode(SearchDocument.SearchTerms.self, from: json) == terms)
        }
    }

    /// The preview's index after an edit (`SearchIndex.update`) has the files a full build makes
    /// of the same pages, byte for byte: over generated pages in two languages, with edits of
    /// words (new terms, terms gone, shards split and joined), lengths (the average moves),
    /// titles, sections and tags, and pages that come, go or change language. Most edits take
    /// the short way (`Language.update`); the others make the language's index anew.
    @Test func anEditedIndexIsTheIndexOfTheEditedPages() {
        var generator = SeededGenerator(seed: 91)
        func pick(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
        // Prefixes that repeat, so shards split by their second and third letters, and terms
        // that are a split prefix themselves.
        let stems = ["a", "ab", "abc", "abd", "b", "ca", "cé", "東京", "z", "ü", "straße", "mo", "mon", "mont"]
        func term() -> String { stems[pick(stems.count)] + (pick(4) == 0 ? "" : String(pick(60))) }
        var next = 0
        func document(url: String? = nil, language: String? = nil, many: Bool = false) -> SearchDocument {
            next += 1
            let count = 5 + pick(40)
            var terms: [String: Int] = [:]
            for _ in 0..<count { terms[term()] = 1 + pick(9) | (pick(8) == 0 ? SearchDocument.Weight.inTitle : 0) }
            // Hundreds of words of one prefix: its shard splits, and joins again when they go.
            if many { for word in 0..<(300 + pick(900)) { terms["mont\(next)w\(word)"] = 1 } }
            let language = language ?? (pick(5) == 0 ? "fr" : "en")
            let section = ["", "blog", "docs", "notes"][pick(4)]
            return SearchDocument(
                url: url ?? "/\(section)/p\(next)/", json: pick(3) == 0 ? nil : "/p\(next)/index.json", language: language, title: "Title \(pick(5))",
                section: section, date: pick(2) == 0 ? nil : "2026-01-0\(1 + pick(9))", dateText: nil, tags: pick(2) == 0 ? [] : ["t\(pick(4))"],
                summary: pick(2) == 0 ? "" : "Summary \(pick(9))", id: "p\(next)", text: nil, terms: .init(terms), length: 40 + pick(40) + (pick(20) == 0 ? 400 : 0))
        }
        let languages = [SiteLanguage(code: "en", isDefault: true), SiteLanguage(code: "fr", isDefault: false)]
        var pages = Dictionary(uniqueKeysWithValues: (0..<300).map { _ in document() }.map { ($0.url, $0) })
        var index = SearchIndex.make(Array(pages.values), languages: languages, translations: [:])
        func bytes(_ file: OutputFile) -> Data? { if case .data(let data) = file.contents { data } else { nil } }
        var folder = Dictionary(uniqueKeysWithValues: index.flatMap(\.files).map { ($0.path, bytes($0)) })
        var shortWays = 0, shardCounts: [Int] = [], large: [String] = []
        for step in 0..<90 {
            var changed: [(url: String, document: SearchDocument?)] = []
            for _ in 0..<(1 + pick(3)) {
                let url = pages.keys.sorted()[pick(pages.count)]
                switch pick(12) {
                case 0: changed.append((url, nil))
                case 1:
                    let url = "/new/p\(step)-\(pick(1000))/"
                    changed.append((url, document(url: url)))
                case 2: changed.append((url, document(url: url, language: pages[url]!.language == "en" ? "fr" : "en")))
                case 3:
                    if let big = large.popLast(), let page = pages[big] {
                        changed.append((big, document(url: big, language: page.language)))
                    } else {
                        changed.append((url, document(url: url, language: pages[url]!.language, many: true)))
                        large.append(url)
                    }
                default:
                    // The same page with other words, most of the same length.
                    var edited = document(url: url, language: pages[url]!.language)
                    if pick(3) > 0 { edited.length = pages[url]!.length + pick(3) - 1 }
                    if pick(2) == 0 { edited.title = pages[url]!.title; edited.tags = pages[url]!.tags; edited.section = pages[url]!.section }
                    changed.append((url, edited))
                }
            }
            // One change per page, as the preview makes them.
            changed = Dictionary(changed.map { ($0.url, $0) }, uniquingKeysWith: { _, last in last }).values.sorted { $0.url < $1.url }
            var trial = index
            shortWays += trial.indices.allSatisfy({ trial[$0].update(changed) != nil }) ? 1 : 0
            let previous = index
            for (url, document) in changed { pages[url] = document }
            let made = SearchIndex.update(&index, with: changed)
            // A whole build of the preview finds the changed pages itself; every other one with
            // other strings for the search dialog, which only `meta.json` has.
            let strings: [String: TranslationTable] = step % 2 == 0 ? [:] : ["en": TranslationTable(language: "en", entries: ["search.placeholder": .text("Find \(step)")])]
            let found = SearchIndex.make(Array(pages.values), languages: languages, translations: strings, from: previous)
            for path in made.removed { folder[path] = nil }
            for file in made.files { folder[file.path] = bytes(file) }
            let full = SearchIndex.make(Array(pages.values), languages: languages, translations: [:])
            let expected = Dictionary(uniqueKeysWithValues: full.flatMap(\.files).map { ($0.path, bytes($0)) })
            #expect(folder.keys.sorted() == expected.keys.sorted(), "step \(step): the same files")
            let fullWithStrings = Dictionary(uniqueKeysWithValues: SearchIndex.make(Array(pages.values), languages: languages, translations: strings).flatMap(\.files).map { ($0.path, bytes($0)) })
            #expect(found.flatMap(\.files).map { ($0.path, bytes($0)) }.allSatisfy { fullWithStrings[$0.0] == $0.1 } && found.flatMap(\.files).count == expected.count, "step \(step)")
            let different = expected.keys.filter { folder[$0] != expected[$0] }.sorted()
            #expect(different.isEmpty, "step \(step): \(different)")
            if !different.isEmpty { return }
            shardCounts.append(expected.keys.filter { $0.hasPrefix("search/en/terms/") }.count)
        }
        #expect(shortWays > 30, "\(shortWays) of 90 edits took the short way")
        let moves = zip(shardCounts, shardCounts.dropFirst())
        #expect(moves.contains { $0 < $1 } && moves.contains { $0 > $1 } && shardCounts.min()! > 4, "the shards split and join: \(shardCounts)")
    }

    /// A section's own page is found by bytes as `hasSuffix("/<section>/")` found it, over
    /// generated URLs and sections (a page's section is cut from its URL, so the two spell a
    /// letter alike; marks after a slash or a letter change the graphemes, not the answer).
    @Test func ownPagesAreFoundAsBySuffix() {
        var generator = SeededGenerator(seed: 17)
        let pieces = ["/", "a", "blog", "e", "\u{301}", "東京", "x/"]
        for _ in 0..<5_000 {
            let url = (0..<Int(generator.next() % 6)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let section = (0..<Int(generator.next() % 3)).map { _ in pieces[1 + Int(generator.next() % UInt64(pieces.count - 1))] }.joined()
            #expect(SearchIndex.isOwnPage(url: url, section: section) == url.hasSuffix("/\(section)/") || section.isEmpty, "\(url.debugDescription) \(section.debugDescription)")
        }
    }

    /// The text of a page's HTML drops the markers where code or a component is placed (each a
    /// space), found with `memchr`, as the byte-by-byte reading it replaced did, over generated
    /// HTML: markers open and closed, nested, unclosed, beside tags and multi-byte text.
    @Test func placementMarkersLeaveASpaceAsTheByteReadingDid() {
        func reference(_ text: String) -> String {
            guard text.utf8.contains(5) else { return text }
            var bytes: [UInt8] = []
            var inMarker = false
            for byte in text.utf8 {
                if byte == 5 { inMarker = true } else if inMarker { if byte == 6 { inMarker = false; bytes.append(32) } } else { bytes.append(byte) }
            }
            return String(decoding: bytes, as: UTF8.self)
        }
        let pieces = ["\u{5}c0\u{6}", "\u{5}", "\u{6}", "\u{5}x12\u{6}", "<p>", "</p>", "word", " ", "é", "🎉", "<code>a</code>", "&amp;", "\n"]
        var generator = SeededGenerator(seed: 31)
        for round in 0..<3_000 {
            let html = (0..<Int(generator.next() % 16)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            #expect(SearchDocument.text(ofHTML: html) == reference(HTMLText.plain(html)), "round \(round): \(html.debugDescription)")
        }
    }

    /// The browser's analyzer gives every text the build's terms: random texts of each
    /// language's letters, accents, apostrophes, Arabic marks, Greek and CJK.
    @Test(.enabled(if: Tools.available("node"), "node is not on PATH"))
    func theBrowserReadsTextExactlyAsTheBuild() async throws {
        let pieces = [
            "chevaux", "Été", "l'Été", "L’arbre", "qu'il", "Häuser", "STRASSE", "Straße", "grandes", "heureuse", "actrices", "bateaux", "jeux",
            "libraries", "boxes", "Swift's", "series", "3.14", "2026", "v2", "naïve", "ÉCOLE", "ΟΔΟΣ", "Ὀδυσσεύς", "İstanbul", "Œuvre", "ﬁle",
            "الْمَكْتَبَاتُ", "وبالكتاب", "مدرسة", "إلى", "أحمد", "ـكتـاب", "東京都に住んでいます", "我们的网站", "がぎぐ", "한국어",
            "hello-world", "e-mail", "don't", "I'm", "o'clock", "the", "The", "les", "Der", "und", "fur", "which", "في", "to", "—", "«", "»", ",", ".", "!", "?", "\n", " ", "  ",
        ]
        var generator = SeededGenerator(seed: 7)
        let languages = ["en", "fr", "de", "ar", "ja"]
        var cases: [(language: String, text: String)] = []
        for index in 0..<500 {
            let count = 1 + Int(generator.next() % 8)
            let text = (0..<count).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined(separator: generator.next() % 3 == 0 ? "" : " ")
            cases.append((languages[index % languages.count], text))
        }
        let folder = NSTemporaryDirectory() + "tessera-analyzer-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var metas: [String: String] = [:]
        for language in languages {
            let files = SearchIndex.make([], languages: [SiteLanguage(code: language, isDefault: true)], translations: [:]).flatMap(\.files)
            guard case .data(let data)? = files.first(where: { $0.path.hasSuffix("meta.json") })?.contents else { Issue.record("no meta.json"); return }
            metas[language] = String(decoding: data, as: UTF8.self)
        }
        let input = JSONValue.object([
            "metas": .object(JSONObject(metas.mapValues { JSONValue.string($0) })),
            "cases": .array(cases.map { .array([.string($0.language), .string($0.text)]) }),
        ])
        try Data(input.bytes).write(to: URL(fileURLWithPath: folder + "/input.json"))
        let script = """
            import { Analyzer } from "\(URL(fileURLWithPath: Self.searchScript).absoluteString)";
            import { readFileSync } from "node:fs";
            const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
            const analyzers = Object.fromEntries(Object.entries(input.metas).map(([l, m]) => [l, new Analyzer(JSON.parse(m))]));
            console.log(JSON.stringify(input.cases.map(([l, t]) => analyzers[l].terms(t))));
            """
        try script.write(toFile: folder + "/run.mjs", atomically: true, encoding: .utf8)
        let (status, output) = try await Tools.run("node", [folder + "/run.mjs", folder + "/input.json"])
        #expect(status == 0, "\(output)")
        let browser = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [[String]], "\(String(output.prefix(500)))")
        #expect(browser.count == cases.count)
        var differences: [String] = []
        for (index, (language, text)) in cases.enumerated() where index < browser.count {
            let build = SearchAnalyzer(language: language).terms(text)
            if build != browser[index] { differences.append("\(language) \(text.debugDescription): build \(build), browser \(browser[index])") }
        }
        #expect(differences.isEmpty, "\(differences.count) of \(cases.count) differ:\n\(differences.prefix(10).joined(separator: "\n"))")
    }

    /// Queries answered by `search.js` itself, over the files a build wrote (Node, with `fetch`
    /// reading them): a word only one page's body has, a French plural for a singular, a title
    /// ranked over a body, a word being typed, and no result.
    @Test(.enabled(if: Tools.available("node"), "node is not on PATH"))
    func queriesFindThePagesTheirWordsAreOn() async throws {
        let site = try Self.site([
            "content/blog/engines.md": "---\ntitle: Engines\n---\nSteam and zeppelin engines alike.\n",
            "content/blog/kayaks.md": "---\ntitle: Kayaks\n---\nA short note.\n",
            "content/blog/paddling.md": "---\ntitle: Paddling\n---\n## Kayak basics\n\nKayak.\n\n## Kayak safety\n\nKayak.\n\n## Kayak trips\n\nKayak kayak kayak.\n",
            "content/blog/gear.md": "---\ntitle: Gear\n---\nKayakmaster, kayakmaster, kayakmaster.\n",
        ])
        try site.build()
        let script = """
            import { Index } from "\(URL(fileURLWithPath: Self.searchScript).absoluteString)";
            import { readFileSync } from "node:fs";
            globalThis.fetch = async (url) => {
              const path = url.split("?")[0];
              try { const text = readFileSync(process.argv[2] + path, "utf8"); return { ok: true, status: 200, json: async () => JSON.parse(text) }; }
              catch { return { ok: false, status: 404 }; }
            };
            const answer = async (language, query) => {
              const found = await new Index("/", language).search(query);
              return Promise.all(found.results.map(async (r) => (await r.data()).url));
            };
            console.log(JSON.stringify({
              zeppelin: await answer("en", "zeppelin "),
              engines: await answer("en", "engines "),
              kayak: await answer("en", "kayak "),
              typingKayak: await answer("en", "kayak"),
              fjord: await answer("en", "fjord "),
              typing: await answer("en", "zepp"),
              both: await answer("en", "zeppelin dawn "),
              chevaux: await answer("fr", "chevaux "),
              none: await answer("en", "xylophone "),
            }));
            """
        try script.write(toFile: site.root + "/query.mjs", atomically: true, encoding: .utf8)
        let (status, output) = try await Tools.run("node", [site.root + "/query.mjs", site.output])
        #expect(status == 0, "\(output)")
        let answers = try #require(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: [String]], "\(output)")
        #expect(answers["fjord"] == ["/blog/airships/"])
        #expect(answers["zeppelin"].map(Set.init) == ["/blog/airships/", "/blog/engines/"], "not the hidden, legal or 404 pages")
        #expect(answers["engines"]?.first == "/blog/engines/", "the title's word first: \(answers["engines"] ?? [])")
        #expect(answers["kayak"] == ["/blog/kayaks/", "/blog/paddling/"], "a title before three headings and a body: \(answers["kayak"] ?? [])")
        #expect(answers["typingKayak"] == ["/blog/kayaks/", "/blog/paddling/", "/blog/gear/"], "a rarer longer word after the word itself: \(answers["typingKayak"] ?? [])")
        #expect(answers["typing"].map(Set.init) == ["/blog/airships/", "/blog/engines/"])
        #expect(answers["both"] == ["/blog/airships/"], "every word must be on the page")
        #expect(answers["chevaux"] == ["/fr/blog/chevaux/"])
        #expect(answers["none"] == [])
    }

    /// The index is made on another core from the end of rendering, while the steps before the
    /// search step run: it is the index the search step makes itself, and a step that changes
    /// the documents in between (a plugin) has its documents indexed.
    @Test func theIndexMadeAheadIsTheSearchSteps() throws {
        let site = try Self.site()
        try site.build()
        let search = { (root: String) in OutputSafetyTests.snapshot(root).filter { $0.key.hasPrefix("search/") || $0.key.hasPrefix("api/search/") } }
        let ahead = search(site.output)
        #expect(ahead.count > 8)
        let position = try #require(BuildPipeline.standard.render.steps.firstIndex { $0.name == "search index" })
        // The same site, its index made by the search step.
        var pipeline = BuildPipeline.standard
        pipeline.render.steps.insert(Step("no index ahead") { rendered, _ in
            #expect(rendered.searchIndexAhead != nil, "the index is being made ahead")
            rendered.searchIndexAhead = nil
        }, at: position)
        var options = site.options()
        options.outputDirectory = site.root + "/in-step"
        try SiteBuilder(options: options, pipeline: pipeline).build()
        #expect(search(site.root + "/in-step") == ahead)
        // A step that leaves a page out of search.
        pipeline = BuildPipeline.standard
        pipeline.render.steps.insert(Step("leave boats out") { rendered, _ in rendered.searchDocuments.removeAll { $0.url == "/blog/boats/" } }, at: position)
        options.outputDirectory = site.output
        try SiteBuilder(options: options, pipeline: pipeline).build()
        #expect(try Self.indexed(site, "en") == ["/", "/blog/airships/"])
        #expect(try !site.read("api/search/en.json").contains("Ferries"))
    }

    /// A build that keeps pages makes its index ahead too, with the kept pages' stored documents;
    /// a step that changes which pages are kept has the search step make it.
    @Test func aCachedBuildsIndexMadeAheadFollowsTheKeptPages() throws {
        let site = try Self.site(["content/blog/canoes.md": "---\ntitle: Canoes\ndate: 2026-02-02\n---\nPaddles and canoes.\n"])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        let position = try #require(BuildPipeline.standard.render.steps.firstIndex { $0.name == "search index" })
        /// Builds into `folder` with the airships' second paragraph `edit` and `step` before the search step.
        func build(_ folder: String, edit: String, _ step: Step<RenderedSite>? = nil) throws -> [String: Data] {
            try site.write("content/blog/airships.md", "---\ntitle: Airships of the north\ndate: 2026-03-01\ntags: [travel]\n---\nThe zeppelin crossed the fjord at dawn.\n\n\(edit)\n")
            var pipeline = BuildPipeline.standard
            if let step { pipeline.render.steps.insert(step, at: position) }
            options.outputDirectory = site.root + "/" + folder
            let report = try SiteBuilder(options: options, pipeline: pipeline).build()
            #expect(step == nil || report.reusedPages > 0, "\(folder): pages are kept")
            return OutputSafetyTests.snapshot(options.outputDirectory!).filter { $0.key.hasPrefix("search/") }
        }
        let folders = ["ahead", "in-step", "fewer", "fewer-in-step"]
        for folder in folders { _ = try build(folder, edit: "First.") }
        let ahead = try build("ahead", edit: "Second.", Step("made ahead") { rendered, _ in
            #expect(rendered.searchIndexAhead != nil, "the index is being made ahead")
        })
        let inStep = try build("in-step", edit: "Second.", Step("made in the step") { rendered, _ in rendered.searchIndexAhead = nil })
        #expect(ahead == inStep && ahead.count > 4)
        // A kept page no longer among the pages: its document is not indexed.
        let canoes: @Sendable (inout RenderedSite) -> Void = { rendered in rendered.pages.removeAll { $0.url == "/blog/canoes/" } }
        let fewer = try build("fewer", edit: "Second.", Step("a kept page left out") { rendered, _ in canoes(&rendered) })
        let fewerInStep = try build("fewer-in-step", edit: "Second.", Step("a kept page left out, made in the step") { rendered, _ in
            rendered.searchIndexAhead = nil
            canoes(&rendered)
        })
        #expect(fewer == fewerInStep)
        #expect(fewer != ahead && !fewer.values.contains { String(decoding: $0, as: UTF8.self).contains("/blog/canoes/") })
        #expect(ahead.values.contains { String(decoding: $0, as: UTF8.self).contains("/blog/canoes/") })
    }

    /// Each output folder has its own search documents in the cache: a build into another
    /// folder, of an edit since undone, does not give the first folder's kept page its text.
    @Test func eachOutputFolderKeepsItsOwnSearchDocuments() throws {
        let site = try Self.site()
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        let boats = "---\ntitle: Boats\ndate: 2026-02-01\ntags: [travel, sea]\n---\nFerries and boats of the harbour.\n"
        try SiteBuilder(options: options).build()
        try site.write("content/blog/boats.md", boats + "\nGiraffes on deck.\n")
        var other = options
        other.outputDirectory = site.root + "/other"
        try SiteBuilder(options: other).build()
        // The edit undone, and another page's body edited: the boats page is kept.
        try site.write("content/blog/boats.md", boats)
        try site.write("content/blog/airships.md", "---\ntitle: Airships of the north\ndate: 2026-03-01\ntags: [travel]\n---\nThe zeppelin crossed the fjord at dawn.\n\n## Engines\n\nFour engines hummed, then five.\n")
        let report = try SiteBuilder(options: options).build()
        #expect(report.reusedPages > 0)
        let search = OutputSafetyTests.snapshot(site.output).filter { $0.key.hasPrefix("search/") || $0.key.hasPrefix("api/search/") }
        #expect(!search.values.contains { String(decoding: $0, as: UTF8.self).lowercased().contains("giraffe") })
        #expect(try site.differencesFromAFullBuild() == [])
        // The store of earlier releases, one for the whole cache, goes with the next build's.
        try site.write(".tessera/cache/" + SearchStore.sharedName, "old")
        try site.write("content/blog/airships.md", "---\ntitle: Airships of the north\ndate: 2026-03-01\ntags: [travel]\n---\nThe zeppelin crossed the fjord at dawn.\n")
        try SiteBuilder(options: options).build()
        #expect(!FileManager.default.fileExists(atPath: options.cacheDirectory! + "/" + SearchStore.sharedName))
        #expect(FileManager.default.fileExists(atPath: SearchStore.path(in: options.cacheDirectory!, output: site.output)))
    }

    /// Cached builds write the index a full build writes: after a body edit (pages kept from the
    /// last build), a new page, a removed one, and without the cache's documents.
    @Test func cachedBuildsIndexAsAFullBuild() throws {
        let site = try Self.site()
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        func build() throws { try SiteBuilder(options: options).build() }
        try build()
        let steps: [(String, () throws -> Void)] = [
            ("a body edit", { try site.write("content/blog/boats.md", "---\ntitle: Boats\ndate: 2026-02-01\ntags: [travel, sea]\n---\nKayaks now.\n") }),
            ("a new page", { try site.write("content/blog/trains.md", "---\ntitle: Trains\n---\nNight trains.\n") }),
            ("a removed page", { try FileManager.default.removeItem(atPath: site.root + "/content/blog/airships.md") }),
            ("no documents in the cache", {
                try FileManager.default.removeItem(atPath: SearchStore.path(in: options.cacheDirectory!, output: site.output))
                try site.write("content/blog/trains.md", "---\ntitle: Trains\n---\nNight trains, edited.\n")
            }),
        ]
        for (name, change) in steps {
            try change()
            try build()
            #expect(try site.differencesFromAFullBuild() == [], "\(name)")
        }
        #expect(try Self.indexed(site, "en") == ["/", "/blog/boats/", "/blog/trains/"])
    }

    /// A cached build that keeps pages (bodies edited) updates the last build's index, made again
    /// from its stored documents while the build renders, with the pages that differ. Over
    /// generated edits through real builds, in two languages: bodies (after the first paragraph,
    /// the summary lists show) of other words, with headings, much longer (the average length
    /// moves) or none; and between them edits of
    /// front matter, new pages and removed ones (no page is kept: the index is made whole).
    /// Every cached build's output is a full build's; at the root of a domain and below it.
    @Test(arguments: ["https://example.com/", "https://example.com/sub/"])
    func aCachedBuildUpdatesTheLastBuildsIndexAsAFullBuildWouldMakeIt(baseURL: String) throws {
        var generator = SeededGenerator(seed: 29)
        func pick(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
        let words = ["zeppelin", "fjord", "dawn", "engine", "harbour", "ferry", "kayak", "straße", "été", "東京", "mont", "montagne", "abc", "abd"]
        func text(_ count: Int) -> String { (0..<count).map { _ in words[pick(words.count)] + (pick(3) == 0 ? String(pick(40)) : "") }.joined(separator: " ") }
        func frontMatter(_ title: String, tags: [String] = ["travel"], searched: Bool = true) -> String {
            "---\ntitle: \(title)\ndate: 2026-0\(1 + pick(9))-1\(pick(9))\ntags: [\(tags.joined(separator: ", "))]\n\(searched ? "" : "search: false\n")---\n"
        }
        var heads: [String: String] = [:], files: [String: String] = [:]
        for number in 0..<24 {
            let name = "content/blog/post-\(number)\(number % 4 == 0 ? ".fr" : "").md"
            heads[name] = frontMatter("Post \(number)") + "A lead of \(number).\n\n"
            files[name] = heads[name]! + text(20 + pick(60)) + "\n"
        }
        files["site.yml"] = "title: T\nbaseURL: \(baseURL)\ntheme: mini\nlanguages: [en, fr]\ntaxonomies: [tags]\nsearch: { documents: true }\nbuildDate: 2026-11-22T12:00:00Z\n"
        let site = try Self.site(files)
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        var pipeline = BuildPipeline.standard
        let position = try #require(pipeline.render.steps.firstIndex { $0.name == "search index" })
        let updated = Mutex(false)
        pipeline.render.steps.insert(Step("the way the index is made") { rendered, _ in
            updated.withLock { $0 = rendered.searchIndexAhead?.updatesLastIndex == true }
        }, at: position)
        try SiteBuilder(options: options, pipeline: pipeline).build()
        #expect(!updated.withLock { $0 }, "a first build has no last index")
        var added = 0, keeping = 0
        for round in 0..<36 {
            let name = heads.keys.sorted()[pick(heads.count)]
            var change = "", body = true
            switch pick(9) {
            case 0, 1: change = "a body of other words"; try site.write(name, heads[name]! + text(10 + pick(80)) + "\n")
            case 2: change = "headings"; try site.write(name, heads[name]! + "## \(text(2))\n\n\(text(30))\n\n## \(text(1))\n\n\(text(5))\n")
            case 3: change = "a much longer body"; try site.write(name, heads[name]! + text(600) + "\n")
            case 4: change = "nothing after the lead"; try site.write(name, heads[name]!)
            case 5:
                change = "front matter"
                body = false
                heads[name] = frontMatter("Retitled \(round) \(words[pick(words.count)])", tags: pick(2) == 0 ? ["sea", "tag-\(pick(3))"] : [], searched: pick(4) != 0) + "A lead.\n\n"
                try site.write(name, heads[name]! + text(30) + "\n")
            case 6:
                change = "a new page"
                body = false
                added += 1
                let new = "content/blog/new-\(added)\(pick(2) == 0 ? ".fr" : "").md"
                heads[new] = frontMatter("New \(added)") + "A new lead.\n\n"
                try site.write(new, heads[new]! + text(40) + "\n")
            case 7 where heads.count > 12:
                change = "a removed page"
                body = false
                try FileManager.default.removeItem(atPath: site.root + "/" + name)
                heads[name] = nil
            default: change = "a few more words"; try site.write(name, heads[name]! + text(40) + "\n\n" + text(3) + "\n")
            }
            let report = try SiteBuilder(options: options, pipeline: pipeline).build()
            let kept = report.reusedPages > 0, updates = updated.withLock { $0 }
            #expect(!kept || updates, "round \(round), \(change): the last build's index is updated when pages are kept")
            #expect(body || !updates && !kept, "round \(round), \(change): after an edit of front matter, pages, and the index, are made anew")
            #expect(try site.differencesFromAFullBuild() == [], "round \(round), \(change) of \(name)")
            if kept { keeping += 1 }
        }
        #expect(keeping > 12 && added > 0 && heads.count != 24 + added, "the edits were of every kind: \(keeping) builds kept pages")
        let urls = try Self.indexed(site, "en")
        #expect(urls.count > 10 && urls.allSatisfy { $0.hasPrefix(URL(string: baseURL)!.path) })
    }

    /// A cached build removes the shards a smaller index no longer has, and never a file of the
    /// site's own that stands where a shard could (`static/search/...`).
    @Test func aSmallerIndexRemovesItsOldShardsAndNoFileOfTheSite() throws {
        var words = ""
        // Words of every first letter: a shard each, at least.
        for index in 0..<520 { words += String(UnicodeScalar(UInt8(97 + index % 26))) + String(UnicodeScalar(UInt8(97 + (index / 26) % 26))) + "qx\(index) " }
        let site = try Self.site([
            "static/search/en/terms/999.json": "{\"mine\":true}",
            "content/blog/many.md": "---\ntitle: Many\nsummary: Words.\n---\n\(words)\n",
        ])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: options).build()
        let before = try FileManager.default.contentsOfDirectory(atPath: site.output + "/search/en/terms").count
        try site.write("content/blog/many.md", "---\ntitle: Many\nsummary: Words.\n---\nFew words now.\n")
        let (state, _) = try SiteBuilder(options: options).run()
        #expect(state.keptStructure, "a body edit keeps the last build's files")
        let after = try FileManager.default.contentsOfDirectory(atPath: site.output + "/search/en/terms").count
        #expect(after < before, "\(before) → \(after) shards")
        #expect(try site.read("search/en/terms/999.json") == "{\"mine\":true}")
        #expect(try site.differencesFromAFullBuild() == [])
    }

    @Test func searchOffWritesNoIndexAndBadOptionsAreErrors() throws {
        let off = try Self.site(["site.yml": "title: T\ntheme: mini\nlanguages: [en, fr]\nsearch: false\n"])
        try off.build()
        #expect(!off.exists("search"))
        let bad = try Self.site(["site.yml": "title: T\ntheme: mini\nlanguages: [en, fr]\nsearch: { exclude: [legal] }\n"])
        #expect(bad.diagnostics().first?.hasPrefix("site.yml:4:21: error: a pattern of 'search.exclude' must be a URL path") == true, "\(bad.diagnostics())")
        let page = try Self.site(["content/blog/boats.md": "---\ntitle: Boats\nsearch: no thanks\n---\n"])
        #expect(page.diagnostics().first?.hasPrefix("content/blog/boats.md:3:9: error: 'search' must be true or false") == true, "\(page.diagnostics())")
    }

    /// A page's own components are searched by their text fields, unless their schema says
    /// `search: false`; what a list shows of other pages is theirs, not the list's.
    @Test func componentsTextIsSearchedUnlessTheirSchemaSaysNot() throws {
        let site = try Self.site([
            "themes/mini/components/promo.yml": "search: false\nfields:\n  text: { type: text, required: true }\n",
            "themes/mini/components/promo.mustache": "<aside>{{text}}</aside>",
            "themes/mini/components/card.yml": "fields:\n  title: { type: text, required: true }\n",
            "themes/mini/components/card.mustache": "<h3>{{title}}</h3>",
            "content/feed.md": """
                ---
                title: Feed
                sections:
                  - items:
                      - { component: note, message: "A *walrus* on the ice" }
                      - { component: promo, text: Subscribe to the albatross newsletter }
                  - query: { under: blog, component: card }
                ---
                """,
        ])
        try site.build()
        let terms = try (0..<60).compactMap { try? site.read("search/en/terms/\($0).json") }.joined()
        #expect(terms.contains("\"walrus\":"), "an inline-markdown field's words")
        #expect(!terms.contains("\"albatross\":"), "search: false in the schema")
        // "fjord" is on the airships page alone: the list showing it does not take its words.
        let fjord = try #require(terms.firstRange(of: "\"fjord\":[").map { String(terms[$0.upperBound...].prefix { $0 != "]" }) })
        #expect(!fjord.contains(","), "one page: \(fjord)")
        let bad = try Self.site(["themes/mini/components/promo.yml": "search: maybe\nfields:\n  text: text\n"])
        #expect(bad.diagnostics().first?.hasPrefix("themes/mini/components/promo.yml:1:9: error: a schema's 'search' must be true or false") == true, "\(bad.diagnostics())")
    }

    @Test func excludePatternsMatchSegments() {
        let match = SiteConfiguration.SearchOptions.matches
        #expect(match("/legal/", "/legal/") && !match("/legal/terms/", "/legal/"))
        #expect(match("/legal/terms/", "/legal/*") && !match("/legal/a/b/", "/legal/*"))
        #expect(match("/legal/a/b/", "/legal/**") && match("/legal/", "/legal/**"))
        #expect(match("/blog/draft-one/", "/blog/draft-*") && !match("/blog/final/", "/blog/draft-*"))
    }
}
