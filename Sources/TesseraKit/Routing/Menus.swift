import Foundation

/// An entry of a menu as written: in site.yml's `menus:` or a page's `menu:`.
public struct MenuEntry: Sendable, Equatable {
    /// Language code → title; the key "" holds a title for every language.
    public var titles: [String: String]
    /// What it links to: a path, a URL or a page reference (`@/blog/index.md`), resolved like a
    /// `link` field. Nil for a heading that only holds children.
    public var link: String?
    public var weight: Int
    /// The title (or `id:`) of the entry this one is nested under.
    public var parent: String?
    public var identifier: String
    /// A name of the theme's icon set (`home`, `book`), for tab bars.
    public var icon: String?
    public var children: [MenuEntry] = []
    /// Only in this language (front matter entries are in their page's language).
    public var language: String?
    public var location: SourceLocation

    static let keys = ["title", "link", "page", "weight", "parent", "id", "icon", "children"]

    /// `{ title: Blog, link: "@/blog/index.md", weight: 2, children: [...] }`; `title` may be
    /// `{ en: Blog, fr: Journal }`.
    static func parse(_ node: ContentNode, defaultTitle: String? = nil, defaultLink: String? = nil, language: String? = nil) throws -> MenuEntry {
        guard let entries = node.entries else {
            throw TesseraError("a menu entry must be a mapping, found \(node.kindDescription)", at: node.location, hint: "write `- { title: Blog, link: /blog/, weight: 2 }`")
        }
        let errors = DiagnosticCollector()
        for entry in entries where !keys.contains(entry.key) {
            errors.report(Diagnostic(
                .error, "unknown menu key '\(entry.key)'", at: entry.keyLocation,
                hint: Suggestions.didYouMean(entry.key, in: keys) ?? "a menu entry takes \(keys.map { "'\($0)'" }.joined(separator: ", "))"))
        }
        var titles: [String: String] = [:]
        if let title = node["title"] {
            if let text = title.scalarText, !text.isEmpty {
                titles[""] = text
            } else if let perLanguage = title.entries, perLanguage.allSatisfy({ $0.value.scalarText != nil }) {
                for entry in perLanguage { titles[entry.key] = entry.value.scalarText }
            } else {
                errors.report(Diagnostic(.error, "a menu title must be text, or text per language", at: title.location, hint: "write `title: Blog` or `title: { en: Blog, fr: Journal }`"))
            }
        } else if let defaultTitle {
            titles[""] = defaultTitle
        } else {
            errors.report(Diagnostic(.error, "a menu entry needs a 'title'", at: node.location))
        }
        var link = defaultLink
        for key in ["link", "page"] {
            guard let value = node[key] else { continue }
            if let text = value.scalarText, !text.isEmpty { link = key == "page" && !text.hasPrefix("@/") ? "@/" + text : text } else {
                errors.report(Diagnostic(.error, "a menu '\(key)' must be a path, a URL or a page reference", at: value.location, hint: "write `link: /blog/` or `page: blog/index.md`"))
            }
        }
        var weight = 0
        if let value = node["weight"] {
            if case .int(let number) = value.value { weight = number } else {
                errors.report(Diagnostic(.error, "a menu 'weight' must be a whole number, found \(value.scalarText ?? value.kindDescription)", at: value.location))
            }
        }
        var entry = MenuEntry(
            titles: titles, link: link, weight: weight, parent: node["parent"]?.scalarText,
            identifier: node["id"]?.scalarText ?? titles[""] ?? titles.sorted { $0.key < $1.key }.first?.value ?? "", language: language, location: node.location)
        if let icon = node["icon"] {
            if let name = icon.scalarText, !name.isEmpty, name.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) { entry.icon = name } else {
                errors.report(Diagnostic(.error, "a menu 'icon' must be an icon name of letters, digits and dashes", at: icon.location, hint: "for example `icon: home`"))
            }
        }
        if let children = node["children"] {
            if let list = children.list {
                entry.children = list.compactMap { child in errors.attempt { try parse(child, language: language) } }
            } else {
                errors.report(Diagnostic(.error, "'children' must be a list of menu entries", at: children.location))
            }
        }
        if link == nil && entry.children.isEmpty {
            errors.report(Diagnostic(.error, "a menu entry needs a 'link' or a 'page' (or 'children')", at: node.location, hint: "write `link: /blog/` or `page: blog/index.md`"))
        }
        try errors.throwIfErrors()
        return entry
    }

    /// `menus:` in site.yml: menu name → entries.
    static func parseMenus(_ node: ContentNode) throws -> [String: [MenuEntry]] {
        guard let entries = node.entries else {
            throw TesseraError("'menus' must map menu names to lists of entries", at: node.location, hint: "write `menus: { main: [ { title: Blog, link: /blog/ } ] }`")
        }
        let errors = DiagnosticCollector()
        var menus: [String: [MenuEntry]] = [:]
        for menu in entries {
            guard let list = menu.value.list else {
                errors.report(Diagnostic(.error, "the menu '\(menu.key)' must be a list of entries", at: menu.value.location))
                continue
            }
            menus[menu.key] = list.compactMap { item in errors.attempt { try parse(item) } }
        }
        try errors.throwIfErrors()
        return menus
    }

    /// A page's `menu:`: `main`, `[main, footer]`, or `{ main: { title: …, weight: 2, parent: Guides } }`.
    static func parsePageMenus(_ node: ContentNode, pageTitle: String?, language: String) throws -> [(menu: String, entry: MenuEntry)] {
        let title = pageTitle ?? ""
        // The page itself under its title; its URL is filled in later, when URLs are known.
        func pageEntry(at location: SourceLocation) -> MenuEntry {
            MenuEntry(titles: ["": title], link: nil, weight: 0, identifier: title, language: language, location: location)
        }
        if let name = node.scalarText { return [(name, pageEntry(at: node.location))] }
        if let list = node.list {
            return try list.map { item in
                guard let name = item.scalarText else { throw TesseraError("a menu name must be text", at: item.location, hint: "write `menu: [main, footer]`") }
                return (name, pageEntry(at: item.location))
            }
        }
        guard let entries = node.entries else {
            throw TesseraError("'menu' must name a menu or map menus to entries", at: node.location, hint: "write `menu: main` or `menu: { main: { weight: 2 } }`")
        }
        return try entries.map { menu in
            if menu.value.isNull { return (menu.key, pageEntry(at: menu.keyLocation)) }
            var entry = try parse(menu.value, defaultTitle: title, defaultLink: "", language: language)
            if entry.link == "" { entry.link = nil }
            return (menu.key, entry)
        }
    }
}

/// A menu entry made ready for one language: its URL resolved and checked, its children sorted.
struct MenuItem: Sendable, Equatable {
    var title: String
    /// With the base path, as templates write it; nil for a heading.
    var url: String?
    /// Site-relative, for `current`; nil for external links and headings.
    var pageURL: String?
    var isExternal: Bool
    /// A language's home page: current on itself only, never every page's ancestor.
    var isHome = false
    var icon: String?
    var children: [MenuItem]
    /// The page it leads to is in another language than the menu's (no translation of it):
    /// that language's code and name. Kept and marked, never sent there silently.
    var otherLanguage: (code: String, name: String)?

    static func == (lhs: MenuItem, rhs: MenuItem) -> Bool {
        lhs.title == rhs.title && lhs.url == rhs.url && lhs.pageURL == rhs.pageURL && lhs.isExternal == rhs.isExternal && lhs.isHome == rhs.isHome
            && lhs.icon == rhs.icon && lhs.children == rhs.children && lhs.otherLanguage?.code == rhs.otherLanguage?.code
    }

    /// `current` when it links to `page`, `ancestor` when a child is current or the page is below
    /// the entry's URL (a post under Blog).
    func view(for page: String) -> ViewValue {
        let children = self.children.map { $0.view(for: page) }
        let current = pageURL == page
        let below = !isHome && (pageURL.map { page.hasPrefix($0) && page != $0 } ?? false)
        let childActive = children.contains { child in
            if case .object(let object) = child { return object["current"] == .bool(true) || object["ancestor"] == .bool(true) }
            return false
        }
        return .object([
            "title": .string(title), "url": .optional(url), "icon": .optional(icon), "external": .bool(isExternal),
            "current": .bool(current), "ancestor": .bool(!current && (childActive || below)),
            "children": .list(children), "hasChildren": .bool(!children.isEmpty),
            "otherLanguage": otherLanguage.map { .object(["lang": .string($0.code), "name": .string($0.name)]) } ?? .null,
        ])
    }
}

/// Every menu of every language, resolved.
public struct SiteMenus: Sendable, Equatable {
    /// Language → menu name → top-level items in order.
    var menus: [String: [String: [MenuItem]]] = [:]

    /// Entries of each language's menus that lead to a page of another language, for
    /// `tessera check`: `fr main: Blog → /blog/ (English)`.
    public var untranslatedEntries: [String] {
        var lines: [String] = []
        func visit(_ items: [MenuItem], language: String, menu: String) {
            for item in items {
                if let other = item.otherLanguage, let url = item.url { lines.append("\(language) \(menu): \(item.title) → \(url) (\(other.name))") }
                visit(item.children, language: language, menu: menu)
            }
        }
        for (language, named) in menus.sorted(by: { $0.key < $1.key }) {
            for (menu, items) in named.sorted(by: { $0.key < $1.key }) { visit(items, language: language, menu: menu) }
        }
        return lines
    }

    /// `page.menus`: each menu with `current` and `ancestor` set for the page at `url`.
    func view(language: String, url: String) -> ViewValue {
        let named = (menus[language] ?? [:]).sorted { $0.key < $1.key }
        // An object per menu, so `{{#page.menus.main}}<nav>…{{/page.menus.main}}` renders once, or not at all.
        // Open: a theme names menus that a site may not define (or not in every language).
        return .object(ViewObject(named.map { name, items in
            (name, items.isEmpty ? .null : .object(["name": .string(name), "items": .list(items.map { $0.view(for: url) })]))
        }, isOpen: true))
    }
}

extension Step where Product == RoutedSite {
    /// Resolves site.yml's `menus:` and pages' `menu:` for each language: links are checked like
    /// `link` fields, a page reference links the page's translation in each language, entries
    /// nest under `parent:` and sort by weight, then title.
    public static var buildMenus: Step { Step("menus") { site, context in
        let configuration = site.configuration
        let written = configuration.menus
        let fromPages = site.pages.filter { !$0.menus.isEmpty && !$0.isGenerated }
        guard !written.isEmpty || !fromPages.isEmpty else { return }
        // Content file → translation key, and translation key → language → URL.
        var keys: [String: String] = [:]
        var versions: [String: [String: String]] = [:]
        // Every page's language by URL: an entry leading to another language's page is marked.
        var languageOfURL: [String: String] = [:]
        for page in site.pages {
            languageOfURL[page.url] = page.language
            guard !page.isGenerated else { continue }
            keys[page.relativePath] = page.translationKey
            versions[page.translationKey, default: [:]][page.language] = page.url
        }
        let names = Dictionary(configuration.languages.map { ($0.code, $0.name) }, uniquingKeysWith: { first, _ in first })
        let links = site.links
        var result = SiteMenus()
        var warnedDuplicates: Set<String> = []
        for language in configuration.languages {
            var menus: [String: [MenuEntry]] = written.mapValues { $0.filter { $0.language == nil || $0.language == language.code } }
            for page in fromPages where page.language == language.code {
                for membership in page.menus {
                    var entry = membership.entry
                    entry.link = entry.link ?? "@/" + page.relativePath
                    menus[membership.menu, default: []].append(entry)
                }
            }
            func resolve(_ entry: MenuEntry) -> MenuItem? {
                let title = entry.titles[language.code] ?? entry.titles[""] ?? entry.titles[configuration.defaultLanguage.code] ?? entry.identifier
                var item = MenuItem(title: title, url: nil, pageURL: nil, isExternal: false, icon: entry.icon, children: resolveAll(entry.children))
                guard var link = entry.link else { return item }
                // A page reference links that page's version in this language, where there is one.
                if link.hasPrefix("@/") {
                    let reference = String(link.dropFirst(2).prefix { $0 != "#" && $0 != "?" })
                    if let key = keys[reference], let url = versions[key]?[language.code] {
                        link = url + link.dropFirst(2 + reference.count)
                    }
                }
                do {
                    let resolution = try links.resolve(link, from: "/")
                    item.url = resolution.url
                    item.isExternal = resolution.isExternal
                    if !resolution.isExternal {
                        let path = String(resolution.url.dropFirst(configuration.basePath.count - 1).prefix { $0 != "#" && $0 != "?" })
                        item.pageURL = path
                        item.isHome = path == "/" || path == language.urlPrefix + "/"
                        if let other = languageOfURL[path], other != language.code, !item.isHome {
                            item.otherLanguage = (other, names[other] ?? other)
                        }
                    }
                } catch {
                    context.diagnostics.report(error, at: entry.location)
                    return nil
                }
                return item
            }
            func ordered(_ entries: [MenuEntry]) -> [MenuEntry] {
                entries.enumerated().sorted { a, b in
                    a.element.weight != b.element.weight ? a.element.weight < b.element.weight : a.offset < b.offset
                }.map(\.element)
            }
            /// The entries in order, resolved; an entry that links what an earlier one of the same
            /// list links (a page in site.yml's menu and in its own `menu:`) is left out, with a warning.
            func resolveAll(_ entries: [MenuEntry]) -> [MenuItem] {
                var items: [MenuItem] = []
                var first: [String: SourceLocation] = [:]
                for entry in ordered(entries) {
                    guard let item = resolve(entry) else { continue }
                    if let url = item.url, item.children.isEmpty {
                        if let earlier = first[url] {
                            let key = "\(entry.location)|\(earlier)"
                            if !warnedDuplicates.contains(key) {
                                warnedDuplicates.insert(key)
                                context.diagnostics.report(Diagnostic(
                                    .warning, "this menu entry links \(url), as the entry at \(earlier.described(relativeTo: context.siteDirectory)) does: it is left out",
                                    at: entry.location, hint: "keep one of the two: a page's `menu:` already adds it to the menu"))
                            }
                            continue
                        }
                        first[url] = entry.location
                    }
                    items.append(item)
                }
                return items
            }
            var languageMenus: [String: [MenuItem]] = [:]
            for (name, entries) in menus {
                // Nest `parent:` entries under the entry with that id or title.
                var roots = entries.filter { $0.parent == nil }
                for child in entries where child.parent != nil {
                    guard let index = roots.firstIndex(where: { $0.identifier == child.parent || $0.titles.values.contains(child.parent!) }) else {
                        context.diagnostics.report(Diagnostic(
                            .error, "the menu '\(name)' has no entry '\(child.parent!)' to nest this one under", at: child.location,
                            hint: Suggestions.didYouMean(child.parent!, in: roots.map(\.identifier)) ?? "the entries are \(roots.map(\.identifier).joined(separator: ", "))"))
                        continue
                    }
                    roots[index].children.append(child)
                }
                languageMenus[name] = resolveAll(roots)
            }
            result.menus[language.code] = languageMenus
        }
        site.menus = result
    } }
}
