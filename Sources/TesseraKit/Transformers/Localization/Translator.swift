import Foundation

/// Looks strings up in one language's table, chooses plural forms by CLDR rules and fills in
/// `{name}` placeholders. Used by templates (`t`), schema defaults and Swift models.
///
/// A class: renders ask for it at every `t` and every name their root scope looks up, and a
/// struct of tables was copied (a retain per table) each time.
public final class Translator: Sendable {
    public let table: TranslationTable
    public let plurals: PluralRules
    /// `template(_:countVariable:)`'s answers: every page asks for the same few keys.
    private let templates = TemplateMemo()

    public init(table: TranslationTable) {
        self.table = table
        self.plurals = PluralRules.forLanguage(table.language)
    }

    typealias TemplateMemo = Memo<String, String>

    public var language: String { table.language }

    /// The text of `key` with `{name}` placeholders replaced; for plural entries, `count` picks the
    /// form and fills `{count}` (with `formattedCount` when given, e.g. "1,280").
    public func text(_ key: String, values: [String: String] = [:], count: Double? = nil, formattedCount: String? = nil) throws -> String {
        guard let entry = table[key] else {
            // A table that failed to load is reported once, at its own error.
            if table.isIncomplete { throw TesseraError(diagnostics: []) }
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

    /// What `{{#t}}key count=field{{/t}}` asks for, read from the section's text once per text:
    /// the key, the count's field, and the template form (or why there is none).
    struct Call: Sendable {
        var key: String
        var countVariable: String?
        var template: Result<String, TesseraError>
    }
    private let calls = Memo<String, Call?>()

    /// The `t` lambda's reading of a section's text; nil when it names no key.
    func call(_ text: String) -> Call? {
        calls.value(text) {
            let words = text.utf8.split(whereSeparator: { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }).map { String(decoding: $0, as: UTF8.self) }
            guard let key = words.first else { return nil }
            let count = words.dropFirst().first { $0.hasPrefix("count=") }.map { String($0.dropFirst("count=".count)) }
            do {
                return Call(key: key, countVariable: count, template: .success(try makeTemplate(key, countVariable: count)))
            } catch let error as TesseraError {
                return Call(key: key, countVariable: count, template: .failure(error))
            } catch {
                return Call(key: key, countVariable: count, template: .failure(TesseraError("\(error)")))
            }
        }
    }

    /// The template form of `key`, for the `t` lambda: `{name}` becomes `{{name}}`, rendered by
    /// Mustache against the current context (so values are escaped); plural forms become one
    /// section per category over the count's `plural` flags, and a count that has none (not a
    /// number, or absent) reaches `CountProblem`'s name, which the scope reports as an error.
    /// The translation's own text is escaped unless its key ends in `HTML` or `_html`.
    func template(_ key: String, countVariable: String?) throws -> String {
        try templates.value(key + "\u{1}" + (countVariable ?? "")) { try makeTemplate(key, countVariable: countVariable) }
    }

    private func makeTemplate(_ key: String, countVariable: String?) throws -> String {
        guard let entry = table[key] else {
            throw TesseraError("missing translation '\(key)' for language '\(language)'", hint: "add `\(key): …` to i18n/\(language).yml")
        }
        let escapes = !Self.allowsHTML(key)
        switch entry {
        case .text(let text):
            return Self.placeholdersToMustache(text, count: nil, escapeHTML: escapes)
        case .plural(let forms):
            guard let countVariable else {
                throw TesseraError("translation '\(key)' has plural forms and needs a count", hint: "write {{#t}}\(key) count=<number field>{{/t}}")
            }
            let sections = PluralCategory.allCases.compactMap { category -> String? in
                guard let form = forms[category] ?? (plurals.categories.contains(category) ? forms[.other] : nil) else { return nil }
                return "{{#\(countVariable).plural.\(category.rawValue)}}\(Self.placeholdersToMustache(form, count: countVariable, escapeHTML: escapes)){{/\(countVariable).plural.\(category.rawValue)}}"
            }.joined()
            let problem = CountProblem(key: key, variable: countVariable).name
            return sections + "{{^\(countVariable).plural}}{{\(problem)}}{{/\(countVariable).plural}}"
        }
    }

    /// Keys whose text is HTML the theme author wrote on purpose: `footerHTML`, `legal_html`.
    static func allowsHTML(_ key: String) -> Bool {
        let last = key.split(separator: ".").last.map(String.init) ?? key
        return last.hasSuffix("HTML") || last.hasSuffix("_html")
    }

    /// A plural translation whose count is not a number: encoded as a variable name no view data
    /// can have, so the render reaches the scope's root with it.
    struct CountProblem: Equatable {
        var key: String
        var variable: String
        /// Letters and digits only: other characters are syntax in a template name.
        static let prefix = "tesseraPluralCount_"

        var name: String {
            Self.prefix + Hex.string((key + "\u{1}" + variable).utf8)
        }

        init(key: String, variable: String) {
            self.key = key
            self.variable = variable
        }

        init?(name: String) {
            guard name.hasPrefix(Self.prefix) else { return nil }
            let hex = Array(name.dropFirst(Self.prefix.count))
            guard hex.count % 2 == 0 else { return nil }
            let bytes = stride(from: 0, to: hex.count, by: 2).compactMap { UInt8(String(hex[$0..<$0 + 2]), radix: 16) }
            let parts = String(decoding: bytes, as: UTF8.self).split(separator: "\u{1}", omittingEmptySubsequences: false)
            guard parts.count == 2 else { return nil }
            key = String(parts[0])
            variable = String(parts[1])
        }
    }

    static func fill(_ text: String, _ values: [String: String]) -> String {
        guard !values.isEmpty, text.utf8.contains(UInt8(ascii: "{")) else { return text }
        if let filled = text.withUTF8Bytes({ filledBytes($0, values) }) { return filled.withUnsafeBufferPointer { String(validUTF8: $0) } }
        return filledByCharacter(text, values)
    }

    /// `fill` by `Character`: `{name}` replaced by `values["name"]`, other braces kept.
    static func filledByCharacter(_ text: String, _ values: [String: String]) -> String {
        // One pass: a value is never searched for placeholders itself.
        var result = ""
        var rest = text[...]
        while let open = rest.firstIndex(of: "{") {
            result += rest[..<open]
            if let close = rest[open...].firstIndex(of: "}"), let value = values[String(rest[rest.index(after: open)..<close])] {
                result += value
                rest = rest[rest.index(after: close)...]
            } else {
                result += "{"
                rest = rest[rest.index(after: open)...]
            }
        }
        return result + rest
    }

    /// `fill` by bytes, where every `{` and `}` has ASCII (or nothing) on both sides, so each is
    /// a `Character` of its own, as the `Character` search finds it; nil otherwise. It was 2,900
    /// instructions a call by `Character`, 14 calls a page of components (their plural texts).
    static func filledBytes(_ bytes: UnsafeBufferPointer<UInt8>, _ values: [String: String]) -> [UInt8]? {
        let open = UInt8(ascii: "{"), close = UInt8(ascii: "}")
        for index in bytes.indices where bytes[index] == open || bytes[index] == close {
            if index > 0, bytes[index - 1] >= 0x80 { return nil }
            if index + 1 < bytes.count, bytes[index + 1] >= 0x80 { return nil }
        }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var rest = 0
        while let start = ByteSearch.firstIndex(of: open, in: bytes, from: rest) {
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[rest..<start]))
            if let end = ByteSearch.firstIndex(of: close, in: bytes, from: start + 1),
               let value = values[String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)] {
                value.withUTF8Bytes { out.append(contentsOf: $0) }
                rest = end + 1
            } else {
                out.append(open)
                rest = start + 1
            }
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[rest...]))
        return out
    }

    static func placeholdersToMustache(_ text: String, count: String?, escapeHTML: Bool = false) -> String {
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
                let character = text[index]
                // A literal brace is written as its character reference, so no text of a
                // translation (even `{` next to a placeholder, `{{name}`) can form a Mustache tag.
                if let entity = braceEntities[character] ?? (escapeHTML ? htmlEntities[character] : nil) { result += entity } else { result.append(character) }
                index = text.index(after: index)
            }
        }
        return result
    }

    private static let braceEntities: [Character: String] = ["{": "&#123;", "}": "&#125;"]
    private static let htmlEntities: [Character: String] = ["<": "&lt;", ">": "&gt;", "&": "&amp;", "\"": "&quot;", "'": "&#39;"]
}
