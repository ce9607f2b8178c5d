import Foundation

/// Turns one content file into a `Page`: front matter keys, sections, URL.
struct PageParser: Equatable {
    var timeZone: TimeZone
    /// The site's languages, default first.
    var languages: [SiteLanguage] = [SiteLanguage(code: "en", isDefault: true)]
    /// URL patterns per content folder (`permalinks:` in site.yml).
    var permalinks: [Permalink] = []
    /// The characters of a summary made from the first paragraph (`summaryLength:` in site.yml).
    var summaryLength = MarkdownSummary.defaultLength
    /// The site's Markdown options, which summaries are read with.
    var markdown = SiteConfiguration.MarkdownOptions()

    static let knownKeys = ["title", "date", "draft", "slug", "layout", "lang", "translationKey", "tags", "summary", "sections", "components", "feeds", "expires", "aliases", "menu", "outputs", "search"]
    static let contentExtensions = ["md", "markdown", "yml", "yaml", "json"]

    func parse(text: String, sourcePath: String, relativePath: String) throws -> Page {
        let ext = PathText.pathExtension(relativePath).lowercased()
        let kind: Page.Kind = ["md", "markdown"].contains(ext) ? .markdown : .feed
        let front: FrontMatter
        if kind == .markdown {
            front = try FrontMatter.split(text, file: sourcePath)
        } else {
            front = FrontMatter(yaml: text, yamlLineOffset: 0, body: "", bodyLine: 1)
        }
        let what = kind == .markdown ? "front matter" : "a feed file"
        let root = try YAMLParser.parseMapping(front.yaml, file: sourcePath, lineOffset: front.yamlLineOffset, what: what)
        return try parse(root: root, body: front.body, bodyLine: front.bodyLine, kind: kind, sourcePath: sourcePath, relativePath: relativePath)
    }

    /// A page from its front matter (or feed document) already read.
    func parse(root: ContentNode, body: String, bodyLine: Int, kind: Page.Kind, sourcePath: String, relativePath: String) throws -> Page {
        let front = (body: body, bodyLine: bodyLine)
        var page = Page(
            sourcePath: sourcePath, relativePath: relativePath, kind: kind, url: "/",
            layoutLocation: root.location)
        // `<!--more-->` ends the summary; the line itself is not part of the body.
        page.body = MarkdownSummary.removingMore(from: front.body)
        page.countsBodyWords = true
        page.bodyLine = front.bodyLine
        page.frontMatter = (root.entries ?? []).filter { $0.key != "sections" && $0.key != "components" }

        let errors = DiagnosticCollector()
        for entry in root.entries ?? [] {
            errors.attempt { try apply(entry, to: &page) }
        }
        // Without `summary:`, the text before `<!--more-->` or the first paragraph summarizes the
        // page, in lists, feeds, its JSON and its description. The build cache treats the text it
        // is made from as front matter (`MarkdownSummary.source`): other pages show it.
        if page.summary == nil && kind == .markdown {
            page.summary = MarkdownSummary.summary(of: front.body, length: summaryLength, renderer: MarkdownRenderer(options: markdown))
        }
        if root["sections"] != nil, let components = root.entry("components") {
            errors.report(Diagnostic(
                .error, "a page has either 'sections' or 'components', not both", at: components.keyLocation,
                hint: "'components:' is shorthand for one section; move these items into a section under 'sections:'"))
        }
        let (path, suffix) = Self.splitLanguage(relativePath, known: languages.map(\.code))
        if let suffix {
            if let lang = root["lang"], lang.scalarText != suffix {
                errors.report(Diagnostic(.error, "the file name says '\(suffix)' but 'lang' says '\(lang.scalarText ?? "")'", at: lang.location, hint: "remove `lang:` or rename the file"))
            }
            page.language = suffix
        } else if let lang = root["lang"]?.scalarText {
            page.language = lang
        } else {
            page.language = languages.first(where: \.isDefault)?.code ?? languages[0].code
        }
        if let menu = root["menu"], !menu.isNull {
            errors.attempt {
                page.menus = try MenuEntry.parsePageMenus(menu, pageTitle: page.title, language: page.language).map { .init(menu: $0.menu, entry: $0.entry) }
            }
        }
        if let language = languages.first(where: { $0.code == page.language }) {
            if let pattern = permalinks.first(where: { $0.applies(to: path) }) {
                do {
                    page.url = language.urlPrefix + (try pattern.url(for: page, path: path))
                } catch let error as TesseraError {
                    errors.report(error)
                }
            } else {
                page.url = language.urlPrefix + Self.url(for: path, slug: page.slug)
            }
        } else {
            let location = root["lang"]?.location ?? SourceLocation(file: sourcePath)
            errors.report(Diagnostic(
                .error, "'\(page.language)' is not a language of this site", at: location,
                hint: "add it to `languages:` in site.yml (now: \(languages.map(\.code).joined(separator: ", ")))"))
        }
        if page.translationKey.isEmpty { page.translationKey = path }
        try errors.throwIfErrors()
        return page
    }

    private func apply(_ entry: ContentNode.Entry, to page: inout Page) throws {
        let node = entry.value
        switch entry.key {
        case "title": page.title = try text(node, key: "title")
        case "summary": page.summary = try text(node, key: "summary")
        case "slug":
            let slug = try text(node, key: "slug")
            // Letters of any script, digits and `-_.~`: what a URL path segment holds without
            // escaping, so the slug is the same in the file name, the link and the address bar.
            let allowed = slug.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.~".unicodeScalars.contains($0) }
            guard !slug.isEmpty, allowed, slug != ".", slug != ".." else {
                throw TesseraError("a slug must be one URL segment of letters, digits, '-', '_', '.' or '~', found '\(slug)'", at: node.location, hint: "for example `slug: swift-basics`")
            }
            page.slug = slug
        case "layout":
            page.layout = try text(node, key: "layout")
            page.layoutLocation = node.location
            page.layoutIsExplicit = true
        case "lang": _ = try text(node, key: "lang") // settled with the file name's suffix
        case "translationKey": page.translationKey = try text(node, key: "translationKey")
        case "draft":
            guard let flag = node.bool else {
                throw TesseraError("'draft' must be true or false, found \(node.kindDescription)", at: node.location)
            }
            page.draft = flag
        case "date":
            page.date = try DateParsing.date(node, timeZone: timeZone) { "'\($0)'" }
            page.dateHasTime = node.scalarText.map(DateParsing.hasTime) ?? false
        case "tags":
            if let list = node.list {
                page.tags = try list.map { try text($0, key: "tags") }
            } else if case .string(let one) = node.value {
                page.tags = [one]
            } else {
                throw TesseraError("'tags' must be a list of words, found \(node.kindDescription)", at: node.location, hint: "write `tags: [swift, ios]`")
            }
        case "expires":
            page.expires = try DateParsing.date(node, timeZone: timeZone) { "'\($0)'" }
        case "aliases":
            guard let list = node.list ?? (node.scalarText != nil ? [node] : nil) else {
                throw TesseraError("'aliases' must be a list of old URLs, found \(node.kindDescription)", at: node.location, hint: "write `aliases: [/old/path/]`")
            }
            page.aliases = try list.map { item in
                guard let text = item.scalarText, text.hasPrefix("/"), !text.hasPrefix("//"),
                      !text.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }),
                      !text.contains("?"), !text.contains("#"), !text.contains("\\") else {
                    throw TesseraError(
                        "an alias must be a path of this site such as /old/path/, found '\(item.scalarText ?? item.kindDescription)'", at: item.location,
                        hint: "write the old URL from the site's root, without the base path")
                }
                return Page.Alias(url: text.hasSuffix("/") || text.hasSuffix(".html") ? text : text + "/", location: item.location)
            }
        case "outputs":
            page.outputs = try SiteConfiguration.parseOutputs(node)
        case "search":
            // Kept with the page's other values (`page.params.search`); read by the search index.
            guard node.bool != nil else {
                throw TesseraError("'search' must be true or false, found \(node.kindDescription)", at: node.location, hint: "write `search: false` to leave the page out of the site's search")
            }
            page.params.append(entry)
        case "menu":
            // Titles default to the page's: read after the loop, when the title is known.
            break
        case "feeds":
            page.feeds = try FeedFormat.parse(node)
            page.feedsLocation = node.location
        case "sections":
            guard let list = node.list else {
                throw TesseraError("'sections' must be a list, found \(node.kindDescription)", at: node.location, hint: "start each section with '- items:'")
            }
            let errors = DiagnosticCollector()
            page.sections = list.compactMap { item in errors.attempt { try PageSection.parse(item) } }
            try errors.throwIfErrors()
        case "components":
            guard node.list != nil else {
                throw TesseraError("'components' must be a list, found \(node.kindDescription)", at: node.location, hint: "start each component with '- component:'")
            }
            let wrapper = ContentNode(.map([.init(key: "items", keyLocation: entry.keyLocation, value: node)]), at: node.location)
            page.sections = [try PageSection.parse(wrapper)]
        default:
            page.params.append(entry)
        }
    }

    private func text(_ node: ContentNode, key: String) throws -> String {
        switch node.value {
        case .string(let s): return s
        case .int, .double, .bool, .timestamp: return node.scalarText ?? ""
        default:
            throw TesseraError("'\(key)' must be text, found \(node.kindDescription)", at: node.location)
        }
    }

    /// Warnings for custom keys that look like misspelt known keys (`sectons:` would otherwise
    /// silently become a custom field and the page would render without its feed).
    static func lookalikeWarnings(_ page: Page) -> [Diagnostic] {
        page.params.compactMap { entry in
            guard let near = Suggestions.nearest(to: entry.key, in: knownKeys, limit: 1).first, near != entry.key,
                  Suggestions.editDistance(entry.key, near) <= 2 else { return nil }
            return Diagnostic(
                .warning, "'\(entry.key)' is not a front matter key Tessera knows; it is kept as a custom value",
                at: entry.keyLocation, hint: "did you mean '\(near)'?")
        }
    }

    /// `about.fr.md` → (`about.md`, `fr`) when `fr` is a site language. A suffix that is a known
    /// ISO language code but not a site language is returned too, so the page gets a clear error.
    static func splitLanguage(_ relativePath: String, known: [String]) -> (path: String, language: String?) {
        let ext = PathText.pathExtension(relativePath)
        let stem = PathText.deletingPathExtension(relativePath)
        let suffix = PathText.pathExtension(stem)
        guard !suffix.isEmpty else { return (relativePath, nil) }
        let isLanguage = known.contains(suffix)
            || (suffix.count == 2 && suffix.allSatisfy(\.isLowercase) && Locale.LanguageCode.isoLanguageCodes.contains(Locale.LanguageCode(suffix)))
        guard isLanguage else { return (relativePath, nil) }
        return (PathText.deletingPathExtension(stem) + "." + ext, suffix)
    }

    /// `a/b.md` → `/a/b/`, `a/index.md` → `/a/`, `index.md` → `/`, `404.md` → `/404.html`;
    /// `slug` replaces the last segment.
    static func url(for relativePath: String, slug: String?) -> String {
        // `content/404.md` is the "not found" page servers expect at /404.html.
        if PathText.deletingPathExtension(relativePath) == "404" && slug == nil { return "/404.html" }
        var segments = relativePath.split(separator: "/").map(String.init)
        guard let file = segments.popLast() else { return "/" }
        let stem = PathText.deletingPathExtension(file)
        if stem != "index" && stem != "_index" { segments.append(stem) }
        if let slug {
            if segments.isEmpty { segments = [slug] } else { segments[segments.count - 1] = slug }
        }
        return segments.isEmpty ? "/" : "/" + segments.joined(separator: "/") + "/"
    }
}
