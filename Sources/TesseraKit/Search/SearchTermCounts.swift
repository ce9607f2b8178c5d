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
    /// The vocabulary's number for this page: its counts are this page's while it is current.
    private let page: UInt32
    /// The number of terms added with `Weight.text`.
    private(set) var length = 0

    /// Counts a page's terms with `vocabulary`, which no other page may use until this one's
    /// `searchTerms` are read.
    init(vocabulary: SearchVocabulary) {
        analyzer = vocabulary.analyzer
        self.vocabulary = vocabulary
        page = vocabulary.beginPage()
    }

    /// Counts with a vocabulary of its own.
    init(analyzer: SearchAnalyzer) {
        self.init(vocabulary: SearchVocabulary(analyzer: analyzer))
    }

    /// The terms counted and their counts, as a document keeps them.
    var searchTerms: SearchDocument.SearchTerms {
        precondition(vocabulary.isCounting(page), "a page's terms are read before its vocabulary counts another page")
        return vocabulary.pageTerms()
    }

    /// Adds each term of `text` with `weight`, and the `inTitle` bit for a title's, as
    /// `SearchDocument` counts them.
    mutating func add(_ text: String, weight: Int, title: Bool) {
        let vocabulary = self.vocabulary, bit = title ? SearchDocument.Weight.inTitle : 0
        var words = 0
        let read = ASCIIWords.forEach(text) { word in
            let term = vocabulary.term(ofWord: word)
            if term >= 0 {
                vocabulary.count(term, weight: weight, bit: bit)
                words &+= 1
            }
        }
        if !read {
            words = 0
            analyzer.forEachICUTerm(text) { term in
                vocabulary.count(vocabulary.number(of: term), weight: weight, bit: bit)
                words += 1
            }
        }
        if weight == SearchDocument.Weight.text { length += words }
    }
}

/// The words and terms one thread has read, across the pages it counts (`SearchTermCounts`), for
/// one analyzer, and the counts of the page it is counting. Not shared between threads:
/// `take(for:)` lends one to a page, `giveBack()` ends the loan. So its tables skip Swift's
/// run-time exclusivity check, which cost more than the lookups themselves (a
/// `swift_beginAccess` per table read, five per word).
///
/// A word of up to 8 bytes (nearly every word) is one number (`ASCIIWords.key`) in a table of
/// numbers; a longer one is hashed and its bytes compared. A term's count on the page is kept by
/// its number, and the page's terms are put in order by their first 8 bytes as one number
/// (`String`'s order, for ASCII terms), then by `String`'s `<` where those are equal or a term
/// is not ASCII.
final class SearchVocabulary: @unchecked Sendable {
    let analyzer: SearchAnalyzer

    /// Words of up to 8 bytes by their key, in an open-addressing table (0: empty), and the term
    /// of each slot's word (-1 for a stop word).
    @exclusivity(unchecked) private var shortKeys: [UInt64]
    @exclusivity(unchecked) private var shortTerms: [Int32]
    @exclusivity(unchecked) private var shortCount = 0

    /// Longer words, their bytes one after another, and an open-addressing table of them: each
    /// slot is 0 (empty) or a word's index + 1.
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
    /// Per term: its UTF-8 in `termBytes` (from `termStarts[n]` to `termStarts[n + 1]`), and its
    /// first 8 bytes, the first highest, as one number; 0 … for a term that is not ASCII.
    @exclusivity(unchecked) private var termBytes: [UInt8] = []
    @exclusivity(unchecked) private var termStarts: [Int] = [0]
    @exclusivity(unchecked) private var orderKeys: [UInt64] = []
    @exclusivity(unchecked) private var isASCII: [Bool] = []

    /// Per term: its count on the page being counted, valid when its stamp is the page's; and
    /// the page's terms in the order first counted.
    @exclusivity(unchecked) private var pageCounts: [Int] = []
    @exclusivity(unchecked) private var stamps: [UInt32] = []
    @exclusivity(unchecked) private var counted: [Int32] = []
    @exclusivity(unchecked) private var page: UInt32 = 0

    init(analyzer: SearchAnalyzer) {
        self.analyzer = analyzer
        shortKeys = [UInt64](repeating: 0, count: 1024)
        shortTerms = [Int32](repeating: 0, count: 1024)
        slots = [Int32](repeating: 0, count: 256)
        wordBytes.reserveCapacity(2048)
        words.reserveCapacity(128)
        counted.reserveCapacity(256)
    }

    /// Starts a page, which has counted no term yet, and returns its number.
    func beginPage() -> UInt32 {
        if page == .max {
            stamps.withUnsafeMutableBufferPointer { $0.update(repeating: 0) }
            page = 0
        }
        page += 1
        counted.removeAll(keepingCapacity: true)
        return page
    }

    /// Whether `page` is the page being counted.
    func isCounting(_ page: UInt32) -> Bool { page == self.page }

    /// Adds `weight` and `bit` to the count of term `term` on the page being counted.
    @inline(__always) func count(_ term: Int32, weight: Int, bit: Int) {
        let term = Int(term)
        if stamps[term] != page {
            stamps[term] = page
            pageCounts[term] = 0
            counted.append(Int32(term))
        }
        pageCounts[term] = (pageCounts[term] + weight) | bit
    }

    /// The page's terms in order, with their counts.
    func pageTerms() -> SearchDocument.SearchTerms {
        var order = counted
        order.withUnsafeMutableBufferPointer { order in
            let keys = orderKeys, ascii = isASCII, terms = terms
            order.sort { a, b in
                let a = Int(a), b = Int(b)
                if ascii[a] && ascii[b] && keys[a] != keys[b] { return keys[a] < keys[b] }
                return terms[a] < terms[b]
            }
        }
        var bytes: [UInt8] = [], ends: [UInt32] = [], weights: [UInt32] = []
        ends.reserveCapacity(order.count)
        weights.reserveCapacity(order.count)
        bytes.reserveCapacity(order.reduce(0) { $0 + termStarts[Int($1) + 1] - termStarts[Int($1)] })
        termBytes.withUnsafeBufferPointer { all in
            for term in order {
                let term = Int(term)
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: all[termStarts[term]..<termStarts[term + 1]]))
                precondition(bytes.count <= Int(UInt32.max) && pageCounts[term] <= Int(UInt32.max), "a page's terms fit in 4 GB, its weights in 32 bits")
                ends.append(UInt32(bytes.count))
                weights.append(UInt32(pageCounts[term]))
            }
        }
        return SearchDocument.SearchTerms(packed: bytes, ends: ends, weights: weights)
    }

    /// The number of `term`.
    func number(of term: String) -> Int32 {
        if let number = numbers[term] { return number }
        let number = Int32(terms.count)
        numbers[term] = number
        terms.append(term)
        termBytes.append(contentsOf: term.utf8)
        termStarts.append(termBytes.count)
        var key: UInt64 = 0
        for (index, byte) in term.utf8.prefix(8).enumerated() { key |= UInt64(byte) << (56 - 8 * index) }
        orderKeys.append(key)
        isASCII.append(term.utf8.allSatisfy { $0 < 0x80 })
        pageCounts.append(0)
        stamps.append(0)
        return number
    }

    /// The number of the term of a word `ASCIIWords.forEach` read, or -1 for a stop word.
    @inline(__always) func term(ofWord word: UnsafeBufferPointer<UInt8>) -> Int32 {
        word.count <= 8 ? term(ofShortWord: word) : term(ofLongWord: word)
    }

    private func term(ofShortWord word: UnsafeBufferPointer<UInt8>) -> Int32 {
        let key = ASCIIWords.key(of: word)
        let mask = shortKeys.count - 1
        // Fibonacci hashing: the key's bytes all reach the slot's bits.
        var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
        while true {
            let known = shortKeys[slot]
            if known == key { return shortTerms[slot] }
            if known == 0 { break }
            slot = (slot &+ 1) & mask
        }
        let term = analyzer.term(ofASCIIWord: word).map { number(of: $0) } ?? -1
        shortKeys[slot] = key
        shortTerms[slot] = term
        shortCount += 1
        if shortCount * 2 > shortKeys.count { growShort() }
        return term
    }

    /// Twice the slots of short words, the words placed again: at most half are used.
    private func growShort() {
        var keys = [UInt64](repeating: 0, count: shortKeys.count * 2), terms = [Int32](repeating: 0, count: shortKeys.count * 2)
        let mask = keys.count - 1
        for (key, term) in zip(shortKeys, shortTerms) where key != 0 {
            var slot = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> 32) & mask
            while keys[slot] != 0 { slot = (slot + 1) & mask }
            keys[slot] = key
            terms[slot] = term
        }
        shortKeys = keys
        shortTerms = terms
    }

    private func term(ofLongWord word: UnsafeBufferPointer<UInt8>) -> Int32 {
        // FNV-1a.
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
        guard shortCount + words.count < 1 << 20, wordBytes.count < Int(Int32.max) / 2 else { return }
        Self.idle.withLock { $0[analyzer.language, default: []].append(self) }
    }

    private static let idle = Mutex<[String: [SearchVocabulary]]>([:])
}
