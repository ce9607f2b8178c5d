import Foundation

/// Looks strings up in one language's table, chooses plural forms by CLDR rules and fills in
/// `{name}` placeholders. Used by templates (`t`), schema defaults and Swift models.
public struct Translator: Sendable {
    public let table: TranslationTable
    public let plurals: PluralRules

    public init(table: TranslationTable) {
        self.table = table
        self.plurals = PluralRules.forLanguage(table.language)
    }

    public var language: String { table.language }

    /// The text of `key` with `{name}` placeholders replaced; for plural entries, `count` picks the
    /// form and fills `{count}` (with `formattedCount` when given, e.g. "1,280").
    public func text(_ key: String, values: [String: String] = [:], count: Double? = nil, formattedCount: String? = nil) throws -> String {
        guard let entry = table[key] else {
            throw TesseraError("missing translation '\(key)' for language '\(language)'", hint: "add `\(key): …` to i18n/\(language).yml")
        }
        switch entry {
        case .text(let text):
            return Self.fill(text, values)
        case .plural(let forms):
            guard let count else {
                throw TesseraError("translation '\(key)' has plural forms and needs a count", hint: "pass a count, for example {{#t}}\(key) count=total{{/t}}")
            }
            let category = plurals.category(for: count)
            let form = forms[category] ?? forms[.other] ?? ""
            var values = values
            values["count"] = formattedCount ?? NumberTransformers.plain(count)
            return Self.fill(form, values)
        }
    }

    /// The template form of `key`, for the `t` lambda: `{name}` becomes `{{name}}`, rendered by
    /// Mustache against the current context (so values are escaped); plural forms become one
    /// section per category over the count's `plural` flags.
    func template(_ key: String, countVariable: String?) throws -> String {
        guard let entry = table[key] else {
            throw TesseraError("missing translation '\(key)' for language '\(language)'", hint: "add `\(key): …` to i18n/\(language).yml")
        }
        switch entry {
        case .text(let text):
            return Self.placeholdersToMustache(text, count: nil)
        case .plural(let forms):
            guard let countVariable else {
                throw TesseraError("translation '\(key)' has plural forms and needs a count", hint: "write {{#t}}\(key) count=<number field>{{/t}}")
            }
            return PluralCategory.allCases.compactMap { category in
                guard let form = forms[category] ?? (plurals.categories.contains(category) ? forms[.other] : nil) else { return nil }
                return "{{#\(countVariable).plural.\(category.rawValue)}}\(Self.placeholdersToMustache(form, count: countVariable)){{/\(countVariable).plural.\(category.rawValue)}}"
            }.joined()
        }
    }

    static func fill(_ text: String, _ values: [String: String]) -> String {
        var result = text
        for (name, value) in values { result = result.replacingOccurrences(of: "{\(name)}", with: value) }
        return result
    }

    static func placeholdersToMustache(_ text: String, count: String?) -> String {
        var result = ""
        var index = text.startIndex
        while index < text.endIndex {
            if text[index] == "{", let close = text[index...].firstIndex(of: "}"),
               text[text.index(after: index)..<close].allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." }),
               close > text.index(after: index) {
                let name = String(text[text.index(after: index)..<close])
                result += "{{" + (name == "count" ? (count ?? name) : name) + "}}"
                index = text.index(after: close)
            } else {
                result.append(text[index])
                index = text.index(after: index)
            }
        }
        return result
    }
}
