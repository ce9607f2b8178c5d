import Foundation

/// One language a site is written in.
public struct SiteLanguage: Sendable, Equatable {
    /// BCP 47 code as written in site.yml and file names: `fr`, `pt-BR`.
    public var code: String
    /// The language's name in itself ("Français"), for language switchers.
    public var name: String
    /// Replaces the site title for pages in this language.
    public var title: String?
    public var isDefault: Bool

    public init(code: String, name: String? = nil, title: String? = nil, isDefault: Bool) {
        self.code = code
        self.name = name ?? Self.autonym(of: code)
        self.title = title
        self.isDefault = isDefault
    }

    /// A well-formed BCP 47 tag of the common shape: a 2–3 letter language (or 5–8 letters), then
    /// optional script (`Latn`), region (`BR`, `419`) and variants. Codes become URL prefixes and
    /// folder names, so nothing else is accepted.
    public static func isValidCode(_ code: String) -> Bool {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard let language = parts.first, language.allSatisfy({ $0.isASCII && $0.isLetter }),
              (2...3).contains(language.count) || (5...8).contains(language.count) else { return false }
        var rest = parts.dropFirst()
        if let script = rest.first, script.count == 4, script.allSatisfy({ $0.isASCII && $0.isLetter }) { rest = rest.dropFirst() }
        if let region = rest.first, (region.count == 2 && region.allSatisfy({ $0.isASCII && $0.isLetter })) || (region.count == 3 && region.allSatisfy({ $0.isASCII && $0.isNumber })) {
            rest = rest.dropFirst()
        }
        return rest.allSatisfy { variant in
            variant.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
                && ((5...8).contains(variant.count) || (variant.count == 4 && variant.first!.isNumber))
        }
    }

    static func checkCode(_ code: String, at location: SourceLocation) throws {
        guard isValidCode(code) else {
            throw TesseraError(
                "'\(code)' is not a language code", at: location,
                hint: "use a BCP 47 tag such as en, fr, pt-BR or zh-Hant; it becomes the language's URL prefix")
        }
    }

    /// The default language lives at the root; every other under `/<code>/`.
    public var urlPrefix: String { isDefault ? "" : "/" + code }

    public var locale: Locale { Locale(identifier: code) }

    public var isRightToLeft: Bool {
        Locale.Language(identifier: code).characterDirection == .rightToLeft
    }

    static func autonym(of code: String) -> String {
        let locale = Locale(identifier: code)
        guard let name = locale.localizedString(forIdentifier: code), !name.isEmpty else { return code }
        return name.prefix(1).uppercased(with: locale) + name.dropFirst()
    }
}
