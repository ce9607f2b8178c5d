import Foundation

/// How much of something one language has: translation keys, or pages.
public struct LanguageCoverage: Sendable {
    public var code: String
    public var present: Int
    public var total: Int
    /// What it lacks: keys, or the files of the pages in another language.
    public var missing: [String]
}

/// How complete each language's translation table is, against the keys any language defines.
public struct TranslationCoverage: Sendable {
    public typealias Language = LanguageCoverage

    public var languages: [Language]

    public init(tables: [String: TranslationTable], languages: [SiteLanguage]) {
        let all = tables.values.reduce(into: Set<String>()) { $0.formUnion($1.keys) }
        self.languages = languages.map { language in
            let keys = tables[language.code]?.keys ?? []
            return Language(code: language.code, present: keys.count, total: all.count, missing: all.subtracting(keys).sorted())
        }
    }

    /// One line per language: `de: 40 of 45 keys (89%), missing: a, b`.
    public var lines: [String] {
        languages.map { language in
            let percent = language.total == 0 ? 100 : Int((Double(language.present) / Double(language.total) * 100).rounded())
            var line = "\(language.code): \(language.present) of \(language.total) keys (\(percent)%)"
            if !language.missing.isEmpty { line += ", missing: " + language.missing.joined(separator: ", ") }
            return line
        }
    }
}
