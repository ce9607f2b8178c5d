extension PluralRules {
    /// The rules for a language or locale identifier, in BCP 47 or POSIX spelling:
    /// "fr", "pt-BR", "pt_PT", "zh-Hant-TW", "de_CH.UTF-8".
    ///
    /// The most specific CLDR locale wins, so "pt-PT" gets Portugal's rules and "pt-BR" falls
    /// back to "pt". A language CLDR has no rules for gets "root", whose only category is `other`:
    /// its pages still build, with every count in the one form.
    public static func forLanguage(_ identifier: String) -> PluralRules {
        var key = lookupKey(for: identifier)
        while !key.isEmpty {
            if let rules = rulesByLowercasedLocale[key] { return rules }
            key = String(key[..<(key.lastIndex(of: "_") ?? key.startIndex)])
        }
        return root
    }

    /// The identifier in CLDR's spelling, lowercased like `rulesByLowercasedLocale`:
    /// "zh-Hant-TW" → "zh_hant_tw", "de_CH.UTF-8" → "de_ch".
    ///
    /// Works on ASCII bytes: templates may ask for every counted phrase, and `lowercased()` and
    /// splitting into subtags cost several times more than evaluating the rules.
    static func lookupKey(for identifier: String) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(identifier.utf8.count)
        for byte in identifier.utf8 {
            switch byte {
            // POSIX identifiers carry a character set and a modifier that CLDR does not key on.
            case UInt8(ascii: "."), UInt8(ascii: "@"): return String(decoding: bytes, as: UTF8.self)
            case UInt8(ascii: "-"), UInt8(ascii: "_"): bytes.append(UInt8(ascii: "_"))
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte + 32)
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"): continue
            default: bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
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
