import Foundation

/// Maps a parsed page to its view data, reporting every problem of every component.
struct PageMapper: Sendable {
    var mapper: ViewDataMapper
    /// Language code → the context of pages in that language.
    var contexts: [String: TransformContext]
    var languages: [SiteLanguage]
    /// Translation key → language → page URL, for `page.translations`: keys of one page (most
    /// of them) hold its language and URL, without a table each.
    private var onlyVersion: [String: (language: String, url: String)] = [:]
    private var versions: [String: [String: String]] = [:]

    /// `https://example.com`, to make absolute URLs (canonical links, hreflang); "" when baseURL is a path.
    var origin: String = ""
    /// What each query section lists.
    var selections: QuerySelections
    var menus: SiteMenus
    /// The `data/` files, for queries of records.
    var data = SiteData()
    /// The site's taxonomies, for `page.terms.<taxonomy>` links.
    var taxonomies: [String] = []
    /// Language code → the site's name on its pages (`SiteConfiguration.title(in:)`): the first
    /// crumb of an article's structured data, and its publisher.
    var siteTitles: [String: String] = [:]
    /// The component each query made of each page it listed: a post listed under each of its
    /// tags and on its section's pages is mapped once per query shape and language, not once
    /// per list page. For one build's pages only (nil: every listing is mapped afresh).
    /// Keyed by the views' `sharedKey`.
    private var listedViews: Memo<String, ComponentView>? = Memo(limit: 1_000_000)

    /// This mapper without views remembered from its build, for pages of later builds.
    func forgettingListedViews() -> PageMapper {
        var copy = self
        copy.listedViews = nil
        return copy
    }

    /// `translating`: the translation keys of the pages this mapper will map, when they are few
    /// (a build that keeps most pages from the last one); nil for every page's.
    init(
        mapper: ViewDataMapper, contexts: [String: TransformContext], languages: [SiteLanguage], pages: [Page], translating: Set<String>? = nil,
        selections: QuerySelections, menus: SiteMenus, origin: String = ""
    ) {
        self.menus = menus
        self.origin = origin
        self.mapper = mapper
        self.contexts = contexts
        self.languages = languages
        self.selections = selections
        rightToLeft = Set(languages.filter(\.isRightToLeft).map(\.code))
        let homes = Dictionary(languages.map { ($0.urlPrefix + "/", $0.code) }, uniquingKeysWith: { first, _ in first })
        onlyVersion.reserveCapacity(pages.count)
        // Dated pages by language and section (the URL's first folder), oldest first.
        var dated: [String: [Page]] = [:]
        for page in pages where page.date != nil && !page.isGenerated && page.title != nil {
            let section = page.url.dropFirst().split(separator: "/", maxSplits: 1).first.map(String.init) ?? ""
            dated[page.language + "\u{0}" + section, default: []].append(page)
        }
        for (_, group) in dated where group.count > 1 {
            let sorted = group.sorted { ($0.date!, $0.relativePath) < ($1.date!, $1.relativePath) }
            for (index, page) in sorted.enumerated() {
                let older = index > 0 ? sorted[index - 1] : nil, newer = index + 1 < sorted.count ? sorted[index + 1] : nil
                neighbourPages[page.url] = (older.map { ($0.title ?? "", $0.url) }, newer.map { ($0.title ?? "", $0.url) })
            }
        }
        for page in pages {
            // Of every page, whichever this mapper maps: each page shows its language's home and feeds.
            if homes[page.url] == page.language { languageHomes[page.language] = page.url }
            if let title = page.title, !page.isGenerated { titles[page.url] = title }
            if !page.feeds.isEmpty, page.pagination.map({ $0.number == 1 }) ?? true,
               siteFeeds[page.language].map({ (page.url.count, page.url) < ($0.url.count, $0.url) }) ?? true {
                siteFeeds[page.language] = (page.url, page.feeds)
            }
            let key = page.translationKey
            if let translating, !translating.contains(key) { continue }
            if versions[key] != nil {
                versions[key]![page.language] = page.url
            } else if let other = onlyVersion[key], other.language != page.language {
                onlyVersion[key] = nil
                versions[key] = [other.language: other.url, page.language: page.url]
            } else {
                onlyVersion[key] = (page.language, page.url)
            }
        }
    }

    /// The codes of right-to-left languages (asked once per site, not once per page).
    var rightToLeft: Set<String> = []

    /// Each language's home page URL, for languages that have one.
    var languageHomes: [String: String] = [:]

    /// Page titles by URL: an article's breadcrumbs name the pages of the folders above it.
    var titles: [String: String] = [:]


    /// A dated page's neighbours in its section and language, older and newer, by URL.
    var neighbourPages: [String: (older: (title: String, url: String)?, newer: (title: String, url: String)?)] = [:]

    /// What `page`'s view shows of other pages besides those it lists: its neighbours (which
    /// posts, and their titles) and its breadcrumbs' titles. The preview maps a page again when
    /// this changes, though the page itself did not.
    func otherPagesShown(by page: Page) -> UInt64 {
        guard page.date != nil else { return 0 }
        var digest = StableDigest()
        if let found = neighbourPages[page.url] {
            for link in [found.older, found.newer] {
                digest.combine(link?.url ?? "")
                digest.combine(link?.title ?? "")
            }
        }
        for crumb in breadcrumbs(of: page, language: nil) { digest.combine(crumb.name) }
        return digest.value
    }

    /// `page.previousPage` (older) and `page.nextPage` (newer): `{ title, url }`, for a post's
    /// "previous / next" links.
    func neighbours(of page: Page, basePath: String) -> [ViewValue] {
        guard let found = neighbourPages[page.url] else { return [.null, .null] }
        func view(_ link: (title: String, url: String)?) -> ViewValue {
            link.map { .object(["title": .string($0.title), "url": .string(basePath + $0.url.dropFirst())]) } ?? .null
        }
        return [view(found.older), view(found.newer)]
    }

    /// Each language's site feeds: those of its page with feeds nearest the root (its home
    /// page's, or the blog's), linked from every page of the language for feed readers to find.
    var siteFeeds: [String: (url: String, feeds: [FeedFormat])] = [:]

    func map(_ page: Page) throws -> PageView {
        guard var context = contexts[page.language] ?? contexts.values.first else { throw TesseraError("no language for \(page.relativePath)") }
        context.pageURL = page.url
        let recorder = MarkdownRecorder()
        context.recorder = recorder
        let errors = DiagnosticCollector()
        var bodyHTML: String?
        var headings: [MarkdownHeading] = []
        var embedded: [ComponentView] = []
        var code: [RenderedCode] = []
        if !page.body.isBlank {
            do {
                var links = context.markdownLinks
                links.origin = .text(SourceLocation(file: page.sourcePath, line: page.bodyLine))
                let body = try context.markdown.document(page.body, links: links, components: true)
                bodyHTML = body.html
                headings = body.headings
                code = body.code
                embedded = body.components.compactMap { placed in errors.attempt { try embed(placed, in: page, context: context) } }
            } catch let error as MarkdownURLError {
                errors.report(error.diagnostics(from: SourceLocation(file: page.sourcePath, line: page.bodyLine), what: "the page's Markdown"))
                bodyHTML = ""
            }
        }
        var placesBody = false
        let sections = page.sections.enumerated().map { position, section -> SectionView in
            func map(_ use: ComponentUse?) -> ComponentView? {
                guard let use else { return nil }
                if use.code == BodyComponent.code { placesBody = true }
                return errors.attempt { try mapper.map(use, context: context, pageContent: bodyHTML) }
            }
            var items = section.items.compactMap(map)
            var published: [ComponentView]?
            var groups: [SectionView.Group] = []
            if let query = section.query, let name = query.data {
                items += errors.attempt { try dataItems(query, name: name, for: page, context: context) } ?? []
            } else if let query = section.query, let whole = selections.publishedPages(of: page, section: position) {
                // Mapped once, whole: the page shows the first `limit`, its section's JSON all.
                let all = errors.attempt { try queryItems(query, listing: whole, for: page, context: context) } ?? []
                items += all.prefix(query.limit ?? all.count)
                published = all
            } else if let query = section.query {
                let listed = selections.pages(of: page, section: position) ?? []
                items += errors.attempt { try queryItems(query, listing: listed, for: page, context: context) } ?? []
                if let grouping = query.group { groups = Self.groups(of: listed, by: grouping, context: context) }
            }
            if let codes = section.examples {
                items += errors.attempt { try exampleItems(codes, at: section.examplesLocation ?? section.location, context: context) } ?? []
            }
            var view = SectionView(
                id: section.id, layout: section.layout, layoutLocation: section.layoutLocation,
                header: map(section.header), items: items, footer: map(section.footer))
            view.layoutOptions = section.layoutOptions
            view.groups = groups
            if let published, let perPage = section.query?.publish { view.published = .init(items: published, perPage: perPage) }
            return view
        }
        // `page.image`: the front matter's cover image, checked and resolved like an image field.
        var image = ViewValue.null
        if !page.isGenerated, let node = page.frontMatterValue("image"), let source = node.scalarText ?? node["src"]?.scalarText {
            let sourceNode = node["src"] ?? node
            do {
                let resolved = try context.links.resolve(source, from: page.url, filesOnly: true)
                // A cover is as wide as the text column: the site's `images.sizes`.
                var request = ImageRequest(sizes: context.images?.options.sizes)
                if let text = node["focus"]?.scalarText, let focus = ImageRequest.focus(text) { (request.focusX, request.focusY) = focus }
                image = try LinkTransformers.imageView(resolved, alt: node["alt"]?.scalarText, request: request, context: context, at: sourceNode.location, card: true)
            } catch let failure as ImageCodec.Failure {
                errors.report(TesseraError("broken image in 'image': \(source): \(failure)", at: sourceNode.location, hint: failure.hint))
            } catch {
                errors.report(error, at: sourceNode.location)
            }
        }
        for problem in Self.repeatedIDs(sections: sections, written: page.sections, embedded: embedded) { errors.report(problem) }
        // `updated:` (or `lastmod:`) of the front matter: when the page last changed, formatted.
        var updated = ViewValue.null
        if !page.isGenerated, let node = page.params.first(where: { $0.key == "updated" || $0.key == "lastmod" })?.value {
            if let date = errors.attempt({ try DateParsing.date(node, timeZone: context.timeZone) { "'\($0)' in 'updated'" } }) {
                updated = DateTransformer.view(of: date, format: "medium", hasTime: false, context: context)
            }
        }
        try errors.throwIfErrors()
        let data = ViewObject(Self.pageLayout, values: Self.data(of: page, context: context) + languageData(of: page, basePath: context.links.basePath)
                              + [image, .list(TableOfContents.nested(headings)), .bool(headings.count >= TableOfContents.shownFrom), updated]
                              + neighbours(of: page, basePath: context.links.basePath))
        var view = PageView(page: page, data: data, content: placesBody ? nil : bodyHTML, sections: sections, headings: headings, embedded: embedded, fragments: recorder.links)
        view.code = code
        view.warnings = recorder.warnings
        view.unhighlighted = recorder.unhighlighted
        view.images = recorder.images
        return view
    }

    /// Ids an app relies on to tell components apart (and sections, whose ids start theirs'),
    /// each written twice on one page: the second is an error that names the first.
    static func repeatedIDs(sections: [SectionView], written: [PageSection], embedded: [ComponentView]) -> [Diagnostic] {
        var problems: [Diagnostic] = []
        var sectionIDs: [String: SourceLocation] = [:]
        for (index, section) in written.enumerated() {
            let id = section.id ?? "section-\(index + 1)"
            if let first = sectionIDs[id] {
                problems.append(Diagnostic(
                    .error, "the section id '\(id)' is used twice on this page (first at line \(first.line), column \(first.column))", at: section.location,
                    hint: section.id == nil ? "another section took this id, which this section gets from its place; give that one another `id:`" : "give each section its own `id:`"))
            } else {
                sectionIDs[id] = section.location
            }
        }
        var componentIDs: [String: SourceLocation] = [:]
        func visit(_ view: ComponentView) {
            if let id = view.id {
                if let first = componentIDs[id] {
                    problems.append(Diagnostic(
                        .error, "the component id '\(id)' is used twice on this page (first at line \(first.line), column \(first.column))", at: view.location,
                        hint: "an app tells components apart by their ids; give this one another `id:`, or remove it to have one made"))
                } else {
                    componentIDs[id] = view.location
                }
            }
            for (_, children) in view.data.componentLists { children.forEach(visit) }
        }
        for section in sections {
            if let header = section.header { visit(header) }
            section.items.forEach(visit)
            if let footer = section.footer { visit(footer) }
        }
        embedded.forEach(visit)
        return problems
    }

    /// One item per page the query selects. A field the query maps that the component lacks is
    /// an error at the query; a page that cannot fill the component is an error in that page's
    /// file that names the query's.
    /// The schema of a query's component; a field `fields:` maps that the component lacks is an
    /// error at the query.
    private func schema(of query: PageQuery) throws -> ComponentSchema {
        let registry = mapper.registry
        guard let definition = registry[query.component] else {
            if registry.brokenCodes.contains(query.component) { throw TesseraError(diagnostics: []) }
            throw TesseraError(
                "unknown component '\(query.component)' in query", at: query.componentLocation,
                hint: Suggestions.didYouMean(query.component, in: registry.codes).map { $0 + " `tessera components` lists them all" } ?? "`tessera components` lists the theme's components")
        }
        let schema = definition.schema
        let errors = DiagnosticCollector()
        for entry in query.fields where !schema.declares(entry.key) {
            errors.report(Diagnostic(
                .error, "component '\(query.component)' has no field '\(entry.key)'", at: entry.keyLocation,
                hint: Suggestions.didYouMean(entry.key, in: schema.fields.map(\.name)) ?? "its fields are \(schema.fields.map(\.name).joined(separator: ", "))"))
        }
        try errors.throwIfErrors()
        return schema
    }

    /// One item per record of a data file, its fields filled from the record by name (or through
    /// `fields:`); a record that cannot fill the component is an error at its line in the data
    /// file that names the query.
    private func dataItems(_ query: PageQuery, name: String, for page: Page, context: TransformContext) throws -> [ComponentView] {
        let schema = try schema(of: query)
        var records = try data.records(name, at: query.location)
        if !query.matches.isEmpty { records = records.filter { record in query.matches.allSatisfy { $0.accepts(record[$0.key]) } } }
        if query.sortGiven {
            func key(_ record: ContentNode) -> ContentNode? { record[query.sortKey].flatMap { $0.isNull ? nil : $0 } }
            records = records.enumerated().sorted { a, b in
                let (x, y) = (key(a.element), key(b.element))
                if (x == nil) != (y == nil) { return y == nil }
                let ascending: Bool?
                if let p = x?.number, let q = y?.number { ascending = p == q ? nil : p < q } else {
                    let (p, q) = (x?.scalarText ?? "", y?.scalarText ?? "")
                    ascending = p == q ? nil : p.localizedStandardCompare(q) == .orderedAscending
                }
                guard let ascending else { return a.offset < b.offset }
                return query.order == .ascending ? ascending : !ascending
            }.map(\.element)
        }
        if let limit = query.limit { records = Array(records.prefix(limit)) }
        let renamed = Dictionary(query.fields.map { ($0.key, $0.value.scalarText ?? "") }, uniquingKeysWith: { first, _ in first })
        return try mapListed(records, what: "record", by: query, of: page, location: \.location) { record in
            let values = schema.fields.compactMap { field -> ContentNode.Entry? in
                let key = renamed[field.name] ?? field.name
                // `fields: { link: "/courses/{slug}/" }`: text made from the record's values.
                if key.contains("{"), let mapping = query.fields.first(where: { $0.key == field.name }) {
                    return .init(key: field.name, keyLocation: mapping.keyLocation, value: ContentNode(.string(PageGenerator.fill(key, record)), at: mapping.value.location))
                }
                return record.entries?.first { $0.key == key }.map { .init(key: field.name, keyLocation: $0.keyLocation, value: $0.value) }
            }
            let use = ComponentUse(code: query.component, codeLocation: query.componentLocation, fields: values, location: record.location)
            var view = try mapper.map(use, context: context)
            if let id = record["id"]?.scalarText { view.listedID = "data:\(name)/\(id)" }
            return view
        }
    }

    private func queryItems(_ query: PageQuery, listing listedPages: [Page], for page: Page, context: TransformContext) throws -> [ComponentView] {
        let schema = try schema(of: query)
        // What the view is made from besides the listed page: the component, the fields' names
        // (`query.use`), the language's context (`map`).
        let shape = ([query.component, page.language] + query.fields.map { $0.key + "=" + ($0.value.scalarText ?? "") }).joined(separator: "\u{0}")
        return try mapListed(listedPages, what: "page", by: query, of: page, location: \.location) { listed in
            let key = shape + "\u{1}" + listed.url
            let make = {
                // Relative links in the listed page's front matter are relative to that page.
                var listedContext = context
                listedContext.pageURL = listed.url
                var view = try mapper.map(query.use(for: listed, schema: schema), context: listedContext)
                view.listedID = "page:" + listed.contentID
                view.sharedKey = key
                return view
            }
            guard let listedViews else { return try make() }
            return try listedViews.value(key, make: make)
        }
    }

    /// `make` for each page or record a query lists; every failure is reported (once, all of
    /// them) with the query that listed it.
    private func mapListed<Listed>(
        _ listed: [Listed], what: String, by query: PageQuery, of page: Page, location: (Listed) -> SourceLocation,
        _ make: (Listed) throws -> ComponentView
    ) throws -> [ComponentView] {
        let errors = DiagnosticCollector()
        let views = listed.compactMap { item -> ComponentView? in
            do {
                return try make(item)
            } catch let error as TesseraError {
                for var diagnostic in error.diagnostics {
                    diagnostic.message += " (this \(what) is listed by the query of content/\(page.relativePath), line \(query.location.line))"
                    errors.report(diagnostic)
                }
                return nil
            } catch {
                errors.report(error, at: location(item))
                return nil
            }
        }
        try errors.throwIfErrors()
        return views
    }

    /// One item per component from its schema's `example:`; an empty list means every component
    /// that has an example. Examples are validated like content, at their place in the schema.
    private func exampleItems(_ codes: [String], at location: SourceLocation, context: TransformContext) throws -> [ComponentView] {
        let registry = mapper.registry
        let errors = DiagnosticCollector()
        let wanted = codes.isEmpty ? registry.codes.filter { registry[$0]?.schema.example != nil } : codes
        let views = wanted.compactMap { code -> ComponentView? in
            guard let definition = registry[code] else {
                errors.report(Diagnostic(.error, "unknown component '\(code)' in examples", at: location,
                                         hint: Suggestions.didYouMean(code, in: registry.codes) ?? "`tessera components` lists the codes"))
                return nil
            }
            guard let example = definition.schema.example, let entries = example.entries else {
                errors.report(Diagnostic(.error, "component '\(code)' has no example", at: SourceLocation(file: definition.schema.file),
                                         hint: "add an `example:` mapping with a value for each required field"))
                return nil
            }
            let use = ComponentUse(code: code, codeLocation: example.location, fields: entries, location: example.location)
            guard var view = errors.attempt({ try mapper.map(use, context: context) }) else { return nil }
            view.source = ExampleSource.yaml(code: code, example: example, file: definition.schema.file)
            return view
        }
        try errors.throwIfErrors()
        return views
    }

    /// `page.translations` (every version of the page, this one marked `current`, for hreflang
    /// alternates and a language switcher), `page.dir` and `page.languageName`.
    func languageData(of page: Page, basePath: String) -> [ViewValue] {
        let versions = self.versions[page.translationKey] ?? onlyVersion[page.translationKey].map { [$0.language: $0.url] } ?? [:]
        func link(_ language: SiteLanguage, to url: String, extra: [String: ViewValue] = [:]) -> ViewValue {
            let full = basePath + url.dropFirst()
            return .object(ViewObject([
                ("lang", .string(language.code)), ("name", .string(language.name)),
                ("url", .string(full)), ("permalink", .string(origin + full)),
                ("current", .bool(language.code == page.language)), ("isDefault", .bool(language.isDefault)),
            ] + extra.map { ($0.key, $0.value) }))
        }
        let translations = languages.compactMap { language in versions[language.code].map { link(language, to: $0) } }
        // For a language switcher: every language, linking this page's version, else the
        // language's home; a language with neither is left out, so no link leads nowhere.
        let switcher = languages.compactMap { language in
            (versions[language.code] ?? languageHomes[language.code]).map {
                link(language, to: $0, extra: ["hasPage": .bool(versions[language.code] != nil)])
            }
        }
        let language = languages.first { $0.code == page.language }
        // In the order of `languageKeys`.
        return [
            .list(translations),
            .list(switcher),
            .bool(translations.count > 1),
            .string(rightToLeft.contains(page.language) ? "rtl" : "ltr"),
            .string(origin + basePath + page.url.dropFirst()),
            .optional(language?.name),
            // A later page of a list is current where its first page is.
            menus.view(language: page.language, url: page.pagination?.firstURL ?? page.url),
            // `{{#page.terms.tags}}<a href="{{url}}">{{name}}</a>{{/page.terms.tags}}`
            .object(ViewObject(taxonomies.map { name in
                let base = basePath + ((language?.urlPrefix ?? "") + "/" + name + "/").dropFirst()
                let terms = page.isGenerated ? [] : Taxonomy(name: name, location: page.location).terms(of: page)
                let items: [ViewValue] = terms.compactMap { term in
                    let slug = Taxonomy.slug(term)
                    return slug.isEmpty ? nil : .object(["name": .string(term), "url": .string(base + slug + "/")])
                }
                // An object, so `{{#page.terms.tags}}<ul>{{#items}}…{{/items}}</ul>{{/page.terms.tags}}` renders once or not at all.
                return (name, items.isEmpty ? .null : .object(["name": .string(name), "items": .list(items)]))
            })),
            // The home page of the page's language: where the logo leads, so a reader stays in it.
            .string(basePath + (languageHomes[page.language] ?? ((language?.urlPrefix ?? "") + "/")).dropFirst()),
            // The language's site feeds, on pages that do not link them as their own.
            siteFeeds[page.language].flatMap { site -> ViewValue? in
                guard site.url != (page.pagination?.firstURL ?? page.url) else { return nil }
                return .list(site.feeds.map { format in
                    .object(["format": .string(format.rawValue), "type": .string(format.mediaType), "url": .string(basePath + site.url.dropFirst() + format.fileName), "title": .string(format.title)])
                })
            } ?? .null,
            jsonLD(of: page, permalink: origin + basePath + page.url.dropFirst(), language: language, basePath: basePath),
        ]
    }

    /// schema.org data for a dated page, as JSON for `<script type="application/ld+json">`
    /// (`{{{page.jsonLD}}}`): what search engines show of an article, its `BlogPosting` and the
    /// `BreadcrumbList` from the language's home through the pages of the folders above it
    /// (`/blog/` for `/blog/hello/`). `<` is written `\u003c`, so no text can close the script.
    ///
    /// Written as bytes with its keys in order (as `JSONObject` sorts them), not built as a
    /// `JSONValue` tree and written: 62,000 instructions a post, 2% of a build of plain posts.
    func jsonLD(of page: Page, permalink: String, language: SiteLanguage?, basePath: String) -> ViewValue {
        guard let date = page.date, !page.isGenerated, let title = page.title else { return .null }
        let siteTitle = siteTitles[page.language]
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        JSONBytes.append("{\"@context\":\"https://schema.org\",\"@graph\":[{\"@type\":\"BlogPosting\"", to: &out)
        if let author = page.params.first(where: { $0.key == "author" })?.value.scalarText {
            JSONBytes.text(",\"author\":{\"@type\":\"Person\",\"name\":", author, &out)
            out.append(UInt8(ascii: "}"))
        }
        if let updated = page.params.first(where: { $0.key == "updated" || $0.key == "lastmod" })?.value.scalarText {
            JSONBytes.text(",\"dateModified\":", updated, &out)
        }
        JSONBytes.text(",\"datePublished\":", FeedWriter.rfc3339(date), &out)
        if let summary = page.summary { JSONBytes.text(",\"description\":", summary, &out) }
        JSONBytes.text(",\"headline\":", title, &out)
        JSONBytes.text(",\"inLanguage\":", page.language, &out)
        if !page.tags.isEmpty { JSONBytes.json(",\"keywords\":", .array(page.tags.map(JSONValue.string)), &out) }
        JSONBytes.text(",\"mainEntityOfPage\":", permalink, &out)
        if let siteTitle {
            JSONBytes.text(",\"publisher\":{\"@type\":\"Organization\",\"name\":", siteTitle, &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONBytes.text(",\"url\":", permalink, &out)
        JSONBytes.append("},{\"@type\":\"BreadcrumbList\",\"itemListElement\":[", to: &out)
        let home = languageHomes[page.language] ?? ((language?.urlPrefix ?? "") + "/")
        let trail = [(siteTitle ?? title, home)] + breadcrumbs(of: page, language: language) + [(title, page.url)]
        for (position, crumb) in trail.enumerated() {
            JSONBytes.text(position == 0 ? "{\"@type\":\"ListItem\",\"item\":" : ",{\"@type\":\"ListItem\",\"item\":", origin + basePath + crumb.url.dropFirst(), &out)
            JSONBytes.text(",\"name\":", crumb.name, &out)
            JSONBytes.json(",\"position\":", .int(position + 1), &out)
            out.append(UInt8(ascii: "}"))
        }
        JSONBytes.append("]}]}\n", to: &out)
        // `<` only inside strings (JSON's own syntax has none), where `\u003c` is the same text.
        if out.contains(UInt8(ascii: "<")) {
            out = out.reduce(into: []) { out, byte in
                if byte == UInt8(ascii: "<") { out.append(contentsOf: "\\u003c".utf8) } else { out.append(byte) }
            }
        }
        return .string(String(decoding: out, as: UTF8.self))
    }

    /// A grouped list's groups: runs of the listed pages (all dated) in one year or month of the
    /// site's time zone, titled in the page's language ("2026", "November 2026").
    static func groups(of pages: [Page], by grouping: PageQuery.Grouping, context: TransformContext) -> [SectionView.Group] {
        var groups: [SectionView.Group] = []
        var last: String?
        for page in pages {
            guard let date = page.date else { continue }
            let key = DateTransformer.pattern(date, grouping == .year ? "yyyy" : "yyyy-MM", context: context)
            if key == last, !groups.isEmpty {
                groups[groups.count - 1].count += 1
            } else {
                let title = grouping == .year ? DateTransformer.pattern(date, "y", context: context) : DateTransformer.pattern(date, "LLLL y", context: context)
                groups.append(.init(title: title, count: 1))
                last = key
            }
        }
        return groups
    }

    /// The pages of the folders above `page`, below its language's home, that are pages.
    func breadcrumbs(of page: Page, language: SiteLanguage?) -> [(name: String, url: String)] {
        let home = languageHomes[page.language] ?? ((languages.first { $0.code == page.language }?.urlPrefix ?? "") + "/")
        guard page.url.hasPrefix(home) else { return [] }
        var trail: [(name: String, url: String)] = []
        var folder = home
        for name in page.url.dropFirst(home.count).split(separator: "/").dropLast() {
            folder += name + "/"
            if let title = titles[folder] { trail.append((title, folder)) }
        }
        return trail
    }

    /// The keys of `page`: what `data(of:)` gives, then `languageData(of:)`, then the cover image.
    static let pageLayout = ViewObject.Layout(dataKeys + languageKeys + ["image", "toc", "hasToc", "updated", "previousPage", "nextPage"])
    static let dataKeys = [
        "title", "url", "date", "summary", "description", "wordCount", "readingTime", "tags", "lang", "layout", "draft", "source",
        "params", "hasFeeds", "feeds", "pagination",
    ]
    static let languageKeys = ["translations", "languages", "hasTranslations", "dir", "permalink", "languageName", "menus", "terms", "home", "siteFeeds", "jsonLD"]

    /// What templates see as `page`: metadata formatted like any field, never raw front matter.
    static func data(of page: Page, context: TransformContext) -> [ViewValue] {
        let url = context.links.basePath + page.url.dropFirst()
        // Every page of a paginated list links the feeds of its first page.
        let feedsURL = page.pagination.map { context.links.basePath + $0.firstURL.dropFirst() } ?? url
        let words = page.wordCount
        // In the order of `dataKeys`.
        return [
            .optional(page.title),
            .string(url),
            page.date.map { DateTransformer.view(of: $0, format: "medium", hasTime: page.dateHasTime, context: context) } ?? .null,
            .optional(page.summary),
            // `description`, for <meta name="description">: front matter `description`, else the
            // summary (front matter's, or made from the body).
            .optional(page.params.first { $0.key == "description" }?.value.scalarText ?? page.summary),
            NumberTransformers.view(ofCount: words, context: context),
            MarkdownText.readingMinutes(words: words).map { NumberTransformers.view(ofCount: $0, context: context) } ?? .null,
            .list(page.tags.map(ViewValue.string)),
            .string(page.language),
            .string(page.layout),
            .bool(page.draft),
            .string(page.relativePath),
            .object(ViewObject(page.params.map { ($0.key, ViewValue(plain: $0.value)) }, isOpen: true)),
            // `hasFeeds` and `feeds`, for <link rel="alternate" type="{{type}}" href="{{url}}">.
            .bool(!page.feeds.isEmpty),
            .list(page.feeds.map { format in
                .object(["format": .string(format.rawValue), "type": .string(format.mediaType), "url": .string(feedsURL + format.fileName), "title": .string(format.title)])
            }),
            page.pagination.map { pagination(of: $0, basePath: context.links.basePath) } ?? .null,
        ]
    }

    /// The page numbers a pager shows: 1 … 4 5 [6] 7 8 … 20; nil is a gap of more than one page.
    static func pageWindow(current: Int, total: Int, radius: Int = 2) -> [Int?] {
        var numbers = Set([1, total]).union(max(1, current - radius)...min(total, current + radius)).sorted()
        // A gap of exactly one page shows that page instead of an ellipsis.
        for (a, b) in zip(numbers, numbers.dropFirst()) where b - a == 2 { numbers.append(a + 1) }
        numbers.sort()
        var window: [Int?] = []
        for number in numbers {
            if let last = window.last ?? nil, number - last > 1 { window.append(nil) }
            window.append(number)
        }
        return window
    }

    /// `page.pagination`: where this page is in its list, and links to the others.
    static func pagination(of pagination: Page.Pagination, basePath: String) -> ViewValue {
        func link(_ number: Int) -> ViewValue {
            number >= 1 && number <= pagination.total ? .string(basePath + pagination.url(of: number).dropFirst()) : .null
        }
        return .object([
            "current": .number(Double(pagination.number)),
            "total": .number(Double(pagination.total)),
            "hasPages": .bool(pagination.total > 1),
            "first": link(1),
            "last": link(pagination.total),
            "previous": link(pagination.number - 1),
            "next": link(pagination.number + 1),
            // A window, not every page: a list of 1,000 pages would otherwise put a million links
            // in its pages. First, last, two either side of the current one, and a gap marker.
            "pages": .list(Self.pageWindow(current: pagination.number, total: pagination.total).map { number in
                guard let number else { return .object(["gap": .bool(true), "current": .bool(false), "number": .null, "url": .null]) }
                return .object(["number": .number(Double(number)), "url": link(number), "current": .bool(number == pagination.number), "gap": .bool(false)])
            }),
        ])
    }
}

extension ViewValue {
    /// Custom front matter and site params: passed through as plain values, escaped like any text.
    init(plain node: ContentNode) {
        switch node.value {
        case .null: self = .null
        case .bool(let b): self = .bool(b)
        case .int(let i): self = .number(Double(i))
        case .double(let d): self = .number(d)
        case .string(let s), .timestamp(let s): self = .string(s)
        case .list(let items): self = .list(items.map(ViewValue.init(plain:)))
        case .map(let entries): self = .object(ViewObject(entries.map { ($0.key, ViewValue(plain: $0.value)) }, isOpen: true))
        }
    }
}
