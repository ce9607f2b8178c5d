import Foundation

/// A page's JSON: `<page>/index.json` (or `404.json`), format `tessera.page`.
public struct TesseraPageDocument: Decodable, Sendable, Equatable {
    public static let format = "tessera.page"

    public let format: String
    /// The format version; 5 or newer (newer versions only add keys, which are ignored).
    public let version: Int
    public let page: TesseraPageInfo
    /// The page's sections in order: what a feed screen shows.
    public let sections: [TesseraSection]
    /// The page's content as blocks, for article-like pages; nil when the page has none.
    /// Blocks of kinds this client does not know are kept as ``TesseraBlock/unknown(kind:)``
    /// so an app can skip them (as the spec asks) without losing their position.
    public let body: [TesseraBlock]?

    private enum CodingKeys: String, CodingKey { case page, sections, body }

    public init(from decoder: any Decoder) throws {
        (format, version) = try TesseraEnvelope.check(decoder, format: Self.format)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        page = try container.decode(TesseraPageInfo.self, forKey: .page)
        sections = try container.decodeIfPresent([TesseraSection].self, forKey: .sections) ?? []
        body = try container.decodeIfPresent([TesseraBlock].self, forKey: .body)
    }
}

/// The `page` object: what the page is, where it lives, and how it relates to other pages.
public struct TesseraPageInfo: Decodable, Sendable, Equatable {
    /// The content path without extension ("blog/first-post"); later pages of a list add `/page/<n>`.
    public let id: String
    /// The page's HTML URL ("/blog/first-post/").
    public let url: String
    /// This document's own URL ("/blog/first-post/index.json").
    public let json: String
    public let lang: String
    public let tags: [String]
    public let title: String?
    public let summary: String?
    /// RFC 3339 as written; see ``dateValue`` for a `Date`.
    public let date: String?
    public let permalink: String?
    /// The lowest app version that shows this page fully; compare with ``TesseraClient/isSupported(_:)``.
    public let minClientVersion: TesseraVersion
    public let image: TesseraImage?
    public let translations: [TesseraTranslation]?
    public let pagination: TesseraPagination?
    /// The table of contents; its entries' shape is not fixed by the spec, so they stay values.
    public let toc: [TesseraValue]?
    /// The taxonomy ("tags") on a taxonomy's list page and its term pages.
    public let taxonomy: String?
    /// The terms, on a taxonomy's list page.
    public let terms: [TesseraTerm]?
    /// The term, on a term's page (`url`/`json` are absent there).
    public let term: TesseraTerm?
    /// Keys of `page` this client does not know, kept so an app can use a newer generator's
    /// additions before the client models them.
    public let extra: [String: TesseraValue]

    private enum CodingKeys: String, CodingKey, CaseIterable {
        case id, url, json, lang, tags, title, summary, date, permalink, minClientVersion, image
        case translations, pagination, toc, taxonomy, terms, term
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        url = try c.decode(String.self, forKey: .url)
        json = try c.decode(String.self, forKey: .json)
        lang = try c.decode(String.self, forKey: .lang)
        tags = try c.decodeIfPresent([String].self, forKey: .tags) ?? []
        title = try c.decodeIfPresent(String.self, forKey: .title)
        summary = try c.decodeIfPresent(String.self, forKey: .summary)
        date = try c.decodeIfPresent(String.self, forKey: .date)
        permalink = try c.decodeIfPresent(String.self, forKey: .permalink)
        minClientVersion = try c.decode(TesseraVersion.self, forKey: .minClientVersion)
        image = try c.decodeIfPresent(TesseraImage.self, forKey: .image)
        translations = try c.decodeIfPresent([TesseraTranslation].self, forKey: .translations)
        pagination = try c.decodeIfPresent(TesseraPagination.self, forKey: .pagination)
        toc = try c.decodeIfPresent([TesseraValue].self, forKey: .toc)
        taxonomy = try c.decodeIfPresent(String.self, forKey: .taxonomy)
        terms = try c.decodeIfPresent([TesseraTerm].self, forKey: .terms)
        term = try c.decodeIfPresent(TesseraTerm.self, forKey: .term)
        extra = try TesseraEnvelope.unknownKeys(decoder, known: Set(CodingKeys.allCases.map(\.rawValue)))
    }

    /// ``date`` parsed as RFC 3339 (with or without fractional seconds); nil when absent or malformed.
    public var dateValue: Date? {
        guard let date else { return nil }
        return (try? Date(date, strategy: .iso8601))
            ?? (try? Date(date, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)))
    }
}

/// Where a list page sits in its list. Page numbers are 1-based.
public struct TesseraPagination: Decodable, Sendable, Equatable {
    public let current: Int
    public let total: Int
    /// Items over all pages (new in format 5).
    public let items: Int
    /// Items per page (new in format 5).
    public let perPage: Int
    public let first: String
    public let last: String
    /// Absent on the last page.
    public let next: String?
    /// Absent on the first page.
    public let previous: String?
}

/// The same page in another language (`translations`).
public struct TesseraTranslation: Decodable, Sendable, Equatable {
    public let lang: String
    public let url: String
    public let json: String
}

/// A taxonomy term: with `url`, `json` and `count` in a list page's `terms`, with `name` and
/// `count` as a term page's `term`.
public struct TesseraTerm: Decodable, Sendable, Equatable {
    public let name: String
    public let url: String?
    public let json: String?
    public let count: Int?
}

/// An image field value (also a page's cover).
public struct TesseraImage: Decodable, Sendable, Equatable {
    public struct Variant: Decodable, Sendable, Equatable {
        public let src: String
        public let width: Int
        public let height: Int
        /// "webp", "avif", "jpeg"…
        public let format: String
    }

    public let src: String
    public let alt: String?
    /// True for an image hosted elsewhere, which the generator did not process.
    public let external: Bool?
    public let width: Int?
    public let height: Int?
    public let original: String?
    /// The dominant colour ("#aabbcc"), to paint while the image loads.
    public let color: String?
    /// A tiny inline preview (a `data:` URL), to show blurred while the image loads.
    public let preview: String?
    public let variants: [Variant]?
}
