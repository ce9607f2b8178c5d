import Foundation

/// The URLs of a build's pages and of those added since, for the steps that add pages (term
/// pages, later pages of lists) and must not take a page's place. Made on first use: a pass over
/// every page, kept from a site with no term and no paginated list. (Not a local `lazy var`: a
/// local one copies the whole set at every insert.)
/// The pages are passed at each use rather than kept: a kept reference to the array would make
/// the step's own change of it copy the whole array.
struct TakenURLs {
    private var urls: Set<String>?

    mutating func contains(_ url: String, among pages: [Page]) -> Bool {
        if urls == nil { urls = Set(pages.map(\.url)) }
        return urls!.contains(url)
    }

    /// Takes `url`; false when a page has it already.
    @discardableResult
    mutating func take(_ url: String, among pages: [Page]) -> Bool {
        if urls == nil { urls = Set(pages.map(\.url)) }
        return urls!.insert(url).inserted
    }
}

/// Taxonomy → term as written → the pages with it, built once per build so that every term
/// page's query reads its own pages instead of the whole site.
struct TermIndex: Sendable {
    var pages: [String: [String: [Page]]] = [:]

    init(pages: [Page], taxonomies: [String]) {
        for name in taxonomies {
            let taxonomy = Taxonomy(name: name, location: SourceLocation(file: ""))
            var terms: [String: [Page]] = [:]
            for page in pages where !page.isGenerated {
                // Each term once, though a page may write it twice.
                let written = taxonomy.terms(of: page)
                for (position, term) in written.enumerated() where !written[..<position].contains(term) {
                    terms[term, default: []].append(page)
                }
            }
            self.pages[name] = terms
        }
    }
}

/// What every query section of the site lists, computed once: the page mapper, the feeds and
/// pagination read it instead of querying again.
public struct QuerySelections: Sendable {
    /// The URL of the page (page 1 of a paginated list) → per section, the pages its query lists.
    var lists: [String: [[Page]?]] = [:]
    /// The URL of a page with a published section (`publish:`) → section → its whole list.
    var published: [String: [Int: [Page]]] = [:]

    /// Every page section `index` of `page` publishes (past its `limit`); nil for a section not published.
    func publishedPages(of page: Page, section index: Int) -> [Page]? {
        published[page.url]?[index]
    }

    /// The pages section `index` of `page` shows: the whole list, or this page's share of it.
    func pages(of page: Page, section index: Int) -> [Page]? {
        guard let sections = lists[page.pagination?.firstURL ?? page.url], index < sections.count, let all = sections[index] else { return nil }
        guard let pagination = page.pagination, pagination.section == index else { return all }
        let start = (pagination.number - 1) * pagination.size
        return Array(all[min(start, all.count)..<min(start + pagination.size, all.count)])
    }

    /// The newest date of the pages `page`'s queries list: a feed's `updated`.
    func newestDate(of page: Page) -> Date? {
        (lists[page.pagination?.firstURL ?? page.url] ?? []).compactMap { $0 }.joined().lazy.compactMap(\.date).max()
    }

    /// Every page `page`'s queries list, each once, in order, up to `limit`: a feed's entries.
    func allPages(of page: Page, limit: Int = .max) -> [Page] {
        var seen = Set<String>()
        var pages: [Page] = []
        for page in (lists[page.pagination?.firstURL ?? page.url] ?? []).compactMap({ $0 }).joined() where pages.count < limit {
            if seen.insert(page.url).inserted { pages.append(page) }
        }
        return pages
    }
}

extension Step where Product == LoadedSite {
    /// Runs every query once, splits paginated lists into `/blog/`, `/blog/page/2/`, … (with
    /// `/blog/page/1/` redirecting to `/blog/`), and gives pages without a `layout:` the theme's
    /// layout for their kind.
    public static var paginate: Step { Step("queries") { site, context in
        // Layouts by kind first, while each page is held once (the lists below hold copies, and a
        // page held twice is copied whole when it changes); the later pages of a list copy theirs.
        let layouts = site.templates.layouts
        for position in site.pages.indices where !site.pages[position].layoutIsExplicit && site.pages[position].layout == "page" {
            let kind = site.pages[position].listsPages ? "list" : site.pages[position].date != nil ? "article" : nil
            if let kind, layouts[kind] != nil { site.pages[position].layout = kind }
        }
        // Only bodies of pages that list none changed: every list is the last build's.
        if context.reuse.keepsLists(of: site, context: context) { return }
        let index = TermIndex(pages: site.pages, taxonomies: Array(Set(site.pages.flatMap { $0.sections.compactMap(\.query?.termFilter?.key) })))
        var selections = QuerySelections()
        var added: [Page] = []
        var taken = TakenURLs()
        // Every query runs on both cores (a term page per tag lists its pages), then the lists
        // are numbered in order. The copy of the pages goes before any page is changed: a page
        // held twice is copied whole when it changes.
        let (listing, selected) = { () -> ([Int], [[[Page]?]]) in
            let pages = site.pages
            let listing = pages.indices.filter { pages[$0].listsPages }
            return (listing, ParallelMap.map(listing) { position in
                let page = pages[position]
                return page.sections.map { section -> [Page]? in
                    guard let query = section.query, query.data == nil else { return nil }
                    // A published section's list is selected whole; the page shows its first `limit`.
                    return query.select(from: pages, terms: index, for: page, unlimited: query.publish != nil)
                }
            })
        }()
        for (position, var lists) in zip(listing, selected) {
            let page = site.pages[position]
            for (number, section) in page.sections.enumerated() {
                guard let query = section.query, query.publish != nil, let whole = lists[number] else { continue }
                selections.published[page.url, default: [:]][number] = whole
                if let limit = query.limit { lists[number] = Array(whole.prefix(limit)) }
            }
            selections.lists[page.url] = lists
            let paginated = page.sections.indices.filter { page.sections[$0].query?.paginate != nil }
            guard let section = paginated.first, let query = page.sections[section].query, let size = query.paginate else { continue }
            let location = query.paginateLocation ?? query.location
            if paginated.count > 1 {
                context.diagnostics.report(Diagnostic(
                    .error, "only one section of a page can be paginated", at: page.sections[paginated[1]].query?.paginateLocation ?? location,
                    hint: "keep `paginate:` on one query; give the others a `limit:`"))
                continue
            }
            guard page.url.hasSuffix("/") else {
                context.diagnostics.report(Diagnostic(
                    .error, "a paginated page needs a folder URL to number its pages below, and \(page.url) is a file", at: location,
                    hint: "remove the `.html` slug, or `paginate:`"))
                continue
            }
            let total = max(1, ((lists[section]?.count ?? 0) + size - 1) / size)
            var first = page
            first.pagination = .init(number: 1, total: total, firstURL: page.url, section: section, size: size, items: lists[section]?.count ?? 0)
            first.aliases.append(.init(url: page.url + "page/1/", location: location))
            site.pages[position] = first
            for number in stride(from: 2, through: total, by: 1) {
                var later = first
                later.pagination?.number = number
                later.url = first.pagination!.url(of: number)
                later.aliases = []
                later.isGenerated = true
                later.translationKey = first.translationKey + "#page/\(number)"
                guard taken.take(later.url, among: site.pages) else {
                    context.diagnostics.report(Diagnostic(
                        .error, "page \(number) of this list would be at \(later.url), where another page is", at: location,
                        hint: "move that page, or list more items per page"))
                    break
                }
                added.append(later)
            }
        }
        site.pages += added
        site.lists = selections
    } }
}
