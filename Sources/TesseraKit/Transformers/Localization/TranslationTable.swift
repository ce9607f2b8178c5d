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

    /// Every language's table: the theme's `i18n/<lang>.yml`, then the site's.
    static func load(theme: Theme, languages: [SiteLanguage]) throws -> [String: TranslationTable] {
        var tables: [String: TranslationTable] = [:]
        let errors = DiagnosticCollector()
        for directory in theme.directories(.i18n).reversed() {
            for relative in FileTree.files(in: directory) where ["yml", "yaml"].contains((relative as NSString).pathExtension) {
                let code = (relative as NSString).deletingPathExtension
                guard languages.contains(where: { $0.code == code }) else { continue }
                var table = tables[code] ?? TranslationTable(language: code)
                errors.attempt { try table.merge(file: directory + "/" + relative) }
                tables[code] = table
            }
        }
        try errors.throwIfErrors()
        for language in languages where tables[language.code] == nil {
            tables[language.code] = TranslationTable(language: language.code)
        }
        return tables
    }
}
