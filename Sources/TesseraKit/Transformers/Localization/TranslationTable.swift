import Foundation

/// The strings of one language: `i18n/<lang>.yml` of the theme, with the site's file of the same
/// language overriding it key by key.
///
/// ```yaml
/// seeAll: See all
/// greeting: "Hello, {name}!"
/// lessonsLeft:            # plural forms, by CLDR category
///   one: "{count} lesson left"
///   other: "{count} lessons left"
/// nav:                    # namespaces: nav.home
///   home: Home
/// ```
public struct TranslationTable: Sendable, Equatable {
    public enum Entry: Sendable, Equatable {
        case text(String)
        case plural([PluralCategory: String])
    }

    public var language: String
    /// True when one of this language's files failed to load: that error is reported, and the
    /// keys the file would have held are not reported again as missing.
    public internal(set) var isIncomplete = false
    public private(set) var entries: [String: Entry] = [:]
    /// Where each key was defined, for messages.
    public private(set) var locations: [String: SourceLocation] = [:]

    public init(language: String, entries: [String: Entry] = [:]) {
        self.language = language
        self.entries = entries
    }

    public subscript(key: String) -> Entry? { entries[key] }

    public var keys: Set<String> { Set(entries.keys) }

    /// Adds the keys of one file; later files win, so load the theme's before the site's.
    mutating func merge(file path: String) throws {
        let root = try YAMLParser.parseMapping(try FileTree.readText(path), file: path, what: "a translation table")
        try add(root.entries ?? [], prefix: "")
    }

    private mutating func add(_ entries: [ContentNode.Entry], prefix: String) throws {
        for entry in entries {
            let key = prefix + entry.key
            if let text = entry.value.scalarText {
                self.entries[key] = .text(text)
            } else if let map = entry.value.entries {
                let categories = map.compactMap { PluralCategory(rawValue: $0.key) }
                if !categories.isEmpty && categories.count == map.count {
                    guard map.contains(where: { $0.key == "other" }) else {
                        throw TesseraError("plural forms of '\(key)' need an 'other' form", at: entry.keyLocation, hint: "every language has the category 'other'; add it")
                    }
                    var forms: [PluralCategory: String] = [:]
                    for form in map {
                        guard let text = form.value.scalarText else { throw TesseraError("a plural form must be text", at: form.value.location) }
                        forms[PluralCategory(rawValue: form.key)!] = text
                    }
                    self.entries[key] = .plural(forms)
                } else {
                    try add(map, prefix: key + ".")
                    continue
                }
            } else {
                throw TesseraError("translation '\(key)' must be text, plural forms, or a group of keys", at: entry.value.location)
            }
            locations[key] = entry.keyLocation
        }
    }

    /// Every language's table: the theme's `i18n/<lang>.yml`, then the site's. A file that fails
    /// leaves its language incomplete, never the others empty.
    static func load(theme: Theme, languages: [SiteLanguage], diagnostics: DiagnosticCollector) -> [String: TranslationTable] {
        var tables: [String: TranslationTable] = [:]
        for directory in theme.directories(.i18n).reversed() {
            for relative in FileTree.files(in: directory, boundary: theme.inputBoundary, problems: diagnostics) where ["yml", "yaml"].contains((relative as NSString).pathExtension) {
                let code = (relative as NSString).deletingPathExtension
                guard languages.contains(where: { $0.code == code }) else { continue }
                var table = tables[code] ?? TranslationTable(language: code)
                if diagnostics.attempt({ try table.merge(file: directory + "/" + relative) }) == nil { table.isIncomplete = true }
                tables[code] = table
            }
        }
        for language in languages where tables[language.code] == nil {
            tables[language.code] = TranslationTable(language: language.code)
        }
        for code in tables.keys.sorted() {
            if let problems = tables[code]?.templateProblems(), !problems.isEmpty {
                problems.forEach(diagnostics.report)
                tables[code]?.isIncomplete = true
            }
        }
        return tables
    }

    /// Strings that would not render as templates, each at its line in the translation file.
    func templateProblems() -> [Diagnostic] {
        let translator = Translator(table: self)
        return entries.keys.sorted().compactMap { key in
            let strings: [String]
            switch entries[key] {
            case .text(let text)?: strings = [text]
            case .plural(let forms)?: strings = Array(forms.values)
            case nil: strings = []
            }
            if strings.contains(where: { $0.contains("{{") || $0.contains("}}") }) {
                return Diagnostic(
                    .error, "translation '\(key)' holds a Mustache tag", at: locations[key],
                    hint: "placeholders are written {name}; a translation may not hold Mustache tags such as {{…}}")
            }
            do {
                _ = try CompiledTemplate(kind: .partial, name: key, path: locations[key]?.file ?? "i18n/\(language).yml", text: try translator.template(key, countVariable: "count"))
                return nil
            } catch let error as TesseraError {
                let reason = error.diagnostics.first?.message.replacingOccurrences(of: "template syntax error: ", with: "") ?? "it does not parse"
                return Diagnostic(
                    .error, "translation '\(key)' is not a valid string: \(reason)", at: locations[key],
                    hint: "placeholders are written {name}; a translation may not hold Mustache tags such as {{…}}")
            } catch {
                return nil
            }
        }
    }
}
