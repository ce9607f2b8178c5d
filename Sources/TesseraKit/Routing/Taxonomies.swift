import Foundation

/// A way of grouping pages by words in their front matter: `tags` (the default), `categories`, …
public struct Taxonomy: Sendable, Equatable {
    /// The front matter key and the URL segment: `tags` → `/tags/`, `/tags/swift/`.
    public var name: String
    /// The component each page of a term page is shown as: `article-thumb` when the theme has
    /// it; without one, a term page is a plain list of links in its body.
    public var component: String?
    /// Items per term page (a term with more pages gets `/tags/swift/page/2/`, …).
    public var paginate = 10
    /// Feeds of each term's pages, beside the term page.
    public var feeds: [FeedFormat] = []
    public var location: SourceLocation

    public init(name: String, location: SourceLocation) {
        self.name = name
        self.location = location
    }

    /// `Tags` for `tags`: the title of the list of terms.
    var title: String { name.prefix(1).uppercased() + name.dropFirst() }

    static let optionKeys = ["component", "paginate", "feeds"]

    /// An entry of `taxonomies:` in site.yml: a name, with options when written as a mapping.
    static func parse(name: String, options: ContentNode?, at location: SourceLocation) throws -> Taxonomy {
        guard !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) else {
            throw TesseraError("the taxonomy '\(name)' must be a word of letters, digits and dashes: it is a URL segment", at: location)
        }
        var taxonomy = Taxonomy(name: name, location: location)
        guard let options, !options.isNull else { return taxonomy }
        guard let entries = options.entries else {
            throw TesseraError("the options of taxonomy '\(name)' must be a mapping", at: options.location, hint: "write `\(name): { paginate: 10, feeds: [rss] }`")
        }
        let errors = DiagnosticCollector()
        for option in entries {
            let node = option.value
            switch option.key {
            case "component":
                if case .string(let code) = node.value, !code.isEmpty { taxonomy.component = code } else {
                    errors.report(Diagnostic(.error, "a taxonomy's 'component' must be a component code", at: node.location))
                }
            case "paginate":
                if case .int(let count) = node.value, count > 0 { taxonomy.paginate = count } else {
                    errors.report(Diagnostic(.error, "'paginate' must be a positive whole number, found \(node.scalarText ?? node.kindDescription)", at: node.location))
                }
            case "feeds":
                _ = errors.attempt { taxonomy.feeds = try FeedFormat.parse(node) }
            default:
                errors.report(Diagnostic(
                    .error, "unknown taxonomy option '\(option.key)'", at: option.keyLocation,
                    hint: Suggestions.didYouMean(option.key, in: optionKeys) ?? "a taxonomy takes \(optionKeys.map { "'\($0)'" }.joined(separator: ", "))"))
            }
        }
        try errors.throwIfErrors()
        return taxonomy
    }

    /// A term's URL segment: lowercased letters and digits of any script (NFC), other characters
    /// spelt out or dropped, so `C++`, `C#` and `C` get three different slugs and `Café` keeps its é.
    public static func slug(_ term: String) -> String {
        // A site has few terms, each written on many pages (and shown on each).
        slugs.value(term) { makeSlug(term) }
    }

    private static let slugs = Memo<String, String>()

    private static func makeSlug(_ term: String) -> String {
        let spelt: [Character: String] = ["+": "plus", "#": "sharp", "&": "and", "@": "at", ".": "dot", "%": "percent"]
        var parts: [String] = []
        var current = ""
        for character in term.precomposedStringWithCanonicalMapping.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else {
                if !current.isEmpty { parts.append(current); current = "" }
                if let word = spelt[character] { parts.append(word) }
            }
        }
        if !current.isEmpty { parts.append(current) }
        return parts.joined(separator: "-")
    }

    /// The terms of `page` in this taxonomy, as written.
    func terms(of page: Page) -> [String] {
        if name == "tags" { return page.tags }
        guard let node = page.frontMatterValue(name) else { return [] }
        return node.list?.compactMap(\.scalarText) ?? node.scalarText.map { [$0] } ?? []
    }
}

extension Step where Product == LoadedSite {
    /// For each language and taxonomy with terms: `/tags/` listing every term with its count, and
    /// `/tags/<term>/` listing its pages, newest first, as the taxonomy's component (paginated,
    /// with feeds if asked). A content page at either URL is used instead (the site's own
    /// `content/tags/index.md`), and two terms with one slug are an error. Layouts: `terms` and
    /// `term` where the theme (or the site) has them, else `page`.
    public static var addTaxonomyPages: Step { Step("taxonomies") { site, context in
        let configuration = site.configuration
        let layouts = site.templates.layouts
        func layout(_ name: String) -> String { layouts[name] != nil ? name : "page" }
        var taken = TakenURLs()
        var added: [Page] = []
        for taxonomy in configuration.taxonomies {
            for language in configuration.languages {
                // Each page of the language with its terms, read once.
                let pages = site.pages.compactMap { page -> (page: Page, terms: [String])? in
                    guard page.language == language.code else { return nil }
                    let terms = taxonomy.terms(of: page)
                    return terms.isEmpty ? nil : (page, terms)
                }
                guard !pages.isEmpty else { continue }
                // Per slug: the term as first written, and its pages. Each term as written is
                // looked up once per page that writes it (a term is on many pages).
                var readings: [String: TermReading] = [:]
                var slugIndex: [String: Int] = [:]
                var slugs: [String] = [], names: [String] = [], members: [[Page]] = []
                for (page, pageTerms) in pages {
                    // A page that writes a term twice is listed once.
                    var listedUnder: [Int] = []
                    for term in pageTerms {
                        let reading: TermReading
                        if let known = readings[term] {
                            reading = known
                        } else {
                            let slug = Taxonomy.slug(term)
                            if slug.isEmpty {
                                reading = .noSlug
                            } else if let existing = slugIndex[slug] {
                                reading = names[existing] == term ? .slot(existing) : .sameSlug(as: existing)
                            } else {
                                reading = .slot(slugs.count)
                                slugIndex[slug] = slugs.count
                                slugs.append(slug)
                                names.append(term)
                                members.append([])
                            }
                            readings[term] = reading
                        }
                        switch reading {
                        case .noSlug:
                            context.diagnostics.report(Diagnostic(
                                .error, "the \(taxonomy.name) term '\(term)' has no letters or digits for its URL", at: page.frontMatterValue(taxonomy.name)?.location ?? page.location,
                                hint: "use a word or a number"))
                        case .sameSlug(let existing):
                            context.diagnostics.report(Diagnostic(
                                .error, "the \(taxonomy.name) terms '\(names[existing])' and '\(term)' would share the URL \(language.urlPrefix)/\(taxonomy.name)/\(slugs[existing])/",
                                at: page.frontMatterValue(taxonomy.name)?.location ?? page.location,
                                hint: "write the term the same way everywhere ('\(names[existing])' is in content/\(members[existing][0].relativePath))"))
                        case .slot(let slot):
                            guard !listedUnder.contains(slot) else { continue }
                            listedUnder.append(slot)
                            members[slot].append(page)
                        }
                    }
                }
                let terms = slugs.indices.map { (key: slugs[$0], value: (name: names[$0], pages: members[$0])) }
                let base = language.urlPrefix + "/" + taxonomy.name + "/"
                let sorted = terms.sorted { $0.key < $1.key }
                func link(_ text: String) -> String {
                    // Markdown link text: characters that would end or format it are escaped.
                    text.reduce(into: "") { out, character in
                        if "\\[]*_`<>!#&".contains(character) { out.append("\\") }
                        out.append(character)
                    }
                }
                if !taken.contains(base, among: site.pages) {
                    var list = Page(sourcePath: configuration.file, relativePath: taxonomy.name + "/index.md", kind: .markdown, url: base, layoutLocation: taxonomy.location)
                    list.title = taxonomy.title
                    list.language = language.code
                    list.translationKey = "taxonomy:" + taxonomy.name
                    list.layout = layout("terms")
                    list.layoutIsExplicit = true
                    list.isGenerated = true
                    // Site-relative targets: Markdown links get the base path like every link.
                    list.body = sorted.map { "- [\(link($0.value.name))](\(base)\($0.key)/) (\($0.value.pages.count))" }.joined(separator: "\n") + "\n"
                    list.params = [.init(key: "terms", keyLocation: taxonomy.location, value: ContentNode(.list(sorted.map { slug, term in
                        ContentNode(.map([
                            .init(key: "name", keyLocation: taxonomy.location, value: ContentNode(.string(term.name), at: taxonomy.location)),
                            .init(key: "url", keyLocation: taxonomy.location, value: ContentNode(.string(configuration.basePath + base.dropFirst() + slug + "/"), at: taxonomy.location)),
                            .init(key: "count", keyLocation: taxonomy.location, value: ContentNode(.int(term.pages.count), at: taxonomy.location)),
                        ]), at: taxonomy.location)
                    }), at: taxonomy.location))]
                    added.append(list)
                    taken.take(base, among: site.pages)
                }
                for (slug, term) in sorted where !taken.contains(base + slug + "/", among: site.pages) {
                    var page = Page(sourcePath: configuration.file, relativePath: taxonomy.name + "/" + slug + "/index.md", kind: .markdown, url: base + slug + "/", layoutLocation: taxonomy.location)
                    page.title = term.name
                    page.language = language.code
                    page.translationKey = "taxonomy:" + taxonomy.name + "/" + slug
                    page.layout = layout("term")
                    page.layoutIsExplicit = true
                    page.isGenerated = true
                    if let component = taxonomy.component ?? (site.components["article-thumb"] != nil ? "article-thumb" : nil) {
                        var query = PageQuery(component: component, componentLocation: taxonomy.location, location: taxonomy.location)
                        query.termFilter = .init(key: taxonomy.name, terms: [term.name])
                        query.paginate = taxonomy.paginate
                        page.feeds = taxonomy.feeds
                        page.feedsLocation = taxonomy.location
                        page.sections = [PageSection(id: nil, layout: PageSection.defaultLayout, layoutLocation: taxonomy.location, header: nil, items: [], footer: nil, query: query, location: taxonomy.location)]
                    } else {
                        let newest = term.pages.sorted { ($0.date ?? .distantPast, $1.relativePath) > ($1.date ?? .distantPast, $0.relativePath) }
                        page.body = newest.map { "- [\(link($0.title ?? $0.relativePath))](\($0.url))" }.joined(separator: "\n") + "\n"
                    }
                    page.params = [
                        .init(key: "taxonomy", keyLocation: taxonomy.location, value: ContentNode(.string(taxonomy.name), at: taxonomy.location)),
                        .init(key: "count", keyLocation: taxonomy.location, value: ContentNode(.int(term.pages.count), at: taxonomy.location)),
                        .init(key: "taxonomyTitle", keyLocation: taxonomy.location, value: ContentNode(.string(taxonomy.title), at: taxonomy.location)),
                        .init(key: "termsURL", keyLocation: taxonomy.location, value: ContentNode(.string(configuration.basePath + base.dropFirst()), at: taxonomy.location)),
                    ]
                    added.append(page)
                    taken.take(page.url, among: site.pages)
                }
            }
        }
        site.pages += added
    } }
}

/// How a term as written is listed: in its slot, not at all (no letters or digits), or as an
/// error (another spelling has its slug).
private enum TermReading { case slot(Int), noSlug, sameSlug(as: Int) }
