import Foundation

/// A page as parsed from one file of `content/`: metadata, its feed of sections, and its Markdown body.
public struct Page: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Markdown with YAML front matter.
        case markdown
        /// A `.yml`/`.json` document: the same keys as front matter, no body.
        case feed
    }

    public var sourcePath: String {
        get { stored.read.sourcePath }
        _modify { yield &stored.write.sourcePath }
    }
    /// Path below `content/`, with `/` separators: `courses/swift.md`.
    public var relativePath: String {
        get { stored.read.relativePath }
        _modify { yield &stored.write.relativePath }
    }
    public var kind: Kind {
        get { stored.read.kind }
        _modify { yield &stored.write.kind }
    }
    /// Site-relative URL with a trailing slash: `/courses/swift/`.
    public var url: String {
        get { stored.read.url }
        _modify { yield &stored.write.url }
    }
    public var title: String? {
        get { stored.read.title }
        _modify { yield &stored.write.title }
    }
    public var date: Date? {
        get { stored.read.date }
        _modify { yield &stored.write.date }
    }
    /// False for `date: 2026-11-01`: templates then get a date without a time of day.
    public var dateHasTime: Bool {
        get { stored.read.dateHasTime }
        _modify { yield &stored.write.dateHasTime }
    }
    public var draft: Bool {
        get { stored.read.draft }
        _modify { yield &stored.write.draft }
    }
    /// After this date the page is left out of the build (`expires:`).
    public var expires: Date? {
        get { stored.read.expires }
        _modify { yield &stored.write.expires }
    }
    /// Old URLs that redirect here (`aliases: [/old/path/]`), site-relative.
    public var aliases: [Alias] {
        get { stored.read.aliases }
        _modify { yield &stored.write.aliases }
    }

    public struct Alias: Sendable, Equatable {
        public var url: String
        public var location: SourceLocation
    }
    public var slug: String? {
        get { stored.read.slug }
        _modify { yield &stored.write.slug }
    }
    public var layout: String {
        get { stored.read.layout }
        _modify { yield &stored.write.layout }
    }
    public var layoutLocation: SourceLocation {
        get { stored.read.layoutLocation }
        _modify { yield &stored.write.layoutLocation }
    }
    /// True when front matter names the layout; otherwise the build picks one by the page's kind
    /// (`list`, `article`, `term`, `terms`) where the theme has it.
    public var layoutIsExplicit: Bool {
        get { stored.read.layoutIsExplicit }
        _modify { yield &stored.write.layoutIsExplicit }
    }
    /// Made by the build (taxonomy pages, later pages of a paginated list), not read from a file:
    /// never listed by queries.
    public var isGenerated: Bool {
        get { stored.read.isGenerated }
        _modify { yield &stored.write.isGenerated }
    }
    /// Set on every page of a paginated list (`paginate:` in a query).
    public var pagination: Pagination? {
        get { stored.read.pagination }
        _modify { yield &stored.write.pagination }
    }

    public struct Pagination: Sendable, Equatable {
        /// 1-based.
        public var number: Int
        public var total: Int
        /// The URL of page 1, which the later pages are numbered below: `/blog/` → `/blog/page/2/`.
        public var firstURL: String
        /// The index of the paginated section.
        public var section: Int
        public var size: Int
        /// The items of the list over all its pages.
        public var items: Int = 0

        public func url(of number: Int) -> String { number == 1 ? firstURL : firstURL + "page/\(number)/" }
    }
    /// The page's language: from its file name (`about.fr.md`), its `lang:`, or the site default.
    public var language: String {
        get { stored.read.language }
        _modify { yield &stored.write.language }
    }
    /// Pages with the same key are translations of each other: the content path without the
    /// language suffix (`about.md` for `about.fr.md`), or front matter `translationKey:`.
    public var translationKey: String {
        get { stored.read.translationKey }
        _modify { yield &stored.write.translationKey }
    }
    public var tags: [String] {
        get { stored.read.tags }
        _modify { yield &stored.write.tags }
    }
    /// The menus this page puts itself in (`menu:`).
    public var menus: [MenuMembership] {
        get { stored.read.menus }
        _modify { yield &stored.write.menus }
    }

    public struct MenuMembership: Sendable, Equatable {
        public var menu: String
        public var entry: MenuEntry
    }
    /// Syndication feeds of the pages this page lists (`feeds: [rss, atom, json]`).
    public var feeds: [FeedFormat] {
        get { stored.read.feeds }
        _modify { yield &stored.write.feeds }
    }
    public var feedsLocation: SourceLocation? {
        get { stored.read.feedsLocation }
        _modify { yield &stored.write.feedsLocation }
    }
    public var summary: String? {
        get { stored.read.summary }
        _modify { yield &stored.write.summary }
    }
    /// Every front matter key as written, with its place: what query sections read.
    public var frontMatter: [ContentNode.Entry] {
        get { stored.read.frontMatter }
        _modify { yield &stored.write.frontMatter }
    }
    /// Custom front matter keys, passed to templates as `page.params`.
    public var params: [ContentNode.Entry] {
        get { stored.read.params }
        _modify { yield &stored.write.params }
    }
    public var sections: [PageSection] {
        get { stored.read.sections }
        _modify { yield &stored.write.sections }
    }
    public var body: String {
        get { stored.read.body.text }
        set { stored.write.body = Body(newValue) }
    }
    public var bodyLine: Int {
        get { stored.read.bodyLine }
        _modify { yield &stored.write.bodyLine }
    }
    /// Words of the body, for `page.readingTime`; 0 for generated pages. Counted when first
    /// asked (a build that keeps a page's HTML from the last build never needs them), once for
    /// every copy of the page, and kept when the build lets the body go.
    public var wordCount: Int { stored.read.countsBodyWords ? stored.read.body.wordCount : 0 }
    /// The body is the author's (a parsed page, and the later pages of its list): `wordCount`
    /// counts it.
    public var countsBodyWords: Bool {
        get { stored.read.countsBodyWords }
        _modify { yield &stored.write.countsBodyWords }
    }

    /// The file this page is written to, relative to the output folder.
    public var outputPath: String {
        if url.hasSuffix(".html") { return String(url.dropFirst()) }
        return url == "/" ? "index.html" : String(url.dropFirst()) + "index.html"
    }

    public var location: SourceLocation { SourceLocation(file: sourcePath) }

    /// Where line `line` of the body (1-based) is in the page's file.
    func location(ofBodyLine line: Int) -> SourceLocation { SourceLocation(file: sourcePath, line: bodyLine + line - 1) }

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
    public var outputs: [String]? {
        get { stored.read.outputs }
        _modify { yield &stored.write.outputs }
    }

    // MARK: Storage

    /// The fields, shared between copies until one is changed: a page is copied at every step of
    /// a build (and held by its view data), which then costs one reference instead of thirty, and
    /// a page compared with an unchanged copy of itself (the preview's caches) is equal at once.
    struct Fields: Sendable, Equatable {
        var sourcePath: String
        var relativePath: String
        var kind: Kind
        var url: String
        var title: String?
        var date: Date?
        var dateHasTime: Bool = false
        var draft: Bool = false
        var expires: Date?
        var aliases: [Alias] = []
        var slug: String?
        var layout: String = "page"
        var layoutLocation: SourceLocation
        var layoutIsExplicit: Bool = false
        var isGenerated: Bool = false
        var pagination: Pagination?
        var language: String = "en"
        var translationKey: String = ""
        var tags: [String] = []
        var menus: [MenuMembership] = []
        var feeds: [FeedFormat] = []
        var feedsLocation: SourceLocation?
        var summary: String?
        var frontMatter: [ContentNode.Entry] = []
        var params: [ContentNode.Entry] = []
        var sections: [PageSection] = []
        var body = Body("")
        var bodyLine: Int = 1
        var countsBodyWords: Bool = false
        var outputs: [String]?
    }

    private var stored: CopyOnWrite<Fields>

    public init(sourcePath: String, relativePath: String, kind: Kind, url: String, layoutLocation: SourceLocation) {
        stored = CopyOnWrite(Fields(sourcePath: sourcePath, relativePath: relativePath, kind: kind, url: url, layoutLocation: layoutLocation))
    }

    /// A page from fields stored by an earlier build (`StoredPages`).
    init(fields: Fields) {
        stored = CopyOnWrite(fields)
    }

    var fields: Fields { stored.read }

    /// Lets the body's text go from every copy of the page, keeping its word count: a build
    /// that needs it no more (`BuildOptions.keepsPageBodies`) calls this once the page is made.
    /// Reading the body afterwards is a programming error, and stops the program with a message.
    func releaseBody() {
        stored.read.body.release(countingWords: stored.read.countsBodyWords, of: stored.read.sourcePath)
    }

    /// Whether `releaseBody()` let the text go.
    var bodyIsReleased: Bool { stored.read.body.isReleased }

    public static func == (lhs: Page, rhs: Page) -> Bool {
        lhs.stored.shares(rhs.stored) || lhs.stored.read == rhs.stored.read
    }
}

extension Page {
    /// A page with a query section is a list: its layout, pagination and feeds depend on the
    /// pages it lists.
    var listsPages: Bool { sections.contains { $0.query != nil } }
}
