import Foundation
import Synchronization
import _FoundationICU

/// How text becomes search terms, the same way at build time (here) and in the reader's browser
/// (`search.js`, which gets the rules from each index's `meta.json`):
///
/// 1. **Words**, by ICU's word break rules (the browser's `Intl.Segmenter` is ICU's too): words
///    of letters, numbers, kana and ideographs; Chinese and Japanese are split into words by
///    ICU's dictionary (`東京都に住んで` → `東京`, `都`, `に`, `住`, `んで`).
/// 2. **Folding**: lower case; accents and Arabic vowel marks off (`été` → `ete`); Arabic letter
///    forms unified (`أ إ آ` → `ا`, `ة` → `ه`, `ى` → `ي`); `ß` → `ss`, final `ς` → `σ`, `’` → `'`. Kana voicing marks
///    and the vowel signs of Indic scripts are letters, and stay.
/// 3. **Stop words** of the language are left out.
/// 4. **Stemming** by the language's light stemmer (`SearchStemmer`): `chevaux` → `cheval`,
///    `Häuser` → `haus`, `المكتبات` → `مكتب`.
struct SearchAnalyzer: Sendable {
    let language: String
    let stemmer: SearchStemmer
    let stopWords: Set<String>
    /// The length in bytes of the longest stop word: a longer word is not looked up.
    let stopWordLength: Int

    init(language: String) {
        self.language = language
        let base = String(language.prefix { $0 != "-" && $0 != "_" }).lowercased()
        stemmer = SearchStemmer.rules[base] ?? SearchStemmer(passes: [])
        stopWords = Set(SearchStemmer.stopWords[base] ?? [])
        stopWordLength = stopWords.map(\.utf8.count).max() ?? 0
        shortStopWords = stopWords.filter { $0.utf8.count <= 7 }.map { Self.packed($0.utf8[...]) }.sorted()
    }

    /// The stop words of at most 7 bytes, each packed into a number (`packed`), sorted: a short
    /// word is looked up without hashing it.
    let shortStopWords: [UInt64]

    /// The bytes of a word of at most 7 bytes as one number, the first byte highest, then its
    /// length in the lowest 4 bits: two words give the same number only if they are the same.
    static func packed<Bytes: Collection<UInt8>>(_ bytes: Bytes) -> UInt64 {
        var value: UInt64 = 0
        for byte in bytes { value = value << 8 | UInt64(byte) }
        return value << 4 | UInt64(bytes.count)
    }

    static func contains(_ sorted: UnsafeBufferPointer<UInt64>, _ value: UInt64) -> Bool {
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low < sorted.count && sorted[low] == value
    }

    /// The analyzer of `language`, made once.
    static func of(_ language: String) -> SearchAnalyzer {
        if let known = made.withLock({ $0[language] }) { return known }
        let analyzer = SearchAnalyzer(language: language)
        made.withLock { $0[language] = analyzer }
        return analyzer
    }
    private static let made = Mutex<[String: SearchAnalyzer]>([:])

    /// The terms of `text` in order: folded, stemmed, without stop words.
    func terms(_ text: String) -> [String] {
        var terms: [String] = []
        forEachTerm(text) { terms.append($0) }
        return terms
    }

    /// Calls `body` with each term of `text`, in order.
    func forEachTerm(_ text: String, _ body: (String) -> Void) {
        // ASCII text (most of an English site's) is split and folded by `ASCIIWords`, which gives
        // ICU's words or declines.
        let read = ASCIIWords.forEach(text) { word in
            if let term = term(ofASCIIWord: word) { body(term) }
        }
        if !read { forEachICUTerm(text, body) }
    }

    /// The term of a word `ASCIIWords` read (lower case ASCII), nil for a stop word.
    func term(ofASCIIWord word: UnsafeBufferPointer<UInt8>) -> String? {
        if word.count <= 7 {
            if shortStopWords.withUnsafeBufferPointer({ Self.contains($0, Self.packed(word)) }) { return nil }
        } else if word.count <= stopWordLength, stopWords.contains(String(decoding: word, as: UTF8.self)) { return nil }
        var bytes = Array(word)
        return stemmer.stem(&bytes) ? String(decoding: bytes, as: UTF8.self) : String(decoding: word, as: UTF8.self)
    }

    /// Calls `body` with each term of `text` by ICU's words, in order.
    func forEachICUTerm(_ text: String, _ body: (String) -> Void) {
        Self.words(text) { word in
            let folded = Self.fold(word)
            guard !folded.isEmpty, !stopWords.contains(folded) else { return }
            body(stemmer.stem(folded))
        }
    }

    // MARK: Words

    /// Calls `body` with each word of `text`, by ICU's word boundaries. ICU reads the UTF-8
    /// bytes themselves (a `UText`), and boundaries are byte offsets: nothing is converted.
    static func words(_ text: String, _ body: (Substring) -> Void) {
        guard !text.isEmpty else { return }
        var text = text
        text.makeContiguousUTF8()
        let utf8 = text.utf8
        utf8.withContiguousStorageIfAvailable { bytes in
            var status = U_ZERO_ERROR
            guard let utext = bytes.withMemoryRebound(to: CChar.self, { swift_utext_openUTF8(nil, $0.baseAddress, Int64($0.count), &status) }), status.rawValue <= 0 else { return }
            defer { swift_utext_close(utext) }
            // Opening an iterator copies ICU's rules: each is kept for the next text.
            guard let iterator = iterators.withLock({ $0.popLast()?.pointer }) ?? swift_ubrk_open(UBRK_WORD, "", nil, 0, &status), status.rawValue <= 0 else { return }
            defer { iterators.withLock { $0.append(BreakIterator(pointer: iterator)) } }
            swift_ubrk_setUText(iterator, utext, &status)
            guard status.rawValue <= 0 else { return }
            // Boundaries come in order: the index walks forward with them.
            var position = utf8.startIndex, offset: Int32 = 0
            var start = swift_ubrk_first(iterator)
            var end = swift_ubrk_next(iterator)
            while end != UBRK_DONE {
                // Rule statuses from UBRK_WORD_NONE_LIMIT up: numbers, letters, kana, ideographs.
                if swift_ubrk_getRuleStatus(iterator) >= UBRK_WORD_NONE_LIMIT.rawValue {
                    let lower = utf8.index(position, offsetBy: Int(start - offset)), upper = utf8.index(lower, offsetBy: Int(end - start))
                    body(text[lower..<upper])
                    (position, offset) = (upper, end)
                }
                start = end
                end = swift_ubrk_next(iterator)
            }
        }
    }

    /// Word break iterators not in use (`words` takes one, and gives it back).
    private static let iterators = Mutex<[BreakIterator]>([])
    /// One thread uses an iterator at a time: the pool hands it over.
    private struct BreakIterator: @unchecked Sendable { let pointer: OpaquePointer }

    // MARK: Folding

    /// Marks taken off their letters: Latin, Greek and Cyrillic accents (the combining
    /// diacritical blocks) and Arabic vowel marks. `search.js` has the same list.
    static let foldedMarks: [ClosedRange<UInt32>] = [0x0300...0x036F, 0x064B...0x065F, 0x0670...0x0670, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F]

    /// Letters written another way: `search.js` has the same table.
    static let foldedLetters: [Unicode.Scalar: String] = [
        "\u{00DF}": "ss", "\u{0153}": "oe", "\u{00E6}": "ae", "\u{03C2}": "\u{03C3}", "\u{2019}": "'", "\u{02BC}": "'",
        "\u{0623}": "\u{0627}", "\u{0625}": "\u{0627}", "\u{0622}": "\u{0627}", "\u{0671}": "\u{0627}",
        "\u{0629}": "\u{0647}", "\u{0649}": "\u{064A}", "\u{0640}": "",
    ]

    /// Lower case (full Unicode case mapping, as JavaScript's `toLowerCase`), decomposed, the
    /// marks above taken off, letters unified, then composed again (NFC).
    static func fold(_ word: Substring) -> String {
        // ASCII: lower case is all there is to it (no ASCII letter has a mark or a replacement).
        if word.utf8.allSatisfy({ $0 < 0x80 }) {
            if !word.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) { return String(word) }
            return String(decoding: word.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }, as: UTF8.self)
        }
        let decomposed = word.lowercased().decomposedStringWithCanonicalMapping
        var out = String.UnicodeScalarView()
        for scalar in decomposed.unicodeScalars {
            if foldedMarks.contains(where: { $0.contains(scalar.value) }) { continue }
            if let replacement = foldedLetters[scalar] { out.append(contentsOf: replacement.unicodeScalars) } else { out.append(scalar) }
        }
        return String(out).precomposedStringWithCanonicalMapping
    }
}

/// A light stemmer as data: passes of affix rules, each pass taking off (or replacing) the first
/// affix of its list the word has, when what is left is long enough. The same rules run in the
/// browser (`search.js`), read from the index's `meta.json`.
///
/// The rules are those of the light stemmers search engines use (Savoy's for French and German,
/// as in Lucene and Elasticsearch's `light_french` and `light_german`; Larkey's light10 for
/// Arabic; for English, plurals and the possessive, as Lucene's minimal English stemmer): they
/// join the forms of a word a reader types, and seldom two words.
struct SearchStemmer: Sendable, Equatable {
    struct Rule: Sendable, Equatable {
        var affix: String
        var replacement: String
        /// Unicode scalars the word keeps, at least, besides the replacement.
        var keep: Int

        let affixBytes: [UInt8], replacementBytes: [UInt8], affixLength: Int

        init(affix: String, replacement: String, keep: Int) {
            self.affix = affix
            self.replacement = replacement
            self.keep = keep
            affixBytes = Array(affix.utf8)
            replacementBytes = Array(replacement.utf8)
            affixLength = affix.unicodeScalars.count
        }
    }

    struct Pass: Sendable, Equatable {
        /// Takes a prefix off instead of a suffix.
        var prefix = false
        var rules: [Rule]
    }

    var passes: [Pass]

    /// Compared as UTF-8 bytes: an affix of valid UTF-8 ends (or starts) a word's bytes exactly
    /// when it ends (starts) its scalars, and a word's scalars are its bytes that do not continue
    /// one.
    func stem(_ word: String) -> String {
        guard !passes.isEmpty else { return word }
        var bytes = Array(word.utf8)
        return stem(&bytes) ? String(decoding: bytes, as: UTF8.self) : word
    }

    /// Stems the UTF-8 bytes of a word in place; whether they changed.
    func stem(_ bytes: inout [UInt8]) -> Bool {
        // The rules flattened into plain values over one byte buffer: the loop over them, once
        // per word, retains nothing.
        compiled.affixes.withUnsafeBufferPointer { text in
            compiled.rules.withUnsafeBufferPointer { rules in
                var changed = false
                var pass = -1, skip = false
                var length = -1
                for rule in rules {
                    if rule.pass != pass {
                        pass = rule.pass
                        skip = false
                        length = -1
                    }
                    let count = rule.affix.count
                    guard !skip, count <= bytes.count else { continue }
                    // The byte at the affix's outer end first: most words end (or start) otherwise.
                    guard rule.prefix ? bytes[0] == text[rule.affix.lowerBound] : bytes[bytes.count - 1] == text[rule.affix.upperBound - 1] else { continue }
                    let affix = UnsafeBufferPointer(rebasing: text[rule.affix])
                    guard rule.prefix ? bytes.starts(with: affix) : bytes[(bytes.count - count)...].elementsEqual(affix) else { continue }
                    if length < 0 { length = bytes.reduce(0) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) } }
                    guard length - rule.affixLength >= rule.keep else { continue }
                    if rule.prefix {
                        bytes.replaceSubrange(0..<count, with: text[rule.replacement])
                    } else {
                        bytes.replaceSubrange((bytes.count - count)..., with: text[rule.replacement])
                    }
                    changed = true
                    skip = true
                }
                return changed
            }
        }
    }

    /// The rules as plain values: ranges of `affixes`.
    private struct Compiled: Sendable, Equatable {
        struct Rule: Sendable, Equatable {
            var pass: Int, prefix: Bool, affix: Range<Int>, replacement: Range<Int>, affixLength: Int, keep: Int
        }
        var affixes: [UInt8] = []
        var rules: [Rule] = []
    }
    private var compiled: Compiled

    init(passes: [Pass]) {
        self.passes = passes
        var compiled = Compiled()
        for (number, pass) in passes.enumerated() {
            for rule in pass.rules {
                let affix = compiled.affixes.count..<(compiled.affixes.count + rule.affixBytes.count)
                compiled.affixes += rule.affixBytes
                let replacement = compiled.affixes.count..<(compiled.affixes.count + rule.replacementBytes.count)
                compiled.affixes += rule.replacementBytes
                compiled.rules.append(Compiled.Rule(pass: number, prefix: pass.prefix, affix: affix, replacement: replacement, affixLength: rule.affixLength, keep: rule.keep))
            }
        }
        self.compiled = compiled
    }

    /// `[["affix", "replacement", keep], …]` per pass, for `meta.json`.
    var json: JSONValue {
        .array(passes.map { pass in
            .object(["prefix": .bool(pass.prefix), "rules": .array(pass.rules.map { .array([.string($0.affix), .string($0.replacement), .int($0.keep)]) })])
        })
    }

    private static func pass(prefix: Bool = false, _ rules: [(String, String, Int)]) -> Pass {
        Pass(prefix: prefix, rules: rules.map { Rule(affix: $0.0, replacement: $0.1, keep: $0.2) })
    }

    /// By language code, for the languages Tessera ships translations for. Words are folded
    /// first (no accents, `ß` as `ss`). The longer affixes come first in each pass.
    static let rules: [String: SearchStemmer] = [
        "en": SearchStemmer(passes: [
            pass([("'s", "", 1), ("'", "", 1)]),
            // Plurals: `ies` → `y` (not after a or e: `series`), no change after `ss`, `us`, `is`.
            pass([("sses", "ss", 1), ("ies", "y", 2), ("ss", "ss", 1), ("us", "us", 1), ("is", "is", 1), ("s", "", 2)]),
        ]),
        "fr": SearchStemmer(passes: [
            // Elision: l'été, d'abord, qu'il.
            pass(prefix: true, [("jusqu'", "", 1), ("lorsqu'", "", 1), ("puisqu'", "", 1), ("qu'", "", 1), ("l'", "", 1), ("d'", "", 1), ("j'", "", 1), ("m'", "", 1), ("n'", "", 1), ("s'", "", 1), ("t'", "", 1), ("c'", "", 1)]),
            // Plurals: chevaux → cheval, bateaux → bateau, jeux → jeu.
            pass([("eaux", "eau", 2), ("aux", "al", 2), ("eux", "eu", 2), ("s", "", 3), ("x", "", 3)]),
            // Feminine and common endings: grande → grand, heureuse → heureux, actrice → acteur.
            pass([("euse", "eux", 2), ("rice", "eur", 2), ("ere", "er", 2), ("ive", "if", 2), ("e", "", 3)]),
        ]),
        "de": SearchStemmer(passes: [
            pass([("ern", "", 3), ("em", "", 3), ("en", "", 3), ("er", "", 3), ("es", "", 3), ("e", "", 3), ("s", "", 3)]),
            pass([("nd", "", 4), ("st", "", 4)]),
        ]),
        "ar": SearchStemmer(passes: [
            // Larkey's light10: the article and its joined forms, then one suffix at a time.
            pass(prefix: true, [("\u{0648}\u{0627}\u{0644}", "", 2), ("\u{0628}\u{0627}\u{0644}", "", 2), ("\u{0643}\u{0627}\u{0644}", "", 2), ("\u{0641}\u{0627}\u{0644}", "", 2), ("\u{0644}\u{0644}", "", 2), ("\u{0627}\u{0644}", "", 2), ("\u{0648}", "", 3)]),
            pass([("\u{0647}\u{0627}", "", 2), ("\u{0627}\u{0646}", "", 2), ("\u{0627}\u{062A}", "", 2), ("\u{0648}\u{0646}", "", 2), ("\u{064A}\u{0646}", "", 2), ("\u{064A}\u{0647}", "", 2), ("\u{0647}", "", 2), ("\u{064A}", "", 2)]),
            pass([("\u{0647}", "", 2), ("\u{064A}", "", 2)]),
        ]),
    ]

    /// Words too common to search for, folded, by language.
    static let stopWords: [String: [String]] = [
        "en": ["a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "from", "has", "have", "he", "her", "his", "i", "if", "in", "into", "is", "it", "its", "of", "on", "or", "our", "she", "so", "that", "the", "their", "them", "then", "there", "these", "they", "this", "to", "was", "we", "were", "which", "with", "you", "your"],
        "fr": ["a", "au", "aux", "avec", "ce", "ces", "dans", "de", "des", "du", "elle", "en", "est", "et", "il", "ils", "je", "la", "le", "les", "leur", "lui", "mais", "me", "meme", "mes", "ne", "nos", "notre", "nous", "on", "ou", "par", "pas", "pour", "qu", "que", "qui", "sa", "se", "ses", "son", "sur", "ta", "te", "tes", "ton", "tu", "un", "une", "vos", "votre", "vous"],
        "de": ["aber", "als", "am", "an", "auch", "auf", "aus", "bei", "bin", "bis", "das", "dass", "dem", "den", "der", "des", "die", "du", "ein", "eine", "einem", "einen", "einer", "er", "es", "fur", "hat", "ich", "im", "in", "ist", "mit", "nach", "nicht", "noch", "oder", "sie", "sind", "so", "und", "uber", "um", "vom", "von", "vor", "war", "wie", "wir", "zu", "zum", "zur"],
        "ar": ["\u{0641}\u{064A}", "\u{0645}\u{0646}", "\u{0627}\u{0644}\u{0649}", "\u{0639}\u{0644}\u{064A}", "\u{0639}\u{0646}", "\u{0645}\u{0639}", "\u{0647}\u{0630}\u{0627}", "\u{0647}\u{0630}\u{0647}", "\u{0630}\u{0644}\u{0643}", "\u{0627}\u{0644}\u{062A}\u{064A}", "\u{0627}\u{0644}\u{0630}\u{064A}", "\u{0648}", "\u{0627}\u{0648}", "\u{062B}\u{0645}", "\u{0643}\u{0627}\u{0646}", "\u{0642}\u{062F}", "\u{0644}\u{0627}", "\u{0645}\u{0627}", "\u{0647}\u{0648}", "\u{0647}\u{064A}", "\u{0627}\u{0646}"],
    ]
}

/// ICU's word boundaries for ASCII text, without ICU: the words of Unicode's rules (UAX #29) as
/// ICU tailors them, where ASCII has only letters, digits, and between two letters or two digits
/// `'` and `.`, between two digits `,` and `;` (`don't`, `e.g`, `3.14`, `1,000`), and `_`, which
/// joins letters, digits and `_` on either side (ExtendNumLet: `snake_case`, `__init__`, `_1`;
/// one `_` alone is no word).
///
/// Smart punctuation is read too, since Markdown's `smart` option (on by default) puts it in
/// nearly every page: `’` joins as `'` does and folds to it; `“ ” – — … « »` and the no-break
/// space are between words, always. `‘` is too, except between two letters or digits, where ICU
/// joins it and its word is not ASCII: the text is declined. So is a text with any other byte
/// than ASCII; the caller then asks ICU. Checked
/// against ICU on generated text (`SearchIndexTests`).
enum ASCIIWords {
    /// Calls `body` with each word, in lower case, and returns true; false, without calling it,
    /// when the text is not one it reads. Eight bytes from a word's start can be read (`key`).
    static func forEach(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        text.withUTF8Bytes { bytes in
            // On the stack for a page's text (a heap allocation was 600 instructions), with eight
            // zero bytes after it.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: bytes.count + 8) { buffer in
                guard let count = lowered(bytes, into: buffer) else { return false }
                (buffer.baseAddress! + count).initialize(repeating: 0, count: 8)
                return read(UnsafeBufferPointer(start: buffer.baseAddress, count: count), body)
            }
        }
    }

    /// A word of at most 8 bytes as `forEach` gives it, as one number: its bytes, the first
    /// lowest. Words have no zero byte, so two words give the same number only if they are the
    /// same, and none gives 0.
    @inline(__always) static func key(of word: UnsafeBufferPointer<UInt8>) -> UInt64 {
        let all = UInt64(littleEndian: UnsafeRawPointer(word.baseAddress!).loadUnaligned(as: UInt64.self))
        return word.count >= 8 ? all : all & ((1 &<< UInt64(word.count &* 8)) &- 1)
    }

    /// The text in lower case written to `out` (room for its bytes), smart punctuation as one
    /// byte each (`’` as `'`, the others as a space), and the number of bytes written; nil for a
    /// text this does not read (other characters beyond ASCII).
    private static func lowered(_ bytes: UnsafeBufferPointer<UInt8>, into out: UnsafeMutableBufferPointer<UInt8>) -> Int? {
        @inline(__always) func alphanumeric(_ byte: UInt8) -> Bool {
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x30 && byte <= 0x39)
        }
        var count = 0, index = 0
        while index < bytes.count {
            // Eight ASCII bytes at a time: the upper-case letters' lanes get their 0x20 bit set.
            // A text's bytes are read once here, and it was 14 instructions a byte one at a time.
            while index &+ 8 <= bytes.count {
                let word = UnsafeRawPointer(bytes.baseAddress! + index).loadUnaligned(as: UInt64.self)
                guard word & ByteLanes.highs == 0 else { break }
                let upper = ByteLanes.within(word, 0x41, 0x5A)
                UnsafeMutableRawPointer(out.baseAddress! + count).storeBytes(of: word | upper >> 2, as: UInt64.self)
                index &+= 8
                count &+= 8
            }
            guard index < bytes.count else { break }
            let byte = bytes[index]
            if byte < 0x80 {
                out[count] = byte &+ (byte &- 0x41 < 26 ? 32 : 0)
                count &+= 1
                index &+= 1
                continue
            }
            // Two-byte: no-break space, « and ».
            if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] == 0xA0 || bytes[index + 1] == 0xAB || bytes[index + 1] == 0xBB {
                out[count] = 0x20
                count += 1
                index += 2
                continue
            }
            // Three-byte, U+2013 to U+2026: – — ‘ ’ “ ” …
            guard byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80 else { return nil }
            switch bytes[index + 2] {
            case 0x93, 0x94, 0x9C, 0x9D, 0xA6: out[count] = 0x20
            case 0x99: out[count] = UInt8(ascii: "'")
            case 0x98:
                let before = index > 0 ? bytes[index - 1] : 0, after = index + 3 < bytes.count ? bytes[index + 3] : 0
                guard !(alphanumeric(before) && alphanumeric(after)) else { return nil }
                out[count] = 0x20
            default:
                return nil
            }
            count += 1
            index += 3
        }
        return count
    }

    /// Per lower-case ASCII byte: 1 for a letter, 2 for a digit, 3 for `_` (which joins both,
    /// ICU's ExtendNumLet), 0 for the rest.
    private static let classes: [UInt8] = (0..<256).map { (byte: Int) -> UInt8 in
        (0x61...0x7A).contains(byte) ? 1 : (0x30...0x39).contains(byte) ? 2 : byte == 0x5F ? 3 : 0
    }

    private static func read(_ lower: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Void) -> Bool {
        classes.withUnsafeBufferPointer { table in
            let kind = table.baseAddress!
            let count = lower.count
            var index = 0
            while index < count {
                guard kind[Int(lower[index])] != 0 else { index &+= 1; continue }
                let start = index
                while true {
                    while index < count, kind[Int(lower[index])] != 0 { index &+= 1 }
                    guard index + 1 < count else { break }
                    // The byte before is a letter (1), a digit (2) or `_` (3).
                    let before = kind[Int(lower[index - 1])], joiner = lower[index], after = kind[Int(lower[index + 1])]
                    let joins: Bool
                    switch joiner {
                    case UInt8(ascii: "'"), UInt8(ascii: "."): joins = after == before && before != 3
                    case UInt8(ascii: ","), UInt8(ascii: ";"): joins = before == 2 && after == 2
                    default: joins = false
                    }
                    guard joins else { break }
                    index &+= 1
                }
                // One `_` alone is no word to ICU (two are: ExtendNumLet × ExtendNumLet).
                if index - start > 1 || lower[start] != UInt8(ascii: "_") { body(UnsafeBufferPointer(rebasing: lower[start..<index])) }
            }
            return true
        }
    }
}
