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
        get { storage.fields.sourcePath }
        _modify { makeUnique(); yield &storage.fields.sourcePath }
    }
    /// Path below `content/`, with `/` separators: `courses/swift.md`.
    public var relativePath: String {
        get { storage.fields.relativePath }
        _modify { makeUnique(); yield &storage.fields.relativePath }
    }
    public var kind: Kind {
        get { storage.fields.kind }
        _modify { makeUnique(); yield &storage.fields.kind }
    }
    /// Site-relative URL with a trailing slash: `/courses/swift/`.
    public var url: String {
        get { storage.fields.url }
        _modify { makeUnique(); yield &storage.fields.url }
    }
    public var title: String? {
        get { storage.fields.title }
        _modify { makeUnique(); yield &storage.fields.title }
    }
    public var date: Date? {
        get { storage.fields.date }
        _modify { makeUnique(); yield &storage.fields.date }
    }
    /// False for `date: 2026-11-01`: templates then get a date without a time of day.
    public var dateHasTime: Bool {
        get { storage.fields.dateHasTime }
        _modify { makeUnique(); yield &storage.fields.dateHasTime }
    }
    public var draft: Bool {
        get { storage.fields.draft }
        _modify { makeUnique(); yield &storage.fields.draft }
    }
    /// After this date the page is left out of the build (`expires:`).
    public var expires: Date? {
        get { storage.fields.expires }
        _modify { makeUnique(); yield &storage.fields.expires }
    }
    /// Old URLs that redirect here (`aliases: [/old/path/]`), site-relative.
    public var aliases: [Alias] {
        get { storage.fields.aliases }
        _modify { makeUnique(); yield &storage.fields.aliases }
    }

    public struct Alias: Sendable, Equatable {
        public var url: String
        public var location: SourceLocation
    }
    public var slug: String? {
        get { storage.fields.slug }
        _modify { makeUnique(); yield &storage.fields.slug }
    }
    public var layout: String {
        get { storage.fields.layout }
        _modify { makeUnique(); yield &storage.fields.layout }
    }
    public var layoutLocation: SourceLocation {
        get { storage.fields.layoutLocation }
        _modify { makeUnique(); yield &storage.fields.layoutLocation }
    }
    /// True when front matter names the layout; otherwise the build picks one by the page's kind
    /// (`list`, `article`, `term`, `terms`) where the theme has it.
    public var layoutIsExplicit: Bool {
        get { storage.fields.layoutIsExplicit }
        _modify { makeUnique(); yield &storage.fields.layoutIsExplicit }
    }
    /// Made by the build (taxonomy pages, later pages of a paginated list), not read from a file:
    /// never listed by queries.
    public var isGenerated: Bool {
        get { storage.fields.isGenerated }
        _modify { makeUnique(); yield &storage.fields.isGenerated }
    }
    /// Set on every page of a paginated list (`paginate:` in a query).
    public var pagination: Pagination? {
        get { storage.fields.pagination }
        _modify { makeUnique(); yield &storage.fields.pagination }
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
        get { storage.fields.language }
        _modify { makeUnique(); yield &storage.fields.language }
    }
    /// Pages with the same key are translations of each other: the content path without the
    /// language suffix (`about.md` for `about.fr.md`), or front matter `translationKey:`.
    public var translationKey: String {
        get { storage.fields.translationKey }
        _modify { makeUnique(); yield &storage.fields.translationKey }
    }
    public var tags: [String] {
        get { storage.fields.tags }
        _modify { makeUnique(); yield &storage.fields.tags }
    }
    /// The menus this page puts itself in (`menu:`).
    public var menus: [MenuMembership] {
        get { storage.fields.menus }
        _modify { makeUnique(); yield &storage.fields.menus }
    }

    public struct MenuMembership: Sendable, Equatable {
        public var menu: String
        public var entry: MenuEntry
    }
    /// Syndication feeds of the pages this page lists (`feeds: [rss, atom, json]`).
    public var feeds: [FeedFormat] {
        get { storage.fields.feeds }
        _modify { makeUnique(); yield &storage.fields.feeds }
    }
    public var feedsLocation: SourceLocation? {
        get { storage.fields.feedsLocation }
        _modify { makeUnique(); yield &storage.fields.feedsLocation }
    }
    public var summary: String? {
        get { storage.fields.summary }
        _modify { makeUnique(); yield &storage.fields.summary }
    }
    /// Every front matter key as written, with its place: what query sections read.
    public var frontMatter: [ContentNode.Entry] {
        get { storage.fields.frontMatter }
        _modify { makeUnique(); yield &storage.fields.frontMatter }
    }
    /// Custom front matter keys, passed to templates as `page.params`.
    public var params: [ContentNode.Entry] {
        get { storage.fields.params }
        _modify { makeUnique(); yield &storage.fields.params }
    }
    public var sections: [PageSection] {
        get { storage.fields.sections }
        _modify { makeUnique(); yield &storage.fields.sections }
    }
    public var body: String {
        get { storage.fields.body.text }
        set { makeUnique(); storage.fields.body = Body(newValue) }
    }
    public var bodyLine: Int {
        get { storage.fields.bodyLine }
        _modify { makeUnique(); yield &storage.fields.bodyLine }
    }
    /// Words of the body, for `page.readingTime`; 0 for generated pages. Counted when first
    /// asked (a build that keeps a page's HTML from the last build never needs them), once for
    /// every copy of the page, and kept when the build lets the body go.
    public var wordCount: Int { storage.fields.countsBodyWords ? storage.fields.body.wordCount : 0 }
    /// The body is the author's (a parsed page, and the later pages of its list): `wordCount`
    /// counts it.
    public var countsBodyWords: Bool {
        get { storage.fields.countsBodyWords }
        _modify { makeUnique(); yield &storage.fields.countsBodyWords }
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
        get { storage.fields.outputs }
        _modify { makeUnique(); yield &storage.fields.outputs }
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

    private final class Storage: @unchecked Sendable {
        var fields: Fields
        init(_ fields: Fields) { self.fields = fields }
    }

    private var storage: Storage

    public init(sourcePath: String, relativePath: String, kind: Kind, url: String, layoutLocation: SourceLocation) {
        storage = Storage(Fields(sourcePath: sourcePath, relativePath: relativePath, kind: kind, url: url, layoutLocation: layoutLocation))
    }

    /// A page from fields stored by an earlier build (`StoredPages`).
    init(fields: Fields) {
        storage = Storage(fields)
    }

    var fields: Fields { storage.fields }

    /// Lets the body's text go from every copy of the page, keeping its word count: a build
    /// that needs it no more (`BuildOptions.keepsPageBodies`) calls this once the page is made.
    /// Reading the body afterwards is a programming error, and stops the program with a message.
    func releaseBody() {
        storage.fields.body.release(countingWords: storage.fields.countsBodyWords, of: storage.fields.sourcePath)
    }

    /// Whether `releaseBody()` let the text go.
    var bodyIsReleased: Bool { storage.fields.body.isReleased }

    private mutating func makeUnique() {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
    }

    public static func == (lhs: Page, rhs: Page) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.fields == rhs.storage.fields
    }
}

extension Page {
    /// A page with a query section is a list: its layout, pagination and feeds depend on the
    /// pages it lists.
    var listsPages: Bool { sections.contains { $0.query != nil } }
}
