import Foundation

/// `site.yml`: every key has a default, so an empty file is a valid site.
public struct SiteConfiguration: Sendable, Equatable {
    public var title: String = "My Tessera site"
    /// Where the site is published; its path becomes the prefix of every internal URL.
    public var baseURL: String = "/"
    public var theme: String = "default"
    public var themeLocation: SourceLocation?
    public var language: String = "en"
    /// Every language of the site, the default (`language`) first. One entry unless `languages:` lists more.
    public var languages: [SiteLanguage] = [SiteLanguage(code: "en", isDefault: true)]
    public var languagesLocation: SourceLocation?
    /// How a template's missing translation is reported: an error (default) or a warning.
    public var missingTranslations: Diagnostic.Severity = .error
    public var timeZone: TimeZone = TimeZone(identifier: "UTC")!
    public var buildDate: Date?
    public var output: String = "public"
    public var outputLocation: SourceLocation?
    /// Follow symbolic links that lead outside the site folder.
    public var allowExternalSymlinks = false
    public var markdown = MarkdownOptions()
    /// How images are resized and converted (`images:`).
    public var images = ImageOptions()
    /// `search:`: the full-text index.
    public var search = SearchOptions()
    /// The image the site's icons are made from (`icon:`), relative to the output folder;
    /// nil: `favicon.svg` or `favicon.png` of the static files.
    public var icon: String?
    public var iconLocation: SourceLocation?
    /// What syndication feeds (`feeds:` in front matter) hold.
    public var feeds = FeedOptions()
    /// The characters of a summary made from a page's first paragraph (`summaryLength:`).
    public var summaryLength = MarkdownSummary.defaultLength
    /// URL patterns per content folder.
    public var permalinks: [Permalink] = []
    /// Groupings of pages with a page per term; `tags` unless site.yml says otherwise.
    public var taxonomies: [Taxonomy] = [Taxonomy(name: "tags", location: SourceLocation(file: "site.yml"))]
    /// What each page is written as: `html` and `json` (its view data for apps) by default.
    public var outputs = ["html", "json"]
    /// Menus written in site.yml (`menus: { main: [...] }`); pages add themselves with `menu:`.
    public var menus: [String: [MenuEntry]] = [:]
    /// The currency of `currency` fields that give only an amount.
    public var currency: String = "USD"
    /// Free values for templates: `site.params.<key>`.
    public var params: [ContentNode.Entry] = []
    public var file: String

    public struct FeedOptions: Sendable, Equatable {
        /// Each entry's full Markdown body, or only its `summary`.
        public var fullContent = false
        /// Entries per feed, newest first as the page's query orders them.
        public var limit = 20
        public init() {}
    }

    static let keys = ["title", "baseURL", "theme", "language", "languages", "timeZone", "buildDate", "output", "markdown", "currency", "params", "i18n", "allowExternalSymlinks", "feeds", "permalinks", "taxonomies", "menus", "outputs", "summaryLength", "images", "icon", "search"]

    public var defaultLanguage: SiteLanguage { languages.first { $0.isDefault } ?? languages[0] }

    public func language(_ code: String) -> SiteLanguage? { languages.first { $0.code == code } }

    /// The site's name on pages in `language`: that language's `title:`, else the default
    /// language's, else `title`. What a page's header, its feeds and its structured data call it.
    public func title(in language: String) -> String {
        self.language(language)?.title ?? defaultLanguage.title ?? title
    }

    /// `https://example.com` for an absolute baseURL, "" otherwise: prefixed to a site-relative
    /// URL (that already carries the base path) it makes the absolute one.
    public var origin: String {
        guard let url = URL(string: baseURL), let scheme = url.scheme, let host = url.host else { return "" }
        return "\(scheme)://\(host)" + (url.port.map { ":\($0)" } ?? "")
    }

    /// Why `baseURL` cannot prefix the site's URLs, or nil. Its path is put in front of every
    /// internal URL, so it must stay a plain path on the site's own host: no `//` or backslash
    /// that a browser reads as another host, no encoded slashes, query, fragment or spaces.
    static func problem(withBaseURL text: String) -> String? {
        if text.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.value < 0x20 || $0.value == 0x7F }) {
            return "holds spaces or control characters"
        }
        if text.contains("\\") { return "holds a backslash, which browsers read as a slash" }
        if text.contains("?") || text.contains("#") { return "holds a query or fragment" }
        if text.lowercased().contains("%2f") || text.lowercased().contains("%5c") { return "holds an encoded slash" }
        var path = text
        if let colon = text.firstIndex(of: ":"), !text[..<colon].contains("/") {
            let scheme = text[..<colon].lowercased()
            guard scheme == "http" || scheme == "https" else { return "must be an http or https URL, or a path" }
            guard let url = URL(string: text), let host = url.host, !host.isEmpty,
                  text.dropFirst(scheme.count + 1).hasPrefix("//") else { return "must name a host: https://example.com/" }
            let afterHost = text.dropFirst(scheme.count + 3).drop { $0 != "/" }
            path = String(afterHost)
        } else if text.hasPrefix("//") {
            return "starts with //, which names another host"
        }
        if path.contains("//") { return "has an empty path segment (//), which browsers can read as another host" }
        if path.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) { return "holds . or .. segments" }
        return nil
    }

    /// The path part of `baseURL`, always starting and ending with `/`.
    public var basePath: String {
        var path = baseURL
        if let url = URL(string: baseURL), url.scheme != nil { path = url.path }
        if !path.hasPrefix("/") { path = "/" + path }
        if !path.hasSuffix("/") { path += "/" }
        return path
    }

    public init(file: String) {
        self.file = file
    }

    /// Reads `site.yml` in `directory`; a missing file is an empty configuration.
    public static func load(from directory: String) throws -> SiteConfiguration {
        let path = directory + "/site.yml"
        var config = SiteConfiguration(file: path)
        guard FileManager.default.fileExists(atPath: path) else { return config }
        let root = try YAMLParser.parseMapping(try FileTree.readText(path), file: path, what: "site.yml")
        let errors = DiagnosticCollector()
        // The time zone first: buildDate is read in it.
        let entries = root.entries ?? []
        for entry in entries.filter({ $0.key == "timeZone" }) + entries.filter({ $0.key != "timeZone" }) {
            errors.attempt { try config.apply(entry) }
        }
        errors.attempt { try config.settleLanguages(root["languages"]) }
        try errors.throwIfErrors()
        return config
    }

    /// `languages: [en, fr]` or `languages: { en: {}, fr: { title: …, name: … } }`; the default
    /// language (`language:`) must be one of them and comes first.
    private mutating func settleLanguages(_ node: ContentNode?) throws {
        guard let node else {
            languages = [SiteLanguage(code: language, isDefault: true)]
            return
        }
        var parsed: [SiteLanguage] = []
        if let list = node.list {
            for item in list {
                guard let code = item.scalarText else { throw TesseraError("a language must be a code such as fr", at: item.location) }
                try SiteLanguage.checkCode(code, at: item.location)
                try Self.checkNotRepeated(code, in: parsed, at: item.location)
                parsed.append(SiteLanguage(code: code, isDefault: code == language))
            }
        } else if let entries = node.entries {
            for entry in entries {
                try SiteLanguage.checkCode(entry.key, at: entry.keyLocation)
                try Self.checkNotRepeated(entry.key, in: parsed, at: entry.keyLocation)
                var title: String?, name: String?
                for option in entry.value.entries ?? [] {
                    switch option.key {
                    case "title": title = option.value.scalarText
                    case "name": name = option.value.scalarText
                    default: throw TesseraError("unknown language option '\(option.key)'", at: option.keyLocation, hint: "a language takes 'title' and 'name'")
                    }
                }
                parsed.append(SiteLanguage(code: entry.key, name: name, title: title, isDefault: entry.key == language))
            }
        } else {
            throw TesseraError("'languages' must be a list of codes or a mapping", at: node.location, hint: "write `languages: [en, fr, de]`")
        }
        guard parsed.contains(where: \.isDefault) else {
            throw TesseraError(
                "the default language '\(language)' is not among 'languages'", at: node.location,
                hint: "add \(language) to 'languages', or set `language:` to one of \(parsed.map(\.code).joined(separator: ", "))")
        }
        languages = parsed.filter(\.isDefault) + parsed.filter { !$0.isDefault }
    }

    /// Language tags are case-insensitive (BCP 47): `en` and `EN` are one language, listed twice.
    private static func checkNotRepeated(_ code: String, in parsed: [SiteLanguage], at location: SourceLocation) throws {
        if let earlier = parsed.first(where: { $0.code.lowercased() == code.lowercased() }) {
            throw TesseraError(
                "the language '\(code)' is listed twice" + (earlier.code == code ? "" : " (as '\(earlier.code)')"), at: location,
                hint: "list each language once")
        }
    }

    private mutating func apply(_ entry: ContentNode.Entry) throws {
        let node = entry.value
        func text() throws -> String {
            guard let s = node.scalarText, !(node.list != nil || node.entries != nil) else {
                throw TesseraError("'\(entry.key)' must be text, found \(node.kindDescription)", at: node.location)
            }
            return s
        }
        switch entry.key {
        case "title": title = try text()
        case "baseURL":
            baseURL = try text()
            if let problem = Self.problem(withBaseURL: baseURL) {
                throw TesseraError(
                    "'baseURL' \(problem)", at: node.location,
                    hint: "write where the site is published: https://example.com/ or https://example.com/docs/, or a path such as /docs/")
            }
        case "theme":
            theme = try text()
            themeLocation = node.location
        case "language":
            language = try text()
            try SiteLanguage.checkCode(language, at: node.location)
        case "languages": languagesLocation = node.location
        case "i18n":
            guard let entries = node.entries else {
                throw TesseraError("'i18n' must be a mapping", at: node.location, hint: "write `i18n: { missingTranslations: warning }`")
            }
            for option in entries {
                guard option.key == "missingTranslations" else {
                    throw TesseraError("unknown i18n option '\(option.key)'", at: option.keyLocation, hint: "the option is 'missingTranslations: error|warning'")
                }
                switch option.value.scalarText {
                case "error": missingTranslations = .error
                case "warning": missingTranslations = .warning
                default: throw TesseraError("'missingTranslations' must be error or warning", at: option.value.location)
                }
            }
        case "currency":
            currency = try text().uppercased()
            try NumberTransformers.checkCurrency(currency, at: node.location)
        case "output":
            output = try text()
            outputLocation = node.location
        case "allowExternalSymlinks":
            guard let flag = node.bool else { throw TesseraError("'allowExternalSymlinks' must be true or false", at: node.location) }
            allowExternalSymlinks = flag
        case "timeZone":
            let name = try text()
            guard let zone = TimeZone(identifier: name) else {
                throw TesseraError("unknown time zone '\(name)'", at: node.location, hint: "use an IANA name such as UTC, Europe/Paris or America/New_York")
            }
            timeZone = zone
        case "buildDate":
            buildDate = try DateParsing.date(node, timeZone: timeZone) { _ in "'buildDate'" }
        case "menus":
            menus = try MenuEntry.parseMenus(node)
        case "outputs":
            outputs = try Self.parseOutputs(node)
        case "taxonomies":
            // `[tags, categories]`, or `{ tags: { component: article-thumb }, categories: {} }`.
            let items: [(String, ContentNode?, SourceLocation)]
            if let list = node.list {
                items = try list.map { item in
                    guard let name = item.scalarText else { throw TesseraError("a taxonomy must be a name such as tags", at: item.location) }
                    return (name, nil, item.location)
                }
            } else if let entries = node.entries {
                items = entries.map { ($0.key, $0.value, $0.keyLocation) }
            } else {
                throw TesseraError("'taxonomies' must be a list or a mapping", at: node.location, hint: "write `taxonomies: [tags, categories]`")
            }
            taxonomies = try items.map { try Taxonomy.parse(name: $0, options: $1, at: $2) }
        case "permalinks":
            guard let entries = node.entries else {
                throw TesseraError("'permalinks' must map content folders to URL patterns", at: node.location, hint: "write `permalinks: { blog: /:year/:month/:slug/ }`")
            }
            permalinks = try entries.map { entry in
                guard let pattern = entry.value.scalarText else {
                    throw TesseraError("a permalink pattern must be text such as /:year/:slug/", at: entry.value.location)
                }
                return try Permalink(folder: entry.key, pattern: pattern, location: entry.value.location)
            }
        case "feeds":
            guard let entries = node.entries else {
                throw TesseraError("'feeds' must be a mapping, found \(node.kindDescription)", at: node.location, hint: "write `feeds: { content: summary, limit: 20 }`")
            }
            for option in entries {
                switch option.key {
                case "content":
                    guard let value = option.value.scalarText, ["summary", "full"].contains(value) else {
                        throw TesseraError("'feeds.content' must be `summary` or `full`", at: option.value.location)
                    }
                    feeds.fullContent = value == "full"
                case "limit":
                    guard case .int(let limit) = option.value.value, limit > 0 else {
                        throw TesseraError("'feeds.limit' must be a positive whole number", at: option.value.location)
                    }
                    feeds.limit = limit
                default:
                    throw TesseraError("unknown feeds option '\(option.key)'", at: option.keyLocation, hint: Suggestions.didYouMean(option.key, in: ["content", "limit"]) ?? "the options are 'content' and 'limit'")
                }
            }
        case "images":
            try images.read(node)
        case "search":
            try search.read(node)
        case "icon":
            guard let path = node.scalarText, !path.isEmpty, !path.contains("..") else {
                throw TesseraError("'icon' must be the path of an image among the static files", at: node.location, hint: "write `icon: /images/logo.svg` (an SVG, or a PNG of at least 512 pixels)")
            }
            icon = path.hasPrefix("/") ? String(path.dropFirst()) : path
            iconLocation = node.location
        case "summaryLength":
            guard case .int(let length) = node.value, length >= 20 else {
                throw TesseraError("'summaryLength' must be a whole number of characters, at least 20", at: node.location, hint: "write `summaryLength: 160`")
            }
            summaryLength = length
        case "markdown":
            guard let entries = node.entries else {
                throw TesseraError("'markdown' must be a mapping, found \(node.kindDescription)", at: node.location, hint: "write `markdown: { smart: true, unsafe: false }`")
            }
            for option in entries {
                guard let flag = option.value.bool else {
                    throw TesseraError("'markdown.\(option.key)' must be true or false", at: option.value.location)
                }
                guard markdown.set(option.key, to: flag) else {
                    let names = MarkdownOptions.names
                    let list = names.dropLast().map { "'\($0)'" }.joined(separator: ", ") + " and '\(names.last!)'"
                    throw TesseraError("unknown markdown option '\(option.key)'", at: option.keyLocation, hint: Suggestions.didYouMean(option.key, in: names) ?? "the options are \(list)")
                }
            }
        case "params":
            guard let entries = node.entries else {
                throw TesseraError("'params' must be a mapping, found \(node.kindDescription)", at: node.location)
            }
            params = entries
        default:
            throw TesseraError(
                "unknown site.yml key '\(entry.key)'", at: entry.keyLocation,
                hint: Suggestions.didYouMean(entry.key, in: Self.keys) ?? "put values of your own under `params:`")
        }
    }
}

extension SiteConfiguration {
    static let outputFormats = ["html", "json"]

    /// `outputs: [html, json]`, `[html]`, `[json]` or `[]`.
    static func parseOutputs(_ node: ContentNode) throws -> [String] {
        guard let list = node.list ?? (node.scalarText.map { [ContentNode(.string($0), at: node.location)] }) else {
            throw TesseraError("'outputs' must be a list of formats, found \(node.kindDescription)", at: node.location, hint: "write `outputs: [html, json]`")
        }
        return try list.map { item in
            guard let name = item.scalarText, outputFormats.contains(name) else {
                throw TesseraError(
                    "unknown output format '\(item.scalarText ?? item.kindDescription)'", at: item.location,
                    hint: Suggestions.didYouMean(item.scalarText ?? "", in: outputFormats) ?? "the formats are html and json")
            }
            return name
        }
    }
}
