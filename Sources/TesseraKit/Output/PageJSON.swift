import Foundation

/// A page's resolved view data as JSON, beside its HTML, for native apps: the same sections and
/// components the web page shows, each field in a shape a client uses without formatting again.
///
/// The format is documented in Documentation/ContentAPI.md and described by `/api/schema.json`.
struct PageDocument {
    static let format = "tessera.page"
    /// 2: `buildDate` left out of every document, so an unchanged page gives the same bytes on
    /// every build (HTTP caches and incremental builds rely on it). 3: `body` as blocks, with
    /// the components placed in it. 4: code blocks of the body as `code` blocks, with tokens.
    static let version = 5

    var registry: ComponentRegistry
    /// `https://example.com`, or "" when baseURL is a path.
    var origin: String
    var basePath: String
    /// Translation key → language → the page's URL and JSON path (without the base path), for
    /// `translations`: only keys of more than one page, and no page itself, so the writer does
    /// not keep every page alive while they are mapped and let go.
    var versions: [String: [String: (url: String, json: String)]]
    var languages: [SiteLanguage]
    /// The site's pages by URL (with the base path): their ids and, when they write it, their
    /// JSON URL, for `navigate` actions.
    var targets: [String: (id: String, json: String)] = [:]

    /// The JSON URL of a page, with the base path: `/docs/blog/index.json`.
    func jsonURL(of page: Page) -> String { basePath + page.jsonOutputPath }

    func document(for view: PageView) -> JSONObject {
        let page = view.page
        let url = basePath + page.url.dropFirst()
        var meta: JSONObject = [
            "id": .string(page.contentID),
            "url": .string(url),
            "json": .string(jsonURL(of: page)),
            "lang": .string(page.language),
            "tags": .array(page.tags.map(JSONValue.string)),
        ]
        if !origin.isEmpty { meta["permalink"] = .string(origin + url) }
        if let title = page.title { meta["title"] = .string(title) }
        if let summary = page.summary { meta["summary"] = .string(summary) }
        if let date = page.date { meta["date"] = .string(FeedWriter.rfc3339(date)) }
        let translations = languages.compactMap { language -> JSONObject? in
            guard let other = versions[page.translationKey]?[language.code] else { return nil }
            return ["lang": .string(language.code), "url": .string(basePath + other.url.dropFirst()), "json": .string(basePath + other.json)]
        }
        if translations.count > 1 { meta["translations"] = .array(translations.map(JSONValue.object)) }
        if let pagination = page.pagination {
            var pager: JSONObject = ["current": .int(pagination.number), "total": .int(pagination.total)]
            func json(_ number: Int) -> JSONValue { .string(basePath + Page.jsonPath(ofURL: pagination.url(of: number))) }
            if pagination.number > 1 { pager["previous"] = json(pagination.number - 1) }
            if pagination.number < pagination.total { pager["next"] = json(pagination.number + 1) }
            pager["first"] = json(1)
            pager["last"] = json(pagination.total)
            pager["perPage"] = .int(pagination.size)
            pager["items"] = .int(pagination.items)
            meta["pagination"] = .object(pager)
        }
        // The cover (`image:` of the front matter), with its sizes.
        if let image = view.data["image"], image != .null, let json = Self.value(image, type: .image) { meta["image"] = json }
        if page.isGenerated, page.translationKey.hasPrefix("taxonomy:") { taxonomy(of: page, into: &meta) }
        // The body's headings, nested, for an app's table of contents.
        if !view.headings.isEmpty { meta["toc"] = .array(TableOfContents.json(view.headings)) }
        var needs = ClientVersion.initial
        var document: JSONObject = [
            "format": .string(Self.format),
            "version": .int(Self.version),
            "sections": .array(view.sections.enumerated().map { index, section in .object(sectionObject(section, index: index, in: view, needs: &needs)) }),
        ]
        if let content = view.content { document["body"] = body(content, embedded: view.embedded, code: view.code, needs: &needs) }
        meta["minClientVersion"] = .string(needs.description)
        document["page"] = .object(meta)
        return document
    }

    /// A taxonomy's pages as data, not only as their body's HTML: the list page's `terms` (name,
    /// URL, JSON, count) and a term page's `term`, each with the `taxonomy`'s name.
    private func taxonomy(of page: Page, into meta: inout JSONObject) {
        let params = page.params
        func param(_ key: String) -> ContentNode? { params.first { $0.key == key }?.value }
        if let terms = param("terms")?.list {
            meta["taxonomy"] = .string(String(page.translationKey.dropFirst("taxonomy:".count)))
            meta["terms"] = .array(terms.compactMap { term -> JSONValue? in
                guard let name = term["name"]?.scalarText, let url = term["url"]?.scalarText, case .int(let count)? = term["count"]?.value else { return nil }
                return ["name": .string(name), "url": .string(url), "json": .string(url + "index.json"), "count": .int(count)]
            })
        } else if let name = param("taxonomy")?.scalarText, case .int(let count)? = param("count")?.value {
            meta["taxonomy"] = .string(name)
            meta["term"] = ["name": .string(page.title ?? ""), "count": .int(count)]
        }
    }

    /// `embedded`: the components placed in the page's body, for the `body` component's blocks.
    private func sectionObject(_ section: SectionView, index: Int, in view: PageView, needs: inout ClientVersion) -> JSONObject {
        let id = section.id ?? "section-\(index + 1)"
        var counts: [String: Int] = [:]
        func json(_ component: ComponentView) -> JSONValue {
            self.component(component, id: componentID(component, in: id, counts: &counts), embedded: view.embedded, code: view.code, needs: &needs)
        }
        var object: JSONObject = ["id": .string(id), "layout": .string(section.layout)]
        // Header, items, footer: the order ids are counted in, as they show.
        if let header = section.header { object["header"] = json(header) }
        object["items"] = .array(section.items.map(json))
        if let footer = section.footer { object["footer"] = json(footer) }
        if let options = Self.layoutOptions(of: section) { object["layoutOptions"] = options }
        if !section.groups.isEmpty {
            // `group: year`: the items, in order, are runs of `count` under each `title`.
            object["groups"] = .array(section.groups.map { ["title": .string($0.title), "count": .int($0.count)] })
        }
        if let published = section.published {
            object["more"] = ["json": .string(basePath + Self.sectionFolder(of: view.page, section: id) + "index.json"), "total": .int(published.items.count)]
        }
        return object
    }

    static let sectionFormat = "tessera.section"

    /// Where a page's published section writes its JSON: beside the page's own,
    /// `blog/sections/latest/` for `blog/index.json`, `sections/latest/` for the home page.
    static func sectionFolder(of page: Page, section id: String) -> String {
        let json = page.jsonOutputPath
        let folder = json.hasSuffix("index.json") ? String(json.dropLast("index.json".count)) : String(json.dropLast(".json".count)) + "/"
        return folder + "sections/" + id + "/"
    }

    /// The JSON of each published section of `view`: its whole list, `perPage` items to a file,
    /// each file linking the next as a paginated page does.
    func sectionDocuments(for view: PageView) -> [OutputFile] {
        var files: [OutputFile] = []
        var needs = ClientVersion.initial
        for (index, section) in view.sections.enumerated() {
            guard let published = section.published else { continue }
            let id = section.id ?? "section-\(index + 1)"
            let folder = Self.sectionFolder(of: view.page, section: id)
            let perPage = max(1, published.perPage)
            let total = max(1, (published.items.count + perPage - 1) / perPage)
            func path(_ number: Int) -> String { folder + (number == 1 ? "" : "page/\(number)/") + "index.json" }
            var counts: [String: Int] = [:]
            let items = published.items.map { component($0, id: componentID($0, in: id, counts: &counts), needs: &needs) }
            for number in 1...total {
                let chunk = Array(items[min((number - 1) * perPage, items.count)..<min(number * perPage, items.count)])
                var pager: JSONObject = [
                    "current": .int(number), "total": .int(total), "items": .int(items.count), "perPage": .int(perPage),
                    "first": .string(basePath + path(1)), "last": .string(basePath + path(total)),
                ]
                if number > 1 { pager["previous"] = .string(basePath + path(number - 1)) }
                if number < total { pager["next"] = .string(basePath + path(number + 1)) }
                var sectionObject: JSONObject = ["id": .string(id), "layout": .string(section.layout), "items": .array(chunk)]
                if let options = Self.layoutOptions(of: section) { sectionObject["layoutOptions"] = options }
                let document: JSONObject = [
                    "format": .string(Self.sectionFormat), "version": .int(Self.version), "page": .string(view.page.contentID),
                    "section": .object(sectionObject), "pagination": .object(pager),
                ]
                files.append(OutputFile(path: path(number), contents: .data(Data(JSONValue.object(document).bytes))))
            }
        }
        return files
    }

    /// `layout: { name: grid, columns: 2 }`'s parameters; nil for a layout written as a name.
    static func layoutOptions(of section: SectionView) -> JSONValue? {
        section.layoutOptions.isEmpty ? nil : .object(JSONObject(Dictionary(section.layoutOptions.map { ($0.key, scalar($0.value)) }, uniquingKeysWith: { first, _ in first })))
    }

    /// A scalar of content as JSON: numbers and booleans keep their kind.
    static func scalar(_ node: ContentNode) -> JSONValue {
        switch node.value {
        case .bool(let flag): return .bool(flag)
        case .int(let number): return .int(number)
        case .double(let number): return .double(number)
        default: return .string(node.scalarText ?? "")
        }
    }

    /// `id:` as written; else `<scope>/page:<id>` for a listed page, or `<scope>/<code>-<n>` for
    /// the n-th component of that code in its section (or container, or the body): made from
    /// where it is and what it is, never from its text, so a typo fix keeps it.
    private func componentID(_ view: ComponentView, in scope: String, counts: inout [String: Int]) -> String {
        if let id = view.id { return id }
        if let listed = view.listedID { return String(joining: scope, "/", listed) }
        let number = (counts[view.code] ?? 0) + 1
        counts[view.code] = number
        return String(joining: scope, "/", view.code, "-", String(number))
    }

    /// `{ id, type, version, fields, computed, action, url, fallback, accessibility }`, written
    /// straight to bytes in `JSONObject`'s order (the keys sorted by their UTF-8 bytes). A feed
    /// page's JSON is mostly its components: as `JSONValue` trees (an object for each field's
    /// value, every member compared and moved into its place, a second pass to write them) they
    /// took about 35,000 instructions a component to build and write, a tenth of a feed build's.
    private func component(_ view: ComponentView, id: String, embedded: [ComponentView] = [], code: [RenderedCode] = [], needs: inout ClientVersion) -> JSONValue {
        let definition = registry[view.code]
        let schema = definition?.schema
        var fields = JSONMembers()
        var link: ViewValue?
        if view.code == BodyComponent.code {
            fields.add("content", body(view.data["content"]?.text ?? "", embedded: embedded, code: code, needs: &needs))
        }
        for field in schema?.fields ?? [] {
            guard let value = view.data[field.name], value != .null else { continue }
            if field.type == .items, case .components(let children) = value {
                var counts: [String: Int] = [:]
                fields.add(field.name) { out in
                    out.append(UInt8(ascii: "["))
                    for (index, child) in children.enumerated() {
                        if index > 0 { out.append(UInt8(ascii: ",")) }
                        component(child, id: componentID(child, in: id, counts: &counts), needs: &needs).write(into: &out)
                    }
                    out.append(UInt8(ascii: "]"))
                }
                continue
            }
            guard fields.add(field.name, { Self.write(value, type: field.type, into: &$0) }) else { continue }
            if field.type == .link, link == nil { link = value }
        }
        var computed = JSONMembers()
        for value in definition?.model?.computed ?? [] {
            switch view.data[value.name] {
            case .bool(let flag)?: computed.add(value.name, .bool(flag))
            case let data? where data != .null: if let text = data.text { computed.add(value.name, .string(text)) }
            default: break
            }
        }
        let action = action(view.action, link: link)
        if let schema, let version = schema.minClientVersion, needs < version { needs = version }

        var out: [UInt8] = []
        out.reserveCapacity(512)
        out.append(UInt8(ascii: "{"))
        let label = view.data["accessibilityLabel"]?.text, hint = view.data["accessibilityHint"]?.text
        if label != nil || hint != nil {
            JSONBytes.member("\"accessibility\":{", &out)
            if let hint {
                JSONBytes.append("\"hint\":", to: &out)
                JSONValue.quote(hint, into: &out)
            }
            if let label {
                JSONBytes.append(hint == nil ? "\"label\":" : ",\"label\":", to: &out)
                JSONValue.quote(label, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        if let action {
            JSONBytes.member("\"action\":", &out)
            action.json.write(into: &out)
        }
        if !computed.isEmpty {
            JSONBytes.member("\"computed\":", &out)
            computed.write(into: &out)
        }
        if let schema, let fallback = fallback(of: view, schema: schema, id: id, action: action, depth: 0) {
            JSONBytes.member("\"fallback\":", &out)
            fallback.write(into: &out)
        }
        JSONBytes.member("\"fields\":", &out)
        fields.write(into: &out)
        JSONBytes.member("\"id\":", &out)
        JSONValue.quote(id, into: &out)
        JSONBytes.member("\"type\":", &out)
        JSONValue.quote(view.code, into: &out)
        if let url = action?.url {
            JSONBytes.member("\"url\":", &out)
            url.write(into: &out)
        }
        JSONBytes.member("\"version\":", &out)
        JSONValue.int(schema?.version ?? 1).write(into: &out)
        out.append(UInt8(ascii: "}"))
        return .raw(out)
    }

    /// What an app without `schema`'s component shows: `hide`, or the fallback component made of
    /// this one's values (its own fallback inside, for an app older still).
    private func fallback(of view: ComponentView, schema: ComponentSchema, id: String, action: (json: JSONValue, url: JSONValue?)?, depth: Int) -> JSONValue? {
        guard let fallback = schema.fallback, depth < 8 else { return nil }
        guard case .component(let code, _, _) = fallback, let target = registry[code]?.schema else { return "hide" }
        var fields: JSONObject = [:]
        for (theirs, ours) in fallback.fieldMap(from: schema, to: target) {
            guard let field = schema.field(ours), field.type != .items, let value = view.data[ours], value != .null,
                  let converted = Self.value(value, type: field.type) else { continue }
            fields[theirs] = converted
        }
        var object: JSONObject = ["id": .string(id), "type": .string(code), "version": .int(target.version), "fields": .object(fields)]
        if let action {
            object["action"] = action.json
            if let url = action.url { object["url"] = url }
        }
        if let further = self.fallback(of: view, schema: target, id: id, action: action, depth: depth + 1) {
            // The next fallback reads this one's values: the fields it was given.
            object["fallback"] = further
        }
        return .object(object)
    }

    /// The component's action: the one written on it, else its first link's: `navigate` (with the
    /// page's id and JSON when the link leads to a page of the site) or `open-external`. With
    /// its `url` member, which the component repeats.
    private func action(_ written: ComponentAction?, link: ViewValue?) -> (json: JSONValue, url: JSONValue?)? {
        guard let written else {
            // Most actions: a link's, written as bytes in the order of their keys.
            guard let link, let url = link["url"]?.text ?? link.text else { return nil }
            var out: [UInt8] = []
            out.reserveCapacity(96)
            if link["external"] == .bool(true) {
                JSONBytes.text("{\"type\":\"open-external\",\"url\":", url, &out)
            } else {
                if let target = target(of: url) {
                    if !target.json.isEmpty { JSONBytes.text("{\"json\":", target.json, &out) }
                    JSONBytes.text(target.json.isEmpty ? "{\"page\":" : ",\"page\":", target.id, &out)
                    JSONBytes.append(",\"type\":\"navigate\"", to: &out)
                } else {
                    JSONBytes.append("{\"type\":\"navigate\"", to: &out)
                }
                JSONBytes.text(",\"url\":", url, &out)
            }
            out.append(UInt8(ascii: "}"))
            return (.raw(out), .string(url))
        }
        var object: JSONObject = ["type": .string(written.type)]
        if let url = written.url { object["url"] = .string(url) }
        if let title = written.title { object["title"] = .string(title) }
        for (key, value) in written.parameters { object[key] = .string(value) }
        let done = (written.type == "share" && written.url == nil) || written.external || written.url == nil
        if !done, object["type"] == "navigate", case .string(let url)? = object["url"], let target = target(of: url) {
            object["page"] = .string(target.id)
            if !target.json.isEmpty { object["json"] = .string(target.json) }
        }
        return (.object(object), object["url"])
    }

    /// The page a link of the site leads to: its id and JSON URL (when it writes JSON).
    func target(of url: String) -> (id: String, json: String)? {
        // A URL without a `#` or `?` byte is its own path: looked up as it is, without a search
        // of its characters and a copy (most links of a feed).
        if !url.utf8.contains(where: { $0 == UInt8(ascii: "#") || $0 == UInt8(ascii: "?") }) { return targets[url] }
        var path = Substring(url)
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) { path = path[..<cut] }
        return targets[String(path)]
    }

    /// A field's view data in its JSON shape (see ContentAPI.md); nil when it has none.
    static func value(_ value: ViewValue, type: FieldType) -> JSONValue? {
        var out: [UInt8] = []
        write(value, type: type, into: &out)
        return out.isEmpty ? nil : .raw(out)
    }

    /// A field's view data in its JSON shape, appended to `out`, keys in `JSONObject`'s order;
    /// nothing when it has none.
    static func write(_ value: ViewValue, type: FieldType, into out: inout [UInt8]) {
        switch type {
        case .text:
            if let string = value.text { JSONValue.quote(string, into: &out) }
        case .markdown, .inlineMarkdown:
            guard let html = value.text else { return }
            JSONBytes.text("{\"html\":", html, &out)
            JSONBytes.text(",\"text\":", HTMLText.plain(html), &out)
            out.append(UInt8(ascii: "}"))
        case .number, .percent, .currency:
            guard let string = value.text, let raw = value["value"].flatMap(number) else { return }
            if type == .currency, let code = value["currency"]?.text {
                JSONBytes.text("{\"currency\":", code, &out)
                JSONBytes.text(",\"text\":", string, &out)
            } else {
                JSONBytes.text("{\"text\":", string, &out)
            }
            JSONBytes.json(",\"value\":", raw, &out)
            out.append(UInt8(ascii: "}"))
        case .date:
            guard let string = value.text, let iso = value["iso"]?.text else { return }
            JSONBytes.text("{\"iso\":", iso, &out)
            JSONBytes.text(",\"text\":", string, &out)
            out.append(UInt8(ascii: "}"))
        case .link:
            guard let url = value["url"]?.text ?? value.text else { return }
            JSONBytes.json("{\"external\":", .bool(value["external"] == .bool(true)), &out)
            JSONBytes.text(",\"url\":", url, &out)
            out.append(UInt8(ascii: "}"))
        case .image:
            guard let src = value["src"]?.text ?? value.text else { return }
            // Its size, and for an image Tessera made sizes of: every file, the dominant colour and
            // the tiny preview, so an app picks the size it shows and paints before it loads.
            let width = value["width"].flatMap(number), height = value["height"].flatMap(number)
            let size = width.flatMap { width in height.map { (width, $0) } }
            JSONBytes.text("{\"alt\":", value["alt"]?.text ?? "", &out)
            if let color = value["color"]?.text { JSONBytes.text(",\"color\":", color, &out) }
            JSONBytes.json(",\"external\":", .bool(value["external"] == .bool(true)), &out)
            if let size { JSONBytes.json(",\"height\":", size.1, &out) }
            if let original = value["original"]?.text, original != src { JSONBytes.text(",\"original\":", original, &out) }
            if let preview = value["preview"]?.text { JSONBytes.text(",\"preview\":", preview, &out) }
            JSONBytes.text(",\"src\":", src, &out)
            if case .list(let variants)? = value["variants"], !variants.isEmpty {
                JSONBytes.append(",\"variants\":[", to: &out)
                var first = true
                for variant in variants {
                    guard let src = variant["src"]?.text, let width = variant["width"].flatMap(number), let height = variant["height"].flatMap(number),
                          let format = variant["format"]?.text else { continue }
                    if !first { out.append(UInt8(ascii: ",")) }
                    first = false
                    JSONBytes.text("{\"format\":", format, &out)
                    JSONBytes.json(",\"height\":", height, &out)
                    JSONBytes.text(",\"src\":", src, &out)
                    JSONBytes.json(",\"width\":", width, &out)
                    out.append(UInt8(ascii: "}"))
                }
                out.append(UInt8(ascii: "]"))
            }
            if let size { JSONBytes.json(",\"width\":", size.0, &out) }
            out.append(UInt8(ascii: "}"))
        case .enum:
            if let string = value["value"]?.text ?? value.text { JSONValue.quote(string, into: &out) }
        case .bool:
            if case .bool(let flag) = value { JSONValue.bool(flag).write(into: &out) }
        case .list:
            guard case .list(let items) = value["items"] ?? value else { return }
            out.append(UInt8(ascii: "["))
            var first = true
            for case let string? in items.lazy.map(\.text) {
                if !first { out.append(UInt8(ascii: ",")) }
                first = false
                JSONValue.quote(string, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .items:
            break
        }
    }

    private static func number(_ value: ViewValue) -> JSONValue? {
        guard case .number(let raw) = value else { return nil }
        return raw == raw.rounded() && abs(raw) < 1e15 ? .int(Int(raw)) : .double(raw)
    }

    /// The body as an app shows it: its blocks in reading order, runs of the Markdown's HTML
    /// (`{kind: markdown, html}`), the components placed in it (`{kind: component, component}`,
    /// ids `body/…`) and its code blocks (`{kind: code, …}`, `codeBlock`).
    func body(_ html: String, embedded: [ComponentView], code: [RenderedCode], needs: inout ClientVersion) -> JSONValue {
        guard MarkdownComponents.hasMarkers(html) else { return html.isEmpty ? [] : [["kind": "markdown", "html": .string(html)]] }
        var counts: [String: Int] = [:]
        var blocks: [JSONValue] = []
        for run in MarkdownComponents.split(html) {
            if let block = self.block(run, embedded: embedded, code: code, counts: &counts, needs: &needs) { blocks.append(block) }
        }
        return .array(blocks)
    }

    private func block(_ run: MarkdownComponents.Run, embedded: [ComponentView], code: [RenderedCode], counts: inout [String: Int], needs: inout ClientVersion) -> JSONValue? {
        switch run {
        case .html(let text):
            return ["kind": "markdown", "html": .string(text)]
        case .placed(.component(let index)):
            guard embedded.indices.contains(index) else { return nil }
            let view = embedded[index]
            return ["kind": "component", "component": component(view, id: componentID(view, in: "body", counts: &counts), needs: &needs)]
        case .placed(.code(let index)):
            guard code.indices.contains(index) else { return nil }
            return Self.codeBlock(code[index].block)
        }
    }

    /// A code block for an app to show with its own colours: the language as written and its
    /// name, the code, and its tokens (`[type, text]` pairs, Pygments' token types) when it was
    /// highlighted; the title, numbering and marked lines when the fence asks for them.
    static func codeBlock(_ block: CodeBlock) -> JSONValue {
        var object: JSONObject = ["kind": "code", "code": .string(block.code)]
        object["language"] = block.language.map { .string($0) } ?? .null
        if let name = block.languageName { object["languageName"] = .string(name) }
        if let title = block.title { object["title"] = .string(title) }
        if block.lineNumbers { object["firstLineNumber"] = .int(block.firstLineNumber) }
        if !block.markedLines.isEmpty { object["markedLines"] = .array(block.markedLines.sorted().map { .int($0) }) }
        if let pieces = block.highlighted?.pieces(of: block.code) {
            object["tokens"] = .array(pieces.map { .array([.string($0.type.name), .string(String($0.text))]) })
        }
        return .object(object)
    }

    /// The bytes of `view`'s page JSON, as written: keys sorted, no escaped slashes, so equal
    /// input gives equal bytes.
    func bytes(for view: PageView) -> Data {
        Data(JSONValue.object(document(for: view)).bytes)
    }
}

extension PageDocument {
    /// The writer of the JSON of `pages`, `site`'s pages (by default those it holds).
    init(site: RoutedSite, pages: [Page]? = nil) {
        var versions: [String: [String: (url: String, json: String)]] = [:]
        for page in pages ?? site.loaded.pages { versions[page.translationKey, default: [:]][page.language] = (page.url, page.jsonOutputPath) }
        let configuration = site.configuration
        self.init(
            registry: site.loaded.components, origin: configuration.origin, basePath: configuration.basePath,
            versions: versions.filter { $0.value.count > 1 }, languages: configuration.languages)
        // Every page, not only those written now: a kept page is still a link's target.
        let basePath = configuration.basePath
        let all = pages ?? site.loaded.pages
        targets.reserveCapacity(all.count)
        for page in all {
            let writesJSON = (page.outputs ?? configuration.outputs).contains("json")
            targets[basePath + page.url.dropFirst()] = (page.contentID, writesJSON ? basePath + page.jsonOutputPath : "")
        }
    }
}

extension Page {
    /// `/blog/` → `blog/index.json`; `/404.html` → `404.json`.
    static func jsonPath(ofURL url: String) -> String {
        if url.hasSuffix(".html") { return String(url.dropFirst().dropLast(".html".count)) + ".json" }
        return String(url.dropFirst()) + "index.json"
    }
}

extension Step where Product == RenderedSite {
    /// `index.json` beside every page whose outputs include `json`, and `/api/index.json` listing them.
    public static var writePageJSON: Step { Step("page JSON") { site, context in
        let configuration = site.configuration
        // Pages the build cache kept have their JSON from the last build, listed in the index too.
        let reuse = context.reuse
        let reused = reuse.keptPages
        // Only a last build that wrote page JSON wrote its index: without one, no kept page has JSON.
        let keptJSON = !reused.isEmpty && reuse.lastBuildWrote("api/index.json")
        // A page's outputs are its HTML (`.html`) and its JSON: the one that ends in `.json`.
        let kept = !keptJSON ? [] : site.pages.filter { page in
            reused[page.url]?.outputs.contains { $0.hasSuffix(".json") } == true
        }
        guard !site.documents.isEmpty || !kept.isEmpty else { return }
        let writer = site.documentWriter ?? PageDocument(site: site.mapped.routed)
        var taken = Set(site.outputs.map(\.path) + site.staticFiles.map(\.path) + reuse.keptOutputs)
        var listed = kept
        for (page, file) in site.documents {
            guard taken.insert(file.path).inserted else {
                context.diagnostics.report(Diagnostic(
                    .error, "the page's JSON would be written to \(page.jsonOutputPath), where another file is", at: page.location,
                    hint: "rename that file, or set `outputs: [html]` on this page"))
                continue
            }
            site.outputs.append(file)
            listed.append(page)
        }
        site.documents = []
        // The index lists titles and dates, the schema the theme's components: the last build's
        // when it is kept whole but for page bodies.
        guard !reuse.keepsStructure else { return }
        let basePath = configuration.basePath
        let entries = PageIndex.entries(of: listed, writer: writer, basePath: basePath)
        let indexFile = reuse.derived("api/index.json", key: entries, updating: { last in
            last.flatMap { PageIndex.patched($0, to: entries) } ?? PageIndex.make(entries, basePath: basePath)
        })
        let schema = Data(JSONValue(any: ContentSchemaWriter(registry: site.components, origin: configuration.origin, basePath: basePath).schema()).bytes)
        let siteFile = SiteDocument.make(site.mapped.routed, writer: writer)
        for (path, document) in [("api/index.json", indexFile), ("api/schema.json", schema), ("api/site.json", siteFile)] {
            guard taken.insert(path).inserted else {
                context.diagnostics.report(Diagnostic(.error, "\(path) is both a file of the site and the content API's", hint: "move the site's file, or set `outputs: [html]` in site.yml"))
                continue
            }
            site.outputs.append(context.reuse.stream(OutputFile(path: path, contents: .data(document))))
        }
    } }
}

/// `api/index.json`: every page that has JSON, in the order of their JSON paths.
enum PageIndex {
    static func entries(of pages: [Page], writer: PageDocument, basePath: String) -> [PageIndexEntry] {
        pages.map { page in
            PageIndexEntry(id: page.contentID, json: writer.jsonURL(of: page), url: basePath + page.url.dropFirst(), language: page.language, title: page.title, date: page.date)
        }
    }

    static func make(_ entries: [PageIndexEntry], basePath: String) -> Data {
        let index: JSONObject = [
            "format": "tessera.index", "version": .int(PageDocument.version),
            "schema": .string(basePath + "api/schema.json"),
            "site": .string(basePath + "api/site.json"),
            "pages": .array(entries.sorted { $0.json < $1.json }.map(\.value)),
        ]
        return Data(JSONValue.object(index).bytes)
    }

    /// The index of `entries` made from the last one, when it listed the same pages in the same
    /// order and only some of their values changed (a title edited in the preview): each changed
    /// entry's text is replaced where it is, in one pass. Nil when the pages differ.
    ///
    /// An entry's text occurs once: entries differ by their JSON path, and an entry's opening
    /// `{"id":"` cannot occur inside a JSON string, where quotes are escaped.
    static func patched(_ last: (key: [PageIndexEntry], data: Data), to entries: [PageIndexEntry]) -> Data? {
        guard last.key.count == entries.count, zip(last.key, entries).allSatisfy({ $0.json == $1.json }) else { return nil }
        let changed = zip(last.key, entries).filter { $0 != $1 }.sorted { $0.0.json < $1.0.json }
        var out = Data()
        out.reserveCapacity(last.data.count + 256 * changed.count)
        let complete = last.data.withUnsafeBytes { raw -> Bool in
            var position = 0
            for (old, new) in changed {
                let text = Array(old.inlineText.utf8)
                guard let offset = ByteSearch.firstOffset(of: text, in: raw, from: position) else { return false }
                out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position..<offset]))
                out.append(contentsOf: Array(new.inlineText.utf8))
                position = offset + text.count
            }
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: raw[position...]))
            return true
        }
        return complete ? out : nil
    }
}

/// A page's line in `api/index.json`; also what the preview's cache compares to keep the file.
struct PageIndexEntry: Equatable, Sendable {
    var id: String, json: String, url: String, language: String, title: String?, date: Date?

    var value: JSONValue {
        var entry: JSONObject = ["id": .string(id), "json": .string(json), "url": .string(url), "lang": .string(language)]
        if let title { entry["title"] = .string(title) }
        if let date { entry["date"] = .string(FeedWriter.rfc3339(date)) }
        return .object(entry)
    }

    /// The entry as the index writes it, inside its list (no final newline).
    var inlineText: String {
        var out = ""
        value.write(into: &out)
        return out
    }
}
