import Foundation

/// A query section published on its own (`<page>/sections/<id>/index.json` and its later
/// pages), format `tessera.section`: what "show more" and infinite scrolling load.
public struct TesseraSectionDocument: Decodable, Sendable, Equatable {
    public static let format = "tessera.section"

    public let format: String
    public let version: Int
    /// The id of the page the section belongs to.
    public let page: String
    /// The section, whose `items` are this page of the list.
    public let section: TesseraSection
    public let pagination: TesseraPagination?

    private enum CodingKeys: String, CodingKey { case page, section, pagination }

    public init(from decoder: any Decoder) throws {
        (format, version) = try TesseraEnvelope.check(decoder, format: Self.format)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        page = try c.decode(String.self, forKey: .page)
        section = try c.decode(TesseraSection.self, forKey: .section)
        pagination = try c.decodeIfPresent(TesseraPagination.self, forKey: .pagination)
    }
}

/// `/api/index.json`, format `tessera.index`: every page of the site, for search and sync.
public struct TesseraIndex: Decodable, Sendable, Equatable {
    public static let format = "tessera.index"

    public struct Entry: Decodable, Sendable, Equatable {
        public let id: String
        public let json: String
        public let url: String
        public let lang: String
        public let title: String?
        public let date: String?
    }

    public let format: String
    public let version: Int
    /// The component schema's URL (`/api/schema.json`).
    public let schema: String?
    /// The site document's URL (`/api/site.json`).
    public let site: String?
    public let pages: [Entry]

    private enum CodingKeys: String, CodingKey { case schema, site, pages }

    public init(from decoder: any Decoder) throws {
        (format, version) = try TesseraEnvelope.check(decoder, format: Self.format)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        schema = try c.decodeIfPresent(String.self, forKey: .schema)
        site = try c.decodeIfPresent(String.self, forKey: .site)
        pages = try c.decodeIfPresent([Entry].self, forKey: .pages) ?? []
    }
}

/// `/api/site.json`, format `tessera.site`: the site's title, languages and menus, for an app's
/// tab bar and language picker.
public struct TesseraSiteDocument: Decodable, Sendable, Equatable {
    public static let format = "tessera.site"

    public struct Language: Decodable, Sendable, Equatable {
        /// "en"
        public let code: String
        /// "English", in the language itself.
        public let name: String
        /// "ltr" or "rtl".
        public let direction: String?
        /// The language's home page URL and JSON.
        public let home: String
        public let json: String
    }

    public struct MenuItem: Decodable, Sendable, Equatable {
        public let name: String
        public let url: String
        /// Absent for links that leave the site.
        public let json: String?
        public let external: Bool
        public let children: [MenuItem]

        private enum CodingKeys: String, CodingKey { case name, url, json, external, children }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            name = try c.decode(String.self, forKey: .name)
            url = try c.decode(String.self, forKey: .url)
            json = try c.decodeIfPresent(String.self, forKey: .json)
            external = try c.decodeIfPresent(Bool.self, forKey: .external) ?? false
            children = try c.decodeIfPresent([MenuItem].self, forKey: .children) ?? []
        }
    }

    public let format: String
    public let version: Int
    public let title: String
    public let languages: [Language]
    /// Menus by language code, then by menu name ("main").
    public let menus: [String: [String: [MenuItem]]]

    private enum CodingKeys: String, CodingKey { case title, languages, menus }

    public init(from decoder: any Decoder) throws {
        (format, version) = try TesseraEnvelope.check(decoder, format: Self.format)
        let c = try decoder.container(keyedBy: CodingKeys.self)
        title = try c.decode(String.self, forKey: .title)
        languages = try c.decodeIfPresent([Language].self, forKey: .languages) ?? []
        menus = try c.decodeIfPresent([String: [String: [MenuItem]]].self, forKey: .menus) ?? [:]
    }

    /// A language's menu, e.g. `menu("main", language: "en")`; empty when it does not exist.
    public func menu(_ name: String, language: String) -> [MenuItem] { menus[language]?[name] ?? [] }
}
