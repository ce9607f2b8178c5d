import Foundation

/// Which pages each language lacks: a page exists in some language (by translation key) but not
/// in this one. `tessera check` prints it, so a missing translation is found before a reader
/// follows the language switcher to the language's home instead.
public struct PageCoverage: Sendable {
    /// `missing` names each page by the file of another language's version.
    public typealias Language = LanguageCoverage

    public var languages: [Language]

    public init(pages: [Page], languages: [SiteLanguage]) {
        let written = pages.filter { !$0.isGenerated }
        var versions: [String: [String: Page]] = [:]
        for page in written { versions[page.translationKey, default: [:]][page.language] = page }
        let defaultCode = languages.first { $0.isDefault }?.code
        self.languages = languages.map { language in
            var missing: [String] = []
            for (_, byLanguage) in versions where byLanguage[language.code] == nil {
                let other = defaultCode.flatMap { byLanguage[$0] } ?? byLanguage.values.min { $0.relativePath < $1.relativePath }
                if let other { missing.append(other.relativePath) }
            }
            return Language(code: language.code, present: versions.count - missing.count, total: versions.count, missing: missing.sorted())
        }
    }

    /// One line per language: `fr: 14 of 18 pages, missing: about.md, blog/first.md`.
    public var lines: [String] {
        languages.map { language in
            var line = "\(language.code): \(language.present) of \(language.total) page\(language.total == 1 ? "" : "s")"
            if !language.missing.isEmpty {
                let shown = language.missing.prefix(10).joined(separator: ", ")
                line += ", missing: " + shown + (language.missing.count > 10 ? " and \(language.missing.count - 10) more" : "")
            }
            return line
        }
    }
}
