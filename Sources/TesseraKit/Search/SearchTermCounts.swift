import Foundation
import Synchronization

/// A page's terms with their counts, as `SearchDocument` keeps them, counted without making a
/// `String` per word.
///
/// A page has a few hundred different words among its thousands, and a site's pages share most
/// of theirs. Each word `ASCIIWords` reads is looked up in a `SearchVocabulary`, which the pages
/// counted on one thread share: it remembers the word's term, or that it is a stop word, so the
/// stop word check, stemming and the term's `String` happen once per word and thread, not once
/// per use or per page. Words ICU reads are folded and stemmed each time, as
/// `SearchAnalyzer.forEachICUTerm` does. The result is `forEachTerm`'s, counted (a differential
/// test checks it).
struct SearchTermCounts {
    let analyzer: SearchAnalyzer
    private let vocabulary: SearchVocabulary
    /// Term → count, as `SearchDocument.terms` holds them, by the term's number on this page.
    private(set) var terms: [String] = []
    private(set) var counts: [Int] = []
    /// The number of terms added with `Weight.text`.
    private(set) var length = 0

    /// Counts a page's terms with `vocabulary`, which no other page may use until this one is
    /// counted.
    init(vocabulary: SearchVocabulary) {
        analyzer = vocabulary.analyzer
        self.vocabulary = vocabulary
        vocabulary.beginPage()
        terms.reserveCapacity(256)
        counts.reserveCapacity(256)
    }

    /// Counts with a vocabulary of its own.
    init(analyzer: SearchAnalyzer) {
        self.init(vocabulary: SearchVocabulary(analyzer: analyzer))
    }

    /// `terms` and `counts`, as a document keeps them.
    var searchTerms: SearchDocument.SearchTerms { SearchDocument.SearchTerms(terms: terms, weights: counts) }

    /// Adds each term of `text` with `weight`, and the `inTitle` bit for a title's, as
    /// `SearchDocument` counts them.
    mutating func add(_ text: String, weight: Int, title: Bool) {
        let vocabulary = self.vocabulary
        let read = ASCIIWords.forEach(text) { word in
            let term = vocabulary.term(ofWord: word)
            if term >= 0 { count(term, weight: weight, title: title) }
        }
        if read { return }
        analyzer.forEachICUTerm(text) { term in
            count(vocabulary.number(of: term), weight: weight, title: title)
        }
    }

    /// Counts the vocabulary's term `term` on this page.
    private mutating func count(_ term: Int32, weight: Int, title: Bool) {
        var index = vocabulary.pageIndex(of: term)
        if index < 0 {
            index = terms.count
            vocabulary.setPageIndex(index, of: term)
            terms.append(vocabulary.terms[Int(term)])
            counts.append(0)
        }
        counts[index] += weight
        if title { counts[index] |= SearchDocument.Weight.inTitle }
        if weight == SearchDocument.Weight.text { length += 1 }
    }
}

/// The words and terms one thread has read, across the pages it counts (`SearchTermCounts`), for
/// one analyzer. Not shared between threads: `take(for:)` lends one to a page, `giveBack()` ends
/// the loan. So its tables skip Swift's run-time exclusivity check, which cost more than the
/// lookups themselves (a `swift_beginAccess` per table read, five per word).
final class SearchVocabulary: @unchecked Sendable {
    let analyzer: SearchAnalyzer

    /// The words read, their bytes one after another, and an open-addressing table of them:
    /// each slot is 0 (empty) or a word's index + 1.
    @exclusivity(unchecked) private var wordBytes: [UInt8] = []
    @exclusivity(unchecked) private var words: [Word] = []
    @exclusivity(unchecked) private var slots: [Int32]

    private struct Word {
        var start: Int32, count: Int32, hash: UInt32
        /// Its term's number, or -1 for a stop word.
        var term: Int32
    }

    /// Each term by its number, and each number by its term.
    @exclusivity(unchecked) private(set) var terms: [String] = []
    @exclusivity(unchecked) private var numbers: [String: Int32] = [:]

    /// Per term: its index on the page being counted, valid when its stamp is the page's.
    @exclusivity(unchecked) private var pageIndexes: [Int32] = []
    @exclusivity(unchecked) private var stamps: [UInt32] = []
    @exclusivity(unchecked) private var page: UInt32 = 0

    init(analyzer: SearchAnalyzer) {
        self.analyzer = analyzer
        slots = [Int32](repeating: 0, count: 1024)
        wordBytes.reserveCapacity(8192)
        words.reserveCapacity(512)
    }

    /// Starts a page: no term has an index on it yet.
    func beginPage() {
        if page == .max {
            stamps.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            page = 0
        }
        page += 1
    }

    /// The index of term `term` on the page being counted, or -1.
    @inline(__always) func pageIndex(of term: Int32) -> Int {
        stamps[Int(term)] == page ? Int(pageIndexes[Int(term)]) : -1
    }

    func setPageIndex(_ index: Int, of term: Int32) {
        stamps[Int(term)] = page
        pageIndexes[Int(term)] = Int32(index)
    }

    /// The number of `term`.
    func number(of term: String) -> Int32 {
        if let number = numbers[term] { return number }
        let number = Int32(terms.count)
        numbers[term] = number
        terms.append(term)
        pageIndexes.append(0)
        stamps.append(0)
        return number
    }

    /// The number of the term of a word `ASCIIWords` read, or -1 for a stop word.
    func term(ofWord word: UnsafeBufferPointer<UInt8>) -> Int32 {
        // FNV-1a: words are short.
        var hash: UInt32 = 2_166_136_261
        for byte in word { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let known = words[Int(slots[slot]) - 1]
            if known.hash == hash, Int(known.count) == word.count,
               wordBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + Int(known.start), word.baseAddress!, word.count) == 0 }) {
                return known.term
            }
            slot = (slot + 1) & mask
        }
        let term = analyzer.term(ofASCIIWord: word).map { number(of: $0) } ?? -1
        words.append(Word(start: Int32(wordBytes.count), count: Int32(word.count), hash: hash, term: term))
        wordBytes.append(contentsOf: word)
        slots[slot] = Int32(words.count)
        if words.count * 2 > slots.count { grow() }
        return term
    }

    /// Twice the slots, the words placed again: at most half are used.
    private func grow() {
        var slots = [Int32](repeating: 0, count: self.slots.count * 2)
        let mask = slots.count - 1
        for (index, word) in words.enumerated() {
            var slot = Int(word.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
        self.slots = slots
    }

    // MARK: Loans

    /// A vocabulary of `analyzer`'s language that no page is using: one a page gave back, or a new one.
    static func take(for analyzer: SearchAnalyzer) -> SearchVocabulary {
        idle.withLock { $0[analyzer.language]?.popLast() } ?? SearchVocabulary(analyzer: analyzer)
    }

    /// Ends the loan. A vocabulary past a million words (tens of megabytes: a site of very many
    /// different words, or text that is not words) is let go rather than kept.
    func giveBack() {
        guard words.count < 1 << 20, wordBytes.count < Int(Int32.max) / 2 else { return }
        Self.idle.withLock { $0[analyzer.language, default: []].append(self) }
    }

    private static let idle = Mutex<[String: [SearchVocabulary]]>([:])
}
