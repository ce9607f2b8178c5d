import Foundation

/// A page's resolved view data as JSON, beside its HTML, for native apps: the same sections and
/// components the web page shows, each field in a shape a client uses without formatting again.
///
/// The format is documented in Documentation/ContentAPI.md and described by `/api/schema.json`.
struct PageDocument {
    static let format = "tessera.page"
    static let version = 1

    var registry: ComponentRegistry
    /// `https://example.com`, or "" when baseURL is a path.
    var origin: String
    var basePath: String
    var buildDate: String
    /// Translation key → language → page, for `translations`.
    var versions: [String: [String: Page]]
    var languages: [SiteLanguage]

    /// The JSON URL of a page, with the base path: `/docs/blog/index.json`.
    func jsonURL(of page: Page) -> String { basePath + page.jsonOutputPath }

    func document(for view: PageView) -> [String: Any] {
        let page = view.page
        let url = basePath + page.url.dropFirst()
        var meta: [String: Any] = [
            "id": page.contentID,
            "url": url,
            "json": jsonURL(of: page),
            "lang": page.language,
            "buildDate": buildDate,
            "tags": page.tags,
        ]
        if !origin.isEmpty { meta["permalink"] = origin + url }
        if let title = page.title { meta["title"] = title }
        if let summary = page.summary { meta["summary"] = summary }
        if let date = page.date { meta["date"] = FeedWriter.rfc3339(date) }
        let translations = languages.compactMap { language -> [String: Any]? in
            guard let other = versions[page.translationKey]?[language.code] else { return nil }
            return ["lang": language.code, "url": basePath + other.url.dropFirst(), "json": jsonURL(of: other)]
        }
        if translations.count > 1 { meta["translations"] = translations }
        if let pagination = page.pagination {
            var pager: [String: Any] = ["current": pagination.number, "total": pagination.total]
            func json(_ number: Int) -> String { basePath + Page.jsonPath(ofURL: pagination.url(of: number)) }
            if pagination.number > 1 { pager["previous"] = json(pagination.number - 1) }
            if pagination.number < pagination.total { pager["next"] = json(pagination.number + 1) }
            pager["first"] = json(1)
            pager["last"] = json(pagination.total)
            meta["pagination"] = pager
        }
        var document: [String: Any] = [
            "format": Self.format,
            "version": Self.version,
            "page": meta,
            "sections": view.sections.enumerated().map { index, section in sectionObject(section, index: index) },
        ]
        if let content = view.content { document["body"] = Self.markdown(content) }
        return document
    }

    private func sectionObject(_ section: SectionView, index: Int) -> [String: Any] {
        var ids = Set<String>()
        var object: [String: Any] = [
            "id": section.id ?? "section-\(index + 1)",
            "layout": section.layout,
            "items": section.items.map { component($0, prefix: "", taken: &ids) },
        ]
        if let header = section.header { object["header"] = component(header, prefix: "", taken: &ids) }
        if let footer = section.footer { object["footer"] = component(footer, prefix: "", taken: &ids) }
        return object
    }

    /// `{ id, type, version, fields, action }`; `taken` keeps ids unique within a section.
    private func component(_ view: ComponentView, prefix: String, taken: inout Set<String>) -> [String: Any] {
        var id = prefix + (view.id ?? view.code + "-" + view.contentDigest)
        if !taken.insert(id).inserted {
            var number = 2
            while !taken.insert(id + "-\(number)").inserted { number += 1 }
            id += "-\(number)"
        }
        let schema = registry[view.code]?.schema
        var fields: [String: Any] = [:]
        var action: String?
        if view.code == BodyComponent.code {
            fields["content"] = Self.markdown(view.data["content"]?.text ?? "")
        }
        for field in schema?.fields ?? [] {
            guard let value = view.data[field.name], value != .null else { continue }
            if field.type == .items, case .components(let children) = value {
                var childIDs = Set<String>()
                fields[field.name] = children.map { component($0, prefix: id + "/", taken: &childIDs) }
                continue
            }
            guard let converted = Self.value(value, type: field.type) else { continue }
            fields[field.name] = converted
            if field.type == .link, action == nil, let target = value["url"]?.text { action = target }
        }
        var object: [String: Any] = ["id": id, "type": view.code, "version": schema?.version ?? 1, "fields": fields]
        if let action { object["action"] = action }
        return object
    }

    /// A field's view data in its JSON shape (see ContentAPI.md).
    static func value(_ value: ViewValue, type: FieldType) -> Any? {
        switch type {
        case .text:
            return value.text
        case .markdown, .inlineMarkdown:
            return value.text.map(markdown)
        case .number, .percent, .currency:
            guard let text = value.text, let raw = value["value"].flatMap(number) else { return nil }
            var object: [String: Any] = ["text": text, "value": raw]
            if type == .currency, let code = value["currency"]?.text { object["currency"] = code }
            return object
        case .date:
            guard let text = value.text, let iso = value["iso"]?.text else { return nil }
            return ["text": text, "iso": iso]
        case .link:
            guard let url = value["url"]?.text ?? value.text else { return nil }
            return ["url": url, "external": value["external"] == .bool(true)]
        case .image:
            guard let src = value["src"]?.text ?? value.text else { return nil }
            var object: [String: Any] = ["src": src, "external": value["external"] == .bool(true)]
            object["alt"] = value["alt"]?.text ?? ""
            return object
        case .enum:
            return value["value"]?.text ?? value.text
        case .bool:
            if case .bool(let flag) = value { return flag }
            return nil
        case .list:
            if case .list(let items) = value["items"] ?? value { return items.compactMap(\.text) }
            return nil
        case .items:
            return nil
        }
    }

    private static func number(_ value: ViewValue) -> Any? {
        guard case .number(let raw) = value else { return nil }
        return raw == raw.rounded() && abs(raw) < 1e15 ? Int(raw) as Any : raw as Any
    }

    /// Markdown for a client: the HTML, and the same as plain text.
    static func markdown(_ html: String) -> [String: Any] {
        ["html": html, "text": HTMLText.plain(html)]
    }

    /// The document as bytes: keys sorted, no escaped slashes, so equal input gives equal bytes.
    static func encode(_ object: Any) -> String {
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

extension Page {
    /// `/blog/` → `blog/index.json`; `/404.html` → `404.json`.
    static func jsonPath(ofURL url: String) -> String {
        if url.hasSuffix(".html") { return String(url.dropFirst().dropLast(".html".count)) + ".json" }
        return String(url.dropFirst()) + "index.json"
    }
}

/// The text of HTML, for clients that show Markdown as plain text.
enum HTMLText {
    static func plain(_ html: String) -> String {
        var text = ""
        var inTag = false
        var tag = ""
        for character in html {
            if inTag {
                if character == ">" {
                    inTag = false
                    // Block ends become line breaks.
                    let name = tag.lowercased().split(whereSeparator: { $0 == " " || $0 == "/" }).first.map(String.init) ?? ""
                    if ["p", "li", "br", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "tr", "div"].contains(name) && tag.hasPrefix("/") || name == "br" {
                        text += "\n"
                    }
                    tag = ""
                } else {
                    tag.append(character)
                }
            } else if character == "<" {
                inTag = true
            } else {
                text.append(character)
            }
        }
        return decodeEntities(text).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .joined(separator: "\n")
            .replacingOccurrences(of: "\n\n+", with: "\n", options: .regularExpression)
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func decodeEntities(_ text: String) -> String {
        guard text.contains("&") else { return text }
        var result = ""
        var index = text.startIndex
        let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]
        while index < text.endIndex {
            if text[index] == "&", let end = text[index...].prefix(12).firstIndex(of: ";") {
                let name = String(text[text.index(after: index)..<end])
                var replacement: String?
                if name.hasPrefix("#x") || name.hasPrefix("#X") {
                    replacement = UInt32(name.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else if name.hasPrefix("#") {
                    replacement = UInt32(name.dropFirst()).flatMap(Unicode.Scalar.init).map { String(Character($0)) }
                } else {
                    replacement = named[name]
                }
                if let replacement {
                    result += replacement
                    index = text.index(after: end)
                    continue
                }
            }
            result.append(text[index])
            index = text.index(after: index)
        }
        return result
    }
}

extension BuildStep {
    /// `index.json` beside every page whose outputs include `json`, and `/api/index.json` listing them.
    public static let writePageJSON = BuildStep("page JSON") { state in
        let configuration = state.configuration
        let wanted = state.pageViews.filter { ($0.page.outputs ?? configuration.outputs).contains("json") }
        guard !wanted.isEmpty else { return }
        var versions: [String: [String: Page]] = [:]
        for page in state.pages { versions[page.translationKey, default: [:]][page.language] = page }
        let writer = PageDocument(
            registry: state.registry, origin: configuration.origin, basePath: configuration.basePath,
            buildDate: DateTransformer.view(of: state.buildDate, format: "iso", hasTime: true, context: state.transformContext(for: configuration.defaultLanguage.code))["iso"]?.text ?? "",
            versions: versions, languages: configuration.languages)
        var taken = Set(state.outputs.map(\.path) + state.staticFiles.map(\.path))
        let documents = ParallelMap.map(wanted) { view in (view.page, PageDocument.encode(writer.document(for: view))) }
        for (page, json) in documents {
            guard taken.insert(page.jsonOutputPath).inserted else {
                state.diagnostics.report(Diagnostic(
                    .error, "the page's JSON would be written to \(page.jsonOutputPath), where another file is", at: page.location,
                    hint: "rename that file, or set `outputs: [html]` on this page"))
                continue
            }
            state.outputs.append(.text(page.jsonOutputPath, json))
        }
        let index: [String: Any] = [
            "format": "tessera.index", "version": PageDocument.version, "buildDate": writer.buildDate,
            "schema": configuration.basePath + "api/schema.json",
            "pages": documents.map { page, _ -> [String: Any] in
                var entry: [String: Any] = ["id": page.contentID, "json": writer.jsonURL(of: page), "url": configuration.basePath + page.url.dropFirst(), "lang": page.language]
                if let title = page.title { entry["title"] = title }
                if let date = page.date { entry["date"] = FeedWriter.rfc3339(date) }
                return entry
            }.sorted { ($0["json"] as? String ?? "") < ($1["json"] as? String ?? "") },
        ]
        let schema = ContentSchemaWriter(registry: state.registry, origin: configuration.origin, basePath: configuration.basePath).schema()
        for (path, object) in [("api/index.json", index), ("api/schema.json", schema)] {
            guard taken.insert(path).inserted else {
                state.diagnostics.report(Diagnostic(.error, "\(path) is both a file of the site and the content API's", hint: "move the site's file, or set `outputs: [html]` in site.yml"))
                continue
            }
            state.outputs.append(.text(path, PageDocument.encode(object)))
        }
    }
}
