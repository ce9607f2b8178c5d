import Foundation

/// A content file that makes one page per record of a data file:
///
/// ```yaml
/// # content/courses/catalogue.yml
/// generate:
///   data: courses                 # data/courses.csv (or .yml, .json)
///   path: "courses/{slug}"        # each page's path below content/, without extension
///   page:                         # front matter of each page; "{key}" is the record's value
///     title: "{title}"
///     sections:
///       - items:
///           - { component: course-progress, title: "{title}", progress: "{progress}" }
/// ```
///
/// A value that is exactly `"{key}"` becomes the record's value with its type and its place in
/// the data file, so a bad value is an error at its line there; `{key}` inside other text is
/// replaced by the value's text.
struct PageGenerator {
    var data: String
    var dataLocation: SourceLocation
    var path: String
    var pathLocation: SourceLocation
    var template: ContentNode

    static let keys = ["data", "path", "page"]

    /// The generator in a feed file's root, or nil when the file is a page.
    static func parse(_ root: ContentNode) throws -> PageGenerator? {
        guard let node = root["generate"] else { return nil }
        if let other = root.entries?.first(where: { $0.key != "generate" }) {
            throw TesseraError("a generator file holds only 'generate:', found '\(other.key)'", at: other.keyLocation, hint: "put page keys under `generate: { page: … }`")
        }
        guard let entries = node.entries else {
            throw TesseraError("'generate' must be a mapping with data, path and page", at: node.location, hint: "write `generate: { data: courses, path: \"courses/{slug}\", page: { title: \"{title}\" } }`")
        }
        for entry in entries where !keys.contains(entry.key) {
            throw TesseraError("unknown generator key '\(entry.key)'", at: entry.keyLocation, hint: Suggestions.didYouMean(entry.key, in: keys) ?? "a generator takes data, path and page")
        }
        guard let data = node["data"], let name = data.scalarText, !name.isEmpty else {
            throw TesseraError("a generator needs 'data': the data file whose records become pages", at: node.location, hint: "write `data: courses` for data/courses.csv")
        }
        guard let path = node["path"], let pattern = path.scalarText, pattern.contains("{") else {
            throw TesseraError("a generator needs 'path' with a placeholder, so each record gets its own page", at: node["path"]?.location ?? node.location, hint: "write `path: \"courses/{slug}\"`")
        }
        guard let page = node["page"], page.entries != nil else {
            throw TesseraError("a generator needs 'page': the front matter each record fills", at: node["page"]?.location ?? node.location, hint: "write `page: { title: \"{title}\" }`")
        }
        return PageGenerator(data: name, dataLocation: data.location, path: pattern, pathLocation: path.location, template: page)
    }

    /// One page per record.
    func pages(data files: SiteData, parser: PageParser, sourcePath: String, relativePath: String) -> (pages: [Page], problems: [Diagnostic]) {
        let problems = DiagnosticCollector()
        guard let records = problems.attempt(at: dataLocation, { try files.records(data, at: dataLocation) }) else { return ([], problems.diagnostics) }
        let known = Set(records.flatMap { $0.entries?.map(\.key) ?? [] })
        // A placeholder no record has is a typo in the generator: one error at its place.
        for (key, location) in placeholders(in: template) + placeholders(in: ContentNode(.string(path), at: pathLocation)) where !known.contains(key) {
            problems.report(Diagnostic(
                .error, "no record of data/\(data) has '\(key)'", at: location,
                hint: Suggestions.didYouMean(key, in: known).map { $0 + " " } ?? "the keys are \(known.sorted().joined(separator: ", "))"))
        }
        guard !problems.hasErrors else { return ([], problems.diagnostics) }
        let (_, language) = PageParser.splitLanguage(relativePath, known: parser.languages.map(\.code))
        var pages: [Page] = []
        for record in records {
            let where_ = "the record at \(record.location.file.split(separator: "/").suffix(2).joined(separator: "/")):\(record.location.line)"
            let path = Self.fill(self.path, record)
            let segments = path.split(separator: "/", omittingEmptySubsequences: false)
            guard !segments.isEmpty, segments.allSatisfy({ segment in
                !segment.isEmpty && segment != "." && segment != ".." && segment.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.~".unicodeScalars.contains($0) }
            }) else {
                problems.report(Diagnostic(
                    .error, "the path '\(path)' made for \(where_) is not a path of URL segments", at: record.location,
                    hint: "give the record a value of letters, digits, '-', '_', '.' or '~' for the path's placeholders (a slug column)"))
                continue
            }
            let root = substitute(template, record)
            let relative = path + (language.map { "." + $0 } ?? "") + ".yml"
            do {
                pages.append(try parser.parse(root: root, body: "", bodyLine: 1, kind: .feed, sourcePath: sourcePath, relativePath: relative))
            } catch {
                problems.report(error, at: record.location)
            }
        }
        return (pages, problems.diagnostics)
    }

    /// `{key}` placeholders in strings of a node, with their places.
    func placeholders(in node: ContentNode) -> [(String, SourceLocation)] {
        switch node.value {
        case .string(let text): return Self.keys(in: text).map { ($0, node.location) }
        case .list(let items): return items.flatMap(placeholders)
        case .map(let entries): return entries.flatMap { placeholders(in: $0.value) }
        default: return []
        }
    }

    static func keys(in text: String) -> [String] {
        var keys: [String] = []
        var rest = text[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            let key = rest[rest.index(after: open)..<close]
            if !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) { keys.append(String(key)) }
            rest = rest[rest.index(after: close)...]
        }
        return keys
    }

    /// `text` with each `{key}` replaced by the record's value as text.
    static func fill(_ text: String, _ record: ContentNode) -> String {
        var result = text
        for key in Self.keys(in: text) {
            result = result.replacingOccurrences(of: "{\(key)}", with: record[key]?.scalarText ?? "")
        }
        return result
    }

    func substitute(_ node: ContentNode, _ record: ContentNode) -> ContentNode {
        switch node.value {
        case .string(let text):
            let keys = Self.keys(in: text)
            if keys.count == 1, text == "{\(keys[0])}" {
                // The record's own value, typed, at its place in the data file.
                return record[keys[0]] ?? ContentNode(.null, at: record.location)
            }
            return keys.isEmpty ? node : ContentNode(.string(Self.fill(text, record)), at: node.location)
        case .list(let items):
            return ContentNode(.list(items.map { substitute($0, record) }), at: node.location)
        case .map(let entries):
            return ContentNode(.map(entries.map { .init(key: $0.key, keyLocation: $0.keyLocation, value: substitute($0.value, record)) }), at: node.location)
        default:
            return node
        }
    }
}
