import Testing
@testable import TesseraKit

/// Plural rules as a translator knows them, one readable example at a time.
@Suite struct PluralRulesTests {
    let english = PluralRules.forLanguage("en")
    let french = PluralRules.forLanguage("fr")
    let russian = PluralRules.forLanguage("ru")

    /// Placeholders are filled in one pass: a value is text, never searched for placeholders.
    @Test func placeholdersAreFilledOnceEach() {
        #expect(Translator.fill("Hi {name}, {count} left {unknown} {", ["name": "{count}", "count": "3"]) == "Hi {count}, 3 left {unknown} {")
        #expect(Translator.fill("{a}{a}{ {b}}", ["a": "1", "b": "2"]) == "11{ 2}")
        #expect(Translator.fill("no braces", ["a": "1"]) == "no braces")
    }

    /// Filled by bytes, a text is what the `Character` search made of it, or declined: on
    /// generated texts of placeholders, stray and doubled braces, keys beyond ASCII (one
    /// canonically equivalent to a value's key) and characters that join a brace in one
    /// `Character` (a combining mark after it, a prepended mark before it).
    @Test func placeholdersFilledByBytesAreThoseFilledByCharacter() {
        let pieces = ["{", "}", "{name}", "{count}", "{é}", "{e\u{301}}", "{名}", "{ name}", "{}", "name", "count", " ", "leçons", "€", "👩‍💻", "\u{301}", "\u{600}", "\r\n", "x"]
        let values = ["name": "Ada", "count": "3", "é": "acute", "名": "前", "": "empty", " name": "spaced"]
        var generator = SeededGenerator(seed: 12)
        var byBytes = 0
        for round in 0..<20_000 {
            let text = (0..<Int(generator.next() % 10)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
            let filled = Translator.fill(text, values), reference = Translator.filledByCharacter(text, values)
            #expect(filled == reference && filled.utf8.elementsEqual(reference.utf8), "round \(round): \(text.debugDescription)")
            if text.utf8.contains(UInt8(ascii: "{")), text.withUTF8Bytes({ Translator.filledBytes($0, values) }) != nil { byBytes += 1 }
        }
        // Many texts with a brace are filled by bytes: the fast path is not one that always declines.
        #expect(byBytes > 2_000, "\(byBytes) of 20,000 filled by bytes")
    }

    @Test func russianCountsByTheLastDigits() {
        #expect(russian.category(for: 1) == .one)      // 1 день
        #expect(russian.category(for: 21) == .one)     // 21 день
        #expect(russian.category(for: 101) == .one)
        #expect(russian.category(for: 2) == .few)      // 2 дня
        #expect(russian.category(for: 24) == .few)
        #expect(russian.category(for: 5) == .many)     // 5 дней
        #expect(russian.category(for: 0) == .many)
        #expect(russian.category(for: 11) == .many)    // 11 дней, not 11 день
        #expect(russian.category(for: 12) == .many)
        #expect(russian.category(for: 111) == .many)
        #expect(russian.category(for: 1.5) == .other)  // 1,5 дня
    }

    @Test func frenchOneCoversZeroToBelowTwo() {
        #expect(french.category(for: 0) == .one)       // 0 jour
        #expect(french.category(for: 1) == .one)
        #expect(french.category(for: 1.5) == .one)     // 1,5 jour
        #expect(french.category(for: 2) == .other)     // 2 jours
        #expect(french.category(for: 1000) == .other)
        #expect(french.category(for: 1_000_000) == .many)  // 1 million de jours
        #expect(french.category(forWritten: "1c6") == .many)
        #expect(french.category(forWritten: "1.1c3") == .other)
    }

    @Test func englishLooksAtTheWrittenDigits() {
        #expect(english.category(for: 1) == .one)
        #expect(english.category(forWritten: "1") == .one)
        #expect(english.category(forWritten: "1.0") == .other)  // "1.0 days"
        #expect(english.category(for: 1.0) == .one)             // a Double has no written zeros
        #expect(english.category(for: -1) == .one)
        #expect(english.category(for: 0) == .other)
        #expect(english.category(for: 0.5) == .other)
    }

    @Test func polishCzechAndArabic() {
        let polish = PluralRules.forLanguage("pl")
        #expect(polish.category(for: 1) == .one)
        #expect(polish.category(for: 22) == .few)
        #expect(polish.category(for: 12) == .many)
        #expect(polish.category(for: 21) == .many)
        #expect(polish.category(forWritten: "1.5") == .other)

        let czech = PluralRules.forLanguage("cs")
        #expect(czech.category(for: 3) == .few)
        #expect(czech.category(for: 5) == .other)
        #expect(czech.category(forWritten: "1.5") == .many)

        let arabic = PluralRules.forLanguage("ar")
        #expect(arabic.category(for: 0) == .zero)
        #expect(arabic.category(for: 2) == .two)
        #expect(arabic.category(for: 103) == .few)
        #expect(arabic.category(for: 11) == .many)
        #expect(arabic.category(for: 100) == .other)
    }

    @Test func categoriesAreTheFormsATranslationNeeds() {
        #expect(english.categories == [.one, .other])
        #expect(french.categories == [.one, .many, .other])
        #expect(russian.categories == [.one, .few, .many, .other])
        #expect(PluralRules.forLanguage("ar").categories == PluralCategory.allCases)
        #expect(PluralRules.forLanguage("ja").categories == [.other])
    }

    @Test("locale identifiers fall back to the most specific CLDR locale", arguments: [
        ("fr", "fr"), ("pt-BR", "pt"), ("pt_PT", "pt_PT"), ("pt-pt", "pt_PT"), ("PT_pt", "pt_PT"),
        ("zh-Hant", "zh"), ("zh-Hant-TW", "zh"), ("de_CH.UTF-8", "de"), ("sr@latin", "sr"),
        ("en-US-u-ca-gregory", "en"), ("xx", "root"), ("", "root"),
    ])
    func fallback(identifier: String, cldrLocale: String) {
        #expect(PluralRules.forLanguage(identifier).cldrLocale == cldrLocale)
    }

    @Test func portugalAndBrazilDifferOnZero() {
        #expect(PluralRules.forLanguage("pt-BR").category(for: 0) == .one)
        #expect(PluralRules.forLanguage("pt-PT").category(for: 0) == .other)
    }

    @Test func manyThreadsCanAskAtOnce() async {
        let languages = ["ru", "fr", "pt-BR", "ar", "pl", "zh-Hant"]
        let categories = await withTaskGroup(of: PluralCategory.self) { group in
            for index in 0..<600 {
                group.addTask { PluralRules.forLanguage(languages[index % languages.count]).category(for: 21) }
            }
            return await group.reduce(into: [PluralCategory: Int]()) { $0[$1, default: 0] += 1 }
        }
        // 21 is `one` in Russian, `other` in French, Portuguese and Chinese, `many` in Arabic and Polish.
        #expect(categories == [.one: 100, .other: 300, .many: 200])
    }

    @Test func unknownLanguagesAndUnreadableNumbersAreOther() {
        #expect(PluralRules.forLanguage("xx").categories == [.other])
        #expect(PluralRules.forLanguage("xx").category(for: 1) == .other)
        #expect(english.category(forWritten: "1,000") == .other)
        #expect(english.category(forWritten: "one") == .other)
        #expect(english.category(forWritten: "") == .other)
        #expect(english.category(for: .infinity) == .other)
        #expect(english.category(for: .nan) == .other)
    }
}
