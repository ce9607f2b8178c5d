import Foundation

/// A page's terms with their counts, as `SearchDocument` keeps them, counted without making a
/// `String` per word.
///
/// A page has a few hundred different words among its thousands. Each different word read by
/// `ASCIIWords` is looked up once in a table keyed on its bytes (lower case, as read), which
/// remembers its term, or that it is a stop word: stemming, the stop word check and the term's
/// `String` happen once per word, not once per use. Words ICU reads are folded and stemmed each
/// time, as `SearchAnalyzer.forEachTerm` does. The result is `forEachTerm`'s, counted (a
/// differential test checks it).
struct SearchTermCounts {
    let analyzer: SearchAnalyzer
    /// Term → count, as `SearchDocument.terms` holds them, by the term's number.
    private(set) var terms: [String] = []
    private(set) var counts: [Int] = []
    private var numbers: [String: Int] = [:]
    /// The number of terms added with `Weight.text`.
    private(set) var length = 0

    /// The words read so far, their bytes one after another, and an open-addressing table of
    /// them: each slot is 0 (empty) or a word's index + 1.
    private var wordBytes: [UInt8] = []
    private var words: [Word] = []
    private var slots: [Int32]

    private struct Word {
        var start: Int32, count: Int32, hash: UInt32
        /// Its term's number, or -1 for a stop word.
        var term: Int32
    }

    init(analyzer: SearchAnalyzer) {
        self.analyzer = analyzer
        slots = [Int32](repeating: 0, count: 512)
        wordBytes.reserveCapacity(4096)
        words.reserveCapacity(256)
        numbers.reserveCapacity(256)
    }

    /// `terms` and `counts`, as a document keeps them.
    var searchTerms: SearchDocument.SearchTerms { SearchDocument.SearchTerms(terms: terms, weights: counts) }

    /// Adds each term of `text` with `weight`, and the `inTitle` bit for a title's, as
    /// `SearchDocument` counts them.
    mutating func add(_ text: String, weight: Int, title: Bool) {
        let read = ASCIIWords.forEach(text) { word in
            let term = self.term(ofWord: word)
            if term >= 0 { count(term, weight: weight, title: title) }
        }
        if read { return }
        analyzer.forEachICUTerm(text) { term in
            count(number(of: term), weight: weight, title: title)
        }
    }

    private mutating func count(_ term: Int, weight: Int, title: Bool) {
        counts[term] += weight
        if title { counts[term] |= SearchDocument.Weight.inTitle }
        if weight == SearchDocument.Weight.text { length += 1 }
    }

    private mutating func number(of term: String) -> Int {
        if let number = numbers[term] { return number }
        numbers[term] = terms.count
        terms.append(term)
        counts.append(0)
        return terms.count - 1
    }

    /// The number of the term of a word `ASCIIWords` read, or -1 for a stop word.
    private mutating func term(ofWord word: UnsafeBufferPointer<UInt8>) -> Int {
        // FNV-1a: words are short, and the table is the page's own.
        var hash: UInt32 = 2_166_136_261
        for byte in word { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let mask = slots.count - 1
        var slot = Int(hash) & mask
        while slots[slot] != 0 {
            let known = words[Int(slots[slot]) - 1]
            if known.hash == hash, Int(known.count) == word.count,
               wordBytes.withUnsafeBufferPointer({ memcmp($0.baseAddress! + Int(known.start), word.baseAddress!, word.count) == 0 }) {
                return Int(known.term)
            }
            slot = (slot + 1) & mask
        }
        let term = analyzer.term(ofASCIIWord: word).map { number(of: $0) } ?? -1
        words.append(Word(start: Int32(wordBytes.count), count: Int32(word.count), hash: hash, term: Int32(term)))
        wordBytes.append(contentsOf: word)
        slots[slot] = Int32(words.count)
        if words.count * 2 > slots.count { grow() }
        return term
    }

    /// Twice the slots, the words placed again: at most half are used.
    private mutating func grow() {
        var slots = [Int32](repeating: 0, count: self.slots.count * 2)
        let mask = slots.count - 1
        for (index, word) in words.enumerated() {
            var slot = Int(word.hash) & mask
            while slots[slot] != 0 { slot = (slot + 1) & mask }
            slots[slot] = Int32(index + 1)
        }
        self.slots = slots
    }
}
