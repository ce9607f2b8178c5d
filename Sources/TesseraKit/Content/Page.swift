import Foundation

/// A page as parsed from one file of `content/`: metadata, its feed of sections, and its Markdown body.
public struct Page: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Markdown with YAML front matter.
        case markdown
        /// A `.yml`/`.json` document: the same keys as front matter, no body.
        case feed
    }

    public var sourcePath: String
    /// Path below `content/`, with `/` separators: `courses/swift.md`.
    public var relativePath: String
    public var kind: Kind
    /// Site-relative URL with a trailing slash: `/courses/swift/`.
    public var url: String
    public var title: String?
    public var date: Date?
    /// False for `date: 2026-11-01`: templates then get a date without a time of day.
    public var dateHasTime = false
    public var draft: Bool = false
    /// After this date the page is left out of the build (`expires:`).
    public var expires: Date?
    /// Old URLs that redirect here (`aliases: [/old/path/]`), site-relative.
    public var aliases: [Alias] = []

    public struct Alias: Sendable, Equatable {
        public var url: String
        public var location: SourceLocation
    }
    public var slug: String?
    public var layout: String = "page"
    public var layoutLocation: SourceLocation
    /// True when front matter names the layout; otherwise the build picks one by the page's kind
    /// (`list`, `article`, `term`, `terms`) where the theme has it.
    public var layoutIsExplicit = false
    /// Made by the build (taxonomy pages, later pages of a paginated list), not read from a file:
    /// never listed by queries.
    public var isGenerated = false
    /// Set on every page of a paginated list (`paginate:` in a query).
    public var pagination: Pagination?

    public struct Pagination: Sendable, Equatable {
        /// 1-based.
        public var number: Int
        public var total: Int
        /// The URL of page 1, which the later pages are numbered below: `/blog/` → `/blog/page/2/`.
        public var firstURL: String
        /// The index of the paginated section.
        public var section: Int
        public var size: Int

        public func url(of number: Int) -> String { number == 1 ? firstURL : firstURL + "page/\(number)/" }
    }
    /// The page's language: from its file name (`about.fr.md`), its `lang:`, or the site default.
    public var language: String = "en"
    /// Pages with the same key are translations of each other: the content path without the
    /// language suffix (`about.md` for `about.fr.md`), or front matter `translationKey:`.
    public var translationKey: String = ""
    public var tags: [String] = []
    /// The menus this page puts itself in (`menu:`).
    public var menus: [MenuMembership] = []

    public struct MenuMembership: Sendable, Equatable {
        public var menu: String
        public var entry: MenuEntry
    }
    /// Syndication feeds of the pages this page lists (`feeds: [rss, atom, json]`).
    public var feeds: [FeedFormat] = []
    public var feedsLocation: SourceLocation?
    public var summary: String?
    /// Every front matter key as written, with its place: what query sections read.
    public var frontMatter: [ContentNode.Entry] = []
    /// Custom front matter keys, passed to templates as `page.params`.
    public var params: [ContentNode.Entry] = []
    public var sections: [PageSection] = []
    public var body: String = ""
    public var bodyLine: Int = 1
    /// Words of the body, for `page.readingTime`; 0 for generated pages.
    public var wordCount = 0
    /// The body's first paragraph as plain text, for `page.description` when front matter gives none.
    public var excerpt: String?

    /// The file this page is written to, relative to the output folder.
    public var outputPath: String {
        if url.hasSuffix(".html") { return String(url.dropFirst()) }
        return url == "/" ? "index.html" : String(url.dropFirst()) + "index.html"
    }

    public var location: SourceLocation { SourceLocation(file: sourcePath) }

    /// The page's stable id in its JSON: its content path without the extension
    /// (`blog/first-post`, `about.fr`), and the number of a later page of a list (`blog/index/page/2`).
    public var contentID: String {
        let path = PathText.deletingPathExtension(relativePath)
        guard let pagination, pagination.number > 1 else { return path }
        return path + "/page/\(pagination.number)"
    }

    /// Where the page's JSON is written, beside its HTML: `blog/index.json`, `404.json`.
    public var jsonOutputPath: String {
        let html = outputPath
        return String(html.dropLast(".html".count)) + ".json"
    }
    /// `html`, `json`, or both (`outputs:`); nil for the site's choice.
    public var outputs: [String]?
}
