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
    static let version = 4

    var registry: ComponentRegistry
    /// `https://example.com`, or "" when baseURL is a path.
    var origin: String
    var basePath: String
    /// Translation key → language → the page's URL and JSON path (without the base path), for
    /// `translations`: only keys of more than one page, and no page itself, so the writer does
    /// not keep every page alive while they are mapped and let go.
    var versions: [String: [String: (url: String, json: String)]]
    var languages: [SiteLanguage]

    /// The JSON URL of a page, with the base path: `/docs/blog/index.json`.
    func jsonURL(of page: Page) -> String { basePath + page.jsonOutputPath }

    func document(for view: PageView) -> [String: JSONValue] {
        let page = view.page
        let url = basePath + page.url.dropFirst()
        var meta: [String: JSONValue] = [
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
        let translations = languages.compactMap { language -> [String: JSONValue]? in
            guard let other = versions[page.translationKey]?[language.code] else { return nil }
            return ["lang": .string(language.code), "url": .string(basePath + other.url.dropFirst()), "json": .string(basePath + other.json)]
        }
        if translations.count > 1 { meta["translations"] = .array(translations.map(JSONValue.object)) }
        if let pagination = page.pagination {
            var pager: [String: JSONValue] = ["current": .int(pagination.number), "total": .int(pagination.total)]
            func json(_ number: Int) -> JSONValue { .string(basePath + Page.jsonPath(ofURL: pagination.url(of: number))) }
            if pagination.number > 1 { pager["previous"] = json(pagination.number - 1) }
            if pagination.number < pagination.total { pager["next"] = json(pagination.number + 1) }
            pager["first"] = json(1)
            pager["last"] = json(pagination.total)
            meta["pagination"] = .object(pager)
        }
        // The cover (`image:` of the front matter), with its sizes.
        if let image = view.data["image"], image != .null, let json = Self.value(image, type: .image) { meta["image"] = json }
        // The body's headings, nested, for an app's table of contents.
        if !view.headings.isEmpty { meta["toc"] = .array(TableOfContents.json(view.headings)) }
        var document: [String: JSONValue] = [
            "format": .string(Self.format),
            "version": .int(Self.version),
            "page": .object(meta),
            "sections": .array(view.sections.enumerated().map { index, section in .object(sectionObject(section, index: index, embedded: view.embedded, code: view.code)) }),
        ]
        if let content = view.content { document["body"] = body(content, embedded: view.embedded, code: view.code) }
        return document
    }

    /// `embedded`: the components placed in the page's body, for the `body` component's blocks.
    private func sectionObject(_ section: SectionView, index: Int, embedded: [ComponentView], code: [RenderedCode]) -> [String: JSONValue] {
        var ids = Set<String>()
        var object: [String: JSONValue] = [
            "id": .string(section.id ?? "section-\(index + 1)"),
            "layout": .string(section.layout),
            "items": .array(section.items.map { .object(component($0, prefix: "", embedded: embedded, code: code, taken: &ids)) }),
        ]
        if let header = section.header { object["header"] = .object(component(header, prefix: "", embedded: embedded, code: code, taken: &ids)) }
        if let footer = section.footer { object["footer"] = .object(component(footer, prefix: "", embedded: embedded, code: code, taken: &ids)) }
        return object
    }

    /// `{ id, type, version, fields, action }`; `taken` keeps ids unique within a section.
    private func component(_ view: ComponentView, prefix: String, embedded: [ComponentView] = [], code: [RenderedCode] = [], taken: inout Set<String>) -> [String: JSONValue] {
        var id = prefix + (view.id ?? view.code + "-" + view.contentDigest)
        if !taken.insert(id).inserted {
            var number = 2
            while !taken.insert(id + "-\(number)").inserted { number += 1 }
            id += "-\(number)"
        }
        let schema = registry[view.code]?.schema
        var fields: [String: JSONValue] = [:]
        var action: String?
        if view.code == BodyComponent.code {
            fields["content"] = body(view.data["content"]?.text ?? "", embedded: embedded, code: code)
        }
        for field in schema?.fields ?? [] {
            guard let value = view.data[field.name], value != .null else { continue }
            if field.type == .items, case .components(let children) = value {
                var childIDs = Set<String>()
                fields[field.name] = .array(children.map { .object(component($0, prefix: id + "/", taken: &childIDs)) })
                continue
            }
            guard let converted = Self.value(value, type: field.type) else { continue }
            fields[field.name] = converted
            if field.type == .link, action == nil, let target = value["url"]?.text { action = target }
        }
        var object: [String: JSONValue] = ["id": .string(id), "type": .string(view.code), "version": .int(schema?.version ?? 1), "fields": .object(fields)]
        if let action { object["action"] = .string(action) }
        return object
    }

    /// A field's view data in its JSON shape (see ContentAPI.md).
    static func value(_ value: ViewValue, type: FieldType) -> JSONValue? {
        switch type {
        case .text:
            return value.text.map(JSONValue.string)
        case .markdown, .inlineMarkdown:
            return value.text.map(markdown)
        case .number, .percent, .currency:
            guard let text = value.text, let raw = value["value"].flatMap(number) else { return nil }
            var object: [String: JSONValue] = ["text": .string(text), "value": raw]
            if type == .currency, let code = value["currency"]?.text { object["currency"] = .string(code) }
            return .object(object)
        case .date:
            guard let text = value.text, let iso = value["iso"]?.text else { return nil }
            return ["text": .string(text), "iso": .string(iso)]
        case .link:
            guard let url = value["url"]?.text ?? value.text else { return nil }
            return ["url": .string(url), "external": .bool(value["external"] == .bool(true))]
        case .image:
            guard let src = value["src"]?.text ?? value.text else { return nil }
            var object: [String: JSONValue] = ["src": .string(src), "external": .bool(value["external"] == .bool(true)), "alt": .string(value["alt"]?.text ?? "")]
            // Its size, and for an image Tessera made sizes of: every file, the dominant colour and
            // the tiny preview, so an app picks the size it shows and paints before it loads.
            if let width = value["width"].flatMap(number), let height = value["height"].flatMap(number) {
                object["width"] = width
                object["height"] = height
            }
            if let original = value["original"]?.text, original != src { object["original"] = .string(original) }
            if let color = value["color"]?.text { object["color"] = .string(color) }
            if let preview = value["preview"]?.text { object["preview"] = .string(preview) }
            if case .list(let variants)? = value["variants"], !variants.isEmpty {
                object["variants"] = .array(variants.compactMap { variant in
                    guard let src = variant["src"]?.text, let width = variant["width"].flatMap(number), let height = variant["height"].flatMap(number),
                          let format = variant["format"]?.text else { return nil }
                    return ["src": .string(src), "width": width, "height": height, "format": .string(format)]
                })
            }
            return .object(object)
        case .enum:
            return (value["value"]?.text ?? value.text).map(JSONValue.string)
        case .bool:
            if case .bool(let flag) = value { return .bool(flag) }
            return nil
        case .list:
            if case .list(let items) = value["items"] ?? value { return .array(items.compactMap(\.text).map(JSONValue.string)) }
            return nil
        case .items:
            return nil
        }
    }

    private static func number(_ value: ViewValue) -> JSONValue? {
        guard case .number(let raw) = value else { return nil }
        return raw == raw.rounded() && abs(raw) < 1e15 ? .int(Int(raw)) : .double(raw)
    }

    /// The body as an app shows it: its blocks in reading order, runs of the Markdown's HTML
    /// (`{kind: markdown, html}`), the components placed in it (`{kind: component, component}`,
    /// ids `body/…`) and its code blocks (`{kind: code, …}`, `codeBlock`).
    func body(_ html: String, embedded: [ComponentView], code: [RenderedCode]) -> JSONValue {
        guard MarkdownComponents.hasMarkers(html) else { return html.isEmpty ? [] : [["kind": "markdown", "html": .string(html)]] }
        var ids = Set<String>()
        return .array(MarkdownComponents.split(html).compactMap { run -> JSONValue? in
            switch run {
            case .html(let text):
                return ["kind": "markdown", "html": .string(text)]
            case .placed(.component(let index)):
                guard embedded.indices.contains(index) else { return nil }
                return ["kind": "component", "component": .object(component(embedded[index], prefix: "body/", taken: &ids))]
            case .placed(.code(let index)):
                guard code.indices.contains(index) else { return nil }
                return Self.codeBlock(code[index].block)
            }
        })
    }

    /// A code block for an app to show with its own colours: the language as written and its
    /// name, the code, and its tokens (`[type, text]` pairs, Pygments' token types) when it was
    /// highlighted; the title, numbering and marked lines when the fence asks for them.
    static func codeBlock(_ block: CodeBlock) -> JSONValue {
        var object: [String: JSONValue] = ["kind": "code", "code": .string(block.code)]
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

    /// Markdown for a client: the HTML, and the same as plain text.
    static func markdown(_ html: String) -> JSONValue {
        ["html": .string(html), "text": .string(HTMLText.plain(html))]
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
        for (path, document) in [("api/index.json", indexFile), ("api/schema.json", schema)] {
            guard taken.insert(path).inserted else {
                context.diagnostics.report(Diagnostic(.error, "\(path) is both a file of the site and the content API's", hint: "move the site's file, or set `outputs: [html]` in site.yml"))
                continue
            }
            site.outputs.append(OutputFile(path: path, contents: .data(document)))
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
        let index: [String: JSONValue] = [
            "format": "tessera.index", "version": .int(PageDocument.version),
            "schema": .string(basePath + "api/schema.json"),
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
        var entry: [String: JSONValue] = ["id": .string(id), "json": .string(json), "url": .string(url), "lang": .string(language)]
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
