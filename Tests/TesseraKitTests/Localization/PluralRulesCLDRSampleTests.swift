import Testing
@testable import TesseraKit

/// The rules put each of CLDR's own sample numbers in the category CLDR lists it under.
@Suite struct PluralRulesCLDRSampleTests {
    static let siteLanguages = ["en", "fr", "de", "es", "pt", "it", "nl", "ru", "pl", "cs", "ar", "ja", "zh"]

    @Test("every category of the language holds CLDR's samples", arguments: siteLanguages)
    func languageMatchesCLDRSamples(language: String) {
        let rules = PluralRules.forLanguage(language)
        let samples = PluralSamples.forLocale(language)

        #expect(rules.cldrLocale == language)
        #expect(rules.categories == samples.map(\.category))
        for categorySamples in samples {
            #expect(!categorySamples.written.isEmpty, "CLDR gives no samples for \(categorySamples.category)")
            #expect(categorySamples.misplaced(by: rules) == [], "\(language) \(categorySamples.category)")
        }
    }

    @Test("every CLDR locale's samples", arguments: PluralSamples.cldr)
    func localesMatchCLDRSamples(samples: PluralSamples) {
        for locale in samples.locales {
            let rules = PluralRules.forLanguage(locale)
            #expect(rules.cldrLocale == locale)
            #expect(rules.categories.contains(samples.category))
            #expect(samples.misplaced(by: rules) == [], "\(locale) \(samples.category)")
        }
    }

    @Test func everyCLDRLocaleParsesAndHasSamples() throws {
        let sampledLocales = Set(PluralSamples.cldr.flatMap(\.locales))
        #expect(sampledLocales == Set(PluralRules.cldrRuleText.keys))
        for (locale, ruleText) in PluralRules.cldrRuleText {
            let rules = try PluralRules(cldrLocale: locale, ruleText: ruleText)
            #expect(rules.categories == PluralSamples.forLocale(locale).map(\.category), "\(locale)")
        }
    }
}
