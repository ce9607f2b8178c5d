import Foundation

/// A section whose items are pages of the site rather than components written by hand:
///
/// ```yaml
/// - header: { component: section-header, title: Latest }
///   query: { under: blog, tags: [swift], sort: date desc, limit: 10, component: article-thumb }
/// ```
///
/// Each page it selects becomes one `component`, its fields filled from the page's front matter
/// by name (or through `fields:`), and is validated against the schema like a written item.
public struct PageQuery: Sendable, Equatable {
    public enum Order: String, Sendable { case ascending = "asc", descending = "desc" }

    /// A folder of `content/` (`blog`, `guides/swift`); nil for the whole site.
    public var under: String?
    /// Records of a data file (`data: courses` for `data/courses.csv`) instead of pages.
    public var data: String?
    /// Also pages in folders below `under` (the default); false for its own files only.
    public var recursive = true
    /// Pages with at least one of these tags; empty for any.
    public var tags: [String] = []
    /// The page's own language (nil), or every language (`lang: all`), or one code.
    public var language: String?
    /// `date` (the default), `title`, `weight`, `path`, or any front matter key.
    public var sortKey = "date"
    /// False when the query says no `sort:` (data records then keep their file's order).
    public var sortGiven = false
    public var order = Order.descending
    public var limit: Int?
    /// Items per page: the list is split into `/blog/`, `/blog/page/2/`, …
    public var paginate: Int?
    public var paginateLocation: SourceLocation?
    /// `publish: true` (or items per page): the whole list, past `limit`, as JSON of its own
    /// (`<page>/sections/<id>/index.json` and its pages), so an app loads more of the section.
    public var publish: Int?
    /// Pages with one of these terms of a taxonomy (term pages list their pages this way).
    public var termFilter: TermFilter?
    /// `group: year`: the list in runs of one year (or month) of its pages' dates, for an
    /// archive; pages without a date are left out.
    public var group: Grouping?

    public enum Grouping: String, Sendable, CaseIterable { case year, month }

    /// `where: { course: swift-basics, level: [Beginner, Intermediate] }`: records (or pages)
    /// whose value of each key is one of the given values.
    public var matches: [Match] = []

    /// One key of `where:`: the item's value (or one of its values, when it has a list) must be
    /// one of `values`, compared as text.
    public struct Match: Sendable, Equatable {
        public var key: String
        public var values: [String]

        /// Whether an item whose value of `key` is `value` passes.
        func accepts(_ value: ContentNode?) -> Bool {
            guard let value else { return false }
            if let list = value.list { return list.contains { $0.scalarText.map(values.contains) ?? false } }
            return value.scalarText.map(values.contains) ?? false
        }
    }

    public struct TermFilter: Sendable, Equatable {
        public var key: String
        public var terms: [String]
    }
    /// The component each page becomes.
    public var component: String
    public var componentLocation: SourceLocation
    /// Component field → front matter key, where they are not named alike.
    public var fields: [ContentNode.Entry] = []
    public var location: SourceLocation

    static let keys = ["under", "recursive", "tags", "lang", "where", "sort", "group", "limit", "paginate", "publish", "component", "fields", "data"]

    /// Items per page of a published section when `publish: true` does not say.
    public static let publishedPageSize = 20

    static func parse(_ node: ContentNode) throws -> PageQuery {
        guard let entries = node.entries else {
            throw TesseraError(
                "'query' must be a mapping, found \(node.kindDescription)", at: node.location,
                hint: "write `query: { under: blog, sort: date desc, limit: 10, component: article-thumb }`")
        }
        let errors = DiagnosticCollector()
        for entry in entries where !keys.contains(entry.key) {
            errors.report(Diagnostic(
                .error, "unknown query key '\(entry.key)'", at: entry.keyLocation,
                hint: Suggestions.didYouMean(entry.key, in: keys) ?? "a query takes \(keys.map { "'\($0)'" }.joined(separator: ", "))"))
        }
        guard let componentNode = node["component"] else {
            errors.report(Diagnostic(
                .error, "a query needs 'component': the component each page is shown as", at: node.location,
                hint: "add `component: article-thumb` (or another component of the theme)"))
            try errors.throwIfErrors()
            throw TesseraError(diagnostics: [])
        }
        guard case .string(let component) = componentNode.value, !component.isEmpty else {
            throw TesseraError("the query's 'component' must be a component code, found \(componentNode.kindDescription)", at: componentNode.location)
        }
        var query = PageQuery(component: component, componentLocation: componentNode.location, location: node.location)
        if let under = node["under"] {
            errors.attempt {
                guard let text = under.scalarText else { throw TesseraError("'under' must be a folder of content/, found \(under.kindDescription)", at: under.location) }
                let folder = text.split(separator: "/").joined(separator: "/")
                guard !folder.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
                    throw TesseraError("'under' must be a folder of content/, found '\(text)'", at: under.location, hint: "write the folder's path below content/, such as `under: blog`")
                }
                query.under = folder.isEmpty ? nil : folder
            }
        }
        if let data = node["data"] {
            if let name = data.scalarText, !name.isEmpty { query.data = name } else {
                errors.report(Diagnostic(.error, "'data' must name a file of data/ (without its extension)", at: data.location, hint: "write `data: courses` for data/courses.csv"))
            }
            for key in ["under", "recursive", "tags", "lang", "paginate"] {
                if let entry = entries.first(where: { $0.key == key }) {
                    errors.report(Diagnostic(.error, "'\(key)' filters pages, and this query lists the records of data/\(data.scalarText ?? "")", at: entry.keyLocation, hint: "remove '\(key)', or query pages instead of data"))
                }
            }
        }
        if let recursive = node["recursive"] {
            if let flag = recursive.bool { query.recursive = flag } else {
                errors.report(Diagnostic(.error, "'recursive' must be true or false, found \(recursive.kindDescription)", at: recursive.location))
            }
        }
        if let tags = node["tags"] {
            if let list = tags.list, list.allSatisfy({ $0.scalarText != nil }) {
                query.tags = list.compactMap(\.scalarText)
            } else if case .string(let one) = tags.value {
                query.tags = [one]
            } else {
                errors.report(Diagnostic(.error, "'tags' must be a list of tags, found \(tags.kindDescription)", at: tags.location, hint: "write `tags: [swift, ios]`"))
            }
        }
        if let language = node["lang"] {
            if let code = language.scalarText { query.language = code } else {
                errors.report(Diagnostic(.error, "'lang' must be a language code or `all`", at: language.location))
            }
        }
        if let sort = node["sort"] {
            errors.attempt {
                let words = (sort.scalarText ?? "").split(separator: " ").map(String.init)
                guard (1...2).contains(words.count), let order = words.count == 2 ? Order(rawValue: words[1].lowercased()) : .ascending else {
                    throw TesseraError(
                        "'sort' must be a key and an optional order, found '\(sort.scalarText ?? sort.kindDescription)'", at: sort.location,
                        hint: "write `sort: date desc`, `sort: title` or `sort: weight asc`")
                }
                query.sortKey = words[0]
                query.order = order
                query.sortGiven = true
            }
        }
        if let limit = node["limit"] {
            if case .int(let count) = limit.value, count > 0 { query.limit = count } else {
                errors.report(Diagnostic(.error, "'limit' must be a positive whole number, found \(limit.scalarText ?? limit.kindDescription)", at: limit.location))
            }
        }
        if let paginate = node["paginate"] {
            if case .int(let count) = paginate.value, count > 0 {
                query.paginate = count
                query.paginateLocation = paginate.location
            } else {
                errors.report(Diagnostic(
                    .error, "'paginate' must be a positive whole number of items per page, found \(paginate.scalarText ?? paginate.kindDescription)", at: paginate.location,
                    hint: "write `paginate: 10`"))
            }
        }
        if let publish = node["publish"] {
            switch publish.value {
            case .bool(true): query.publish = query.limit ?? Self.publishedPageSize
            case .bool(false): break
            case .int(let count) where count > 0: query.publish = count
            default:
                errors.report(Diagnostic(
                    .error, "'publish' must be true, false or a number of items per page, found \(publish.scalarText ?? publish.kindDescription)", at: publish.location,
                    hint: "write `publish: true` to publish the whole list as JSON for apps, or `publish: 20`"))
            }
            if query.publish != nil && query.paginate != nil {
                errors.report(Diagnostic(
                    .error, "a paginated section is published already: its pages' JSON are the list, page by page", at: publish.location,
                    hint: "remove `publish:`; apps follow `pagination.next`"))
            }
            if query.publish != nil && node["data"] != nil {
                errors.report(Diagnostic(.error, "'publish' lists pages, and this query lists a data file's records", at: publish.location, hint: "remove `publish:`"))
            }
        }
        if let matches = node["where"] {
            if let entries = matches.entries, !entries.isEmpty {
                for entry in entries {
                    let values = entry.value.list.map { $0.map(\.scalarText) } ?? [entry.value.scalarText]
                    guard !values.isEmpty, values.allSatisfy({ $0 != nil }) else {
                        errors.report(Diagnostic(
                            .error, "'where' must give '\(entry.key)' a value or a list of values, found \(entry.value.kindDescription)", at: entry.value.location,
                            hint: "write `where: { \(entry.key): swift-basics }` or `where: { \(entry.key): [a, b] }`"))
                        continue
                    }
                    query.matches.append(Match(key: entry.key, values: values.compactMap { $0 }))
                }
            } else {
                errors.report(Diagnostic(
                    .error, "'where' must map keys to the values an item must have, found \(matches.kindDescription)", at: matches.location,
                    hint: "write `where: { course: swift-basics }`"))
            }
        }
        if let group = node["group"] {
            if let value = group.scalarText.flatMap(Grouping.init(rawValue:)) {
                query.group = value
                let clash = ["paginate": "a grouped list is one page: its groups would be split across pages", "publish": "apps get the groups in the page's own JSON", "data": "records have no date to group by"]
                for (key, why) in clash where node[key] != nil {
                    errors.report(Diagnostic(.error, "'group' and '\(key)' cannot go together: \(why)", at: group.location, hint: "remove `\(key):`, or `group:`"))
                }
            } else {
                errors.report(Diagnostic(
                    .error, "'group' must be year or month, found '\(group.scalarText ?? group.kindDescription)'", at: group.location,
                    hint: Suggestions.didYouMean(group.scalarText ?? "", in: Grouping.allCases.map(\.rawValue)) ?? "write `group: year` for an archive by year"))
            }
        }
        if let fields = node["fields"] {
            if let entries = fields.entries, entries.allSatisfy({ $0.value.scalarText != nil }) {
                query.fields = entries
            } else {
                errors.report(Diagnostic(
                    .error, "'fields' must map component fields to front matter keys", at: fields.location,
                    hint: "write `fields: { kicker: category, image: cover }`"))
            }
        }
        try errors.throwIfErrors()
        return query
    }

    /// A page's value for `where:`: its title, language, tags, or a front matter value.
    static func value(of page: Page, _ key: String) -> ContentNode? {
        switch key {
        case "title": return page.title.map { ContentNode(.string($0), at: page.location) }
        case "lang": return ContentNode(.string(page.language), at: page.location)
        case "tags": return ContentNode(.list(page.tags.map { ContentNode(.string($0), at: page.location) }), at: page.location)
        default: return page.params.first { $0.key == key }?.value
        }
    }

    /// The pages this query lists for `page`, in order. A term filter reads its candidates from
    /// `terms` (taxonomy → term → pages) when given, so term pages cost their own pages only.
    func select(from pages: [Page], terms: TermIndex? = nil, for page: Page, unlimited: Bool = false) -> [Page] {
        let prefix = under.map { $0 + "/" } ?? ""
        var candidates = pages
        // Pages the term index gives for a term have it: only other candidates are checked.
        var checksTerms = termFilter != nil
        if let filter = termFilter, let index = terms?.pages[filter.key] {
            var seen = Set<String>()
            candidates = filter.terms.flatMap { index[$0] ?? [] }.filter { seen.insert($0.url).inserted }
            checksTerms = false
        }
        var selected = candidates.filter { candidate in
            guard !candidate.isGenerated, candidate.sourcePath != page.sourcePath, candidate.relativePath.hasPrefix(prefix) else { return false }
            let rest = candidate.relativePath.dropFirst(prefix.count).utf8
            let nested = rest.contains(UInt8(ascii: "/"))
            // The folder's own index page (`index.md`, `_index.fr.md`) is the list, not one of its
            // items: its name's first part between dots.
            if !nested {
                let name = rest.drop { $0 == UInt8(ascii: ".") }.prefix { $0 != UInt8(ascii: ".") }
                if name.elementsEqual("index".utf8) || name.elementsEqual("_index".utf8) { return false }
            }
            if !recursive && nested { return false }
            if !tags.isEmpty && !candidate.tags.contains(where: tags.contains) { return false }
            if !matches.isEmpty && !matches.allSatisfy({ $0.accepts(Self.value(of: candidate, $0.key)) }) { return false }
            if group != nil && candidate.date == nil { return false }
            if checksTerms, let filter = termFilter, !Taxonomy(name: filter.key, location: location).terms(of: candidate).contains(where: filter.terms.contains) { return false }
            switch language {
            case nil: return candidate.language == page.language
            case "all"?: return true
            case let code?: return candidate.language == code
            }
        }
        // Each page's sort key is read once, not at every comparison.
        let keys = selected.map { SortKey(of: $0, by: sortKey) }
        var positions = Array(selected.indices)
        positions.sort { i, j in
            let a = keys[i], b = keys[j]
            // Pages without the key come last, in either order.
            if a.missing != b.missing { return b.missing }
            switch a.compare(to: b) {
            case .orderedAscending: return order == .ascending
            case .orderedDescending: return order == .descending
            case .orderedSame: return a.path < b.path
            }
        }
        selected = positions.map { selected[$0] }
        if let limit, !unlimited { selected = Array(selected.prefix(limit)) }
        return selected
    }

    /// What `lacks` and `compare` read of a page, read once.
    private struct SortKey {
        var missing: Bool
        var date: Date?
        /// The lowercased title, the path, or a front matter value as text.
        var text: String?
        var number: Double?
        var path: String

        init(of page: Page, by key: String) {
            missing = PageQuery.lacks(page, key)
            path = page.relativePath
            switch key {
            case "date": date = page.date
            case "title": text = page.title?.lowercased()
            case "path": text = page.relativePath
            default:
                let value = page.frontMatterValue(key)
                number = value?.number
                text = value?.scalarText
            }
        }

        /// The order of two pages by the key: dates and numbers as such, anything else as text (a
        /// missing value compares the same as any).
        func compare(to other: SortKey) -> ComparisonResult {
            if let x = date, let y = other.date { return PageQuery.compareOptional(x, y) }
            if let x = number, let y = other.number { return PageQuery.compareOptional(x, y) }
            return PageQuery.compareOptional(text, other.text)
        }
    }

    static func lacks(_ page: Page, _ key: String) -> Bool {
        switch key {
        case "date": return page.date == nil
        case "title": return page.title == nil
        case "path": return false
        default: return page.frontMatterValue(key)?.isNull ?? true
        }
    }

    fileprivate static func compareOptional<T: Comparable>(_ a: T?, _ b: T?) -> ComparisonResult {
        switch (a, b) {
        case let (x?, y?): return x < y ? .orderedAscending : x == y ? .orderedSame : .orderedDescending
        default: return .orderedSame // missing values are ordered by `lacks` first
        }
    }

    /// The component use that shows `page`: every field of `schema` that the page's front matter
    /// has (by name, or through `fields:`), `link`/`url` as the page's URL when the page gives
    /// none, and `summary` as the one made from its body when front matter has none.
    func use(for page: Page, schema: ComponentSchema) -> ComponentUse {
        let renamed = Dictionary(fields.map { ($0.key, $0.value.scalarText ?? "") }, uniquingKeysWith: { first, _ in first })
        let pageLocation = SourceLocation(file: page.sourcePath, line: 1, column: 1)
        var values: [ContentNode.Entry] = []
        for field in schema.fields {
            let key = renamed[field.name] ?? field.name
            if let value = page.frontMatterValue(key) {
                values.append(.init(key: field.name, keyLocation: value.location, value: value))
            } else if ["link", "url", "href"].contains(key) {
                values.append(.init(key: field.name, keyLocation: pageLocation, value: ContentNode(.string(page.url), at: pageLocation)))
            } else if key == "summary", let summary = page.summary {
                // Plain text: in a Markdown field its punctuation is written as it reads.
                let text = field.type == .markdown || field.type == .inlineMarkdown ? MarkdownText.escaped(summary) : summary
                let location = SourceLocation(file: page.sourcePath, line: page.bodyLine, column: 1)
                values.append(.init(key: field.name, keyLocation: location, value: ContentNode(.string(text), at: location)))
            }
        }
        return ComponentUse(code: component, codeLocation: componentLocation, fields: values, location: pageLocation)
    }
}

extension Page {
    /// A key of the page's front matter as written, with its place in the file.
    func frontMatterValue(_ key: String) -> ContentNode? {
        frontMatter.first { $0.key == key }?.value
    }
}
