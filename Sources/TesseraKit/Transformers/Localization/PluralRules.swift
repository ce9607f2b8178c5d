/// Which plural form a number takes in a language, by CLDR's rules.
///
///     let russian = PluralRules.forLanguage("ru")
///     russian.category(for: 21)    // .one:  "21 день"
///     russian.category(for: 25)    // .many: "25 дней"
///     PluralRules.forLanguage("en").category(forWritten: "1.0")    // .other: "1.0 days"
///
/// The rules are CLDR's, generated into `PluralRules+Data.swift` by
/// `Scripts/generate-plural-rules.py`; none are written by hand.
public struct PluralRules: Sendable {
    /// The CLDR locale whose rules these are: "pt" for "pt-BR", "root" for a language CLDR lacks.
    public let cldrLocale: String
    /// The condition of every category but `other`, in CLDR's order.
    let conditions: [(category: PluralCategory, rule: PluralRule)]

    /// The categories this language distinguishes, in CLDR's order and always ending with `other`:
    /// the forms a translation of a counted phrase has to provide.
    public var categories: [PluralCategory] {
        conditions.map(\.category) + [.other]
    }

    /// The category of a number that has no written form of its own.
    ///
    /// A `Double` keeps no trailing zeros, so `1.0` counts as the integer 1 (English `one`); when
    /// the page shows "1.0", ask with `category(forWritten:)`. Infinity and NaN are `other`.
    public func category(for number: Double) -> PluralCategory {
        guard let operands = PluralOperands(number) else { return .other }
        return category(for: operands)
    }

    /// The category of a number as it is shown, since rules look at visible digits:
    /// English "1" is `one` but "1.0" is `other`.
    ///
    /// Accepts an optional sign, ASCII digits, an optional fraction after a "." and CLDR's compact
    /// exponent ("1.2c6" for 1.2 million). Anything else, such as "1,000", is `other`, the one
    /// category every language has.
    public func category(forWritten text: String) -> PluralCategory {
        guard let operands = PluralOperands(written: text) else { return .other }
        return category(for: operands)
    }

    func category(for operands: PluralOperands) -> PluralCategory {
        conditions.first { $0.rule.matches(operands) }?.category ?? .other
    }
}

extension PluralRules {
    // In an extension so that the memberwise initialiser stays available.

    /// Rules parsed from CLDR's condition text; `other` needs none and is ignored if given.
    init(cldrLocale: String, ruleText: [PluralCategory: String]) throws(PluralRule.SyntaxError) {
        var conditions: [(category: PluralCategory, rule: PluralRule)] = []
        for category in PluralCategory.allCases where category != .other {
            guard let text = ruleText[category] else { continue }
            conditions.append((category, try PluralRule(parsing: text)))
        }
        self.cldrLocale = cldrLocale
        self.conditions = conditions
    }
}
