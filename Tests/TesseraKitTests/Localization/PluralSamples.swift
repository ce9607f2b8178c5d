import Testing
@testable import TesseraKit

/// CLDR's sample numbers for one plural category of the locales that share a rule set.
///
/// The values themselves are generated into `PluralSamples+CLDR.swift` from CLDR's plurals.xml,
/// so the tests check the rules against CLDR's own examples, not against our reading of them.
struct PluralSamples: Sendable, CustomTestStringConvertible {
    let locales: [String]
    let category: PluralCategory
    /// From `@integer`: "1", "21", "1c6" (compact notation, one million).
    let integers: [String]
    /// From `@decimal`: "1.0", "0.00", "1.1c6"; the written fraction digits matter.
    let decimals: [String]

    var testDescription: String { "\(category) in \(locales.joined(separator: " "))" }

    /// The samples as written, each of which CLDR puts in `category`.
    var written: [String] { integers + decimals }

    /// The samples that read back the same from a `Double`: no compact exponent and no trailing
    /// fraction zeros, which a `Double` cannot carry ("1.0" is 1, but "1.5" is 1.5).
    var exactAsDouble: [(text: String, value: Double)] {
        written.compactMap { text in
            guard !text.contains("c"), !(text.contains(".") && text.hasSuffix("0")),
                  let value = Double(text) else { return nil }
            return (text, value)
        }
    }

    /// Every category's samples for a CLDR locale, in CLDR's category order.
    static func forLocale(_ locale: String) -> [PluralSamples] {
        cldr.filter { $0.locales.contains(locale) }
    }

    /// The samples `rules` puts somewhere else than CLDR, as "21 → many", for a readable failure.
    func misplaced(by rules: PluralRules) -> [String] {
        let writtenMisplaced = written.compactMap { text in
            let category = rules.category(forWritten: text)
            return category == self.category ? nil : "\"\(text)\" → \(category)"
        }
        let doubleMisplaced = exactAsDouble.compactMap { text, value in
            let category = rules.category(for: value)
            return category == self.category ? nil : "\(text) as Double → \(category)"
        }
        return writtenMisplaced + doubleMisplaced
    }
}
