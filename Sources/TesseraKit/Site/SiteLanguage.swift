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
