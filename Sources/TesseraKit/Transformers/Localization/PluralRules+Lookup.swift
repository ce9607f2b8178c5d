extension PluralRules {
    /// The rules for a language or locale identifier, in BCP 47 or POSIX spelling:
    /// "fr", "pt-BR", "pt_PT", "zh-Hant-TW", "de_CH.UTF-8".
    ///
    /// The most specific CLDR locale wins, so "pt-PT" gets Portugal's rules and "pt-BR" falls
    /// back to "pt". A language CLDR has no rules for gets "root", whose only category is `other`:
    /// its pages still build, with every count in the one form.
    public static func forLanguage(_ identifier: String) -> PluralRules {
        for key in lookupKeys(for: identifier) {
            if let rules = rulesByLowercasedLocale[key] { return rules }
        }
        return root
    }

    /// CLDR locale keys to try, most specific first, lowercased like `rulesByLowercasedLocale`:
    /// "zh-Hant-TW" → ["zh_hant_tw", "zh_hant", "zh"].
    static func lookupKeys(for identifier: String) -> [String] {
        // POSIX identifiers carry a character set and a modifier that CLDR does not key on.
        let locale = identifier.prefix { $0 != "." && $0 != "@" }
        let subtags = locale.lowercased()
            .split(whereSeparator: { $0 == "-" || $0 == "_" || $0.isWhitespace })
        return subtags.indices.reversed().map { last in
            subtags[...last].joined(separator: "_")
        }
    }

    /// Every CLDR locale's rules, parsed on first use.
    ///
    /// Parsing all of them takes milliseconds, once, and a `static let` is initialised exactly
    /// once even when several threads ask at the same time, so the cache needs no lock.
    private static let rulesByLowercasedLocale: [String: PluralRules] = {
        var rules: [String: PluralRules] = [:]
        for (locale, ruleText) in cldrRuleText {
            do {
                rules[locale.lowercased()] = try PluralRules(cldrLocale: locale, ruleText: ruleText)
            } catch {
                // The text comes from CLDR through the generator, and a test parses every locale.
                preconditionFailure("CLDR \(cldrVersion) rules for \(locale) do not parse: \(error)")
            }
        }
        return rules
    }()

    /// CLDR's fallback for languages it has no data for: everything is `other`.
    private static let root = PluralRules(cldrLocale: "root", conditions: [])
}
