import Foundation
import SwiftCSV

/// The site's `data/` folder: YAML, JSON and CSV files read once per build, for templates
/// (`site.data.<name>`), query sections (`query: { data: courses, … }`) and page generators.
/// Every value keeps its place in its file, so a bad record is an error at its line.
public struct SiteData: Sendable, Equatable {
    /// `courses` for `data/courses.csv`, `team/people` for `data/team/people.yml`.
    public var files: [String: ContentNode] = [:]

    static let extensions = ["yml", "yaml", "json", "csv"]

    /// The records of a data file named in content: a list of mappings.
    func records(_ name: String, at location: SourceLocation) throws -> [ContentNode] {
        guard let node = files[name] else {
            throw TesseraError(
                "no data file '\(name)' in data/", at: location,
                hint: Suggestions.didYouMean(name, in: files.keys).map { $0 + " " } ?? "put data/\(name).yml, .json or .csv in the site folder")
        }
        guard let list = node.list else {
            throw TesseraError("data/\(name) must be a list of records to make items or pages of, found \(node.kindDescription)", at: location, hint: "write a YAML list of mappings, a JSON array of objects or a CSV file")
        }
        for record in list where record.entries == nil {
            throw TesseraError("a record of data/\(name) must be a mapping of keys to values, found \(record.kindDescription)", at: record.location)
        }
        return list
    }

    /// `site.data`: nested by folder (`site.data.team.people`); made once, when the folder is read.
    private(set) var view = ViewValue.object(ViewObject([]))

    private func makeView() -> ViewValue {
        var root: [String: Any] = [:]
        for (name, node) in files {
            let parts = name.split(separator: "/").map(String.init)
            func insert(_ parts: ArraySlice<String>, into object: inout [String: Any]) {
                guard let first = parts.first else { return }
                if parts.count == 1 { object[first] = ViewValue(plain: node); return }
                var child = object[first] as? [String: Any] ?? [:]
                insert(parts.dropFirst(), into: &child)
                object[first] = child
            }
            insert(parts[...], into: &root)
        }
        func convert(_ value: Any) -> ViewValue {
            if let value = value as? ViewValue { return value }
            let object = value as? [String: Any] ?? [:]
            return .object(ViewObject(object.keys.sorted().map { ($0, convert(object[$0]!)) }))
        }
        return convert(root)
    }

    static func load(directory: String, boundary: String?, problems: DiagnosticCollector) -> SiteData {
        var data = SiteData()
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else { return data }
        for relative in FileTree.files(in: directory, boundary: boundary, problems: problems).sorted() {
            let ext = (relative as NSString).pathExtension.lowercased()
            let path = directory + "/" + relative
            guard extensions.contains(ext) else {
                problems.report(Diagnostic(.error, "data/\(relative) is not a data file", at: SourceLocation(file: path), hint: "data/ holds .yml, .yaml, .json and .csv files"))
                continue
            }
            let name = (relative as NSString).deletingPathExtension
            if data.files[name] != nil {
                problems.report(Diagnostic(.error, "two data files are named '\(name)'", at: SourceLocation(file: path), hint: "keep one of data/\(name).yml, .json and .csv"))
                continue
            }
            problems.attempt(at: SourceLocation(file: path)) {
                let text = try FileTree.readText(path)
                data.files[name] = ext == "csv" ? try CSVRecords.parse(text, file: path) : (try YAMLParser.parse(text, file: path) ?? ContentNode(.null, at: SourceLocation(file: path, line: 1, column: 1)))
            }
        }
        data.view = data.makeView()
        return data
    }
}

/// CSV through SwiftCSV, with each record's line (a quoted value may span lines) and typed
/// values: whole numbers, decimals, `true`/`false`, empty as null, the rest text.
enum CSVRecords {
    static func parse(_ text: String, file: String) throws -> ContentNode {
        let csv: EnumeratedCSV
        do { csv = try EnumeratedCSV(string: text, delimiter: .comma, loadColumns: false) } catch {
            throw TesseraError("cannot read the CSV file: \(error)", at: SourceLocation(file: file), hint: "check its quotes: a value with a comma or a line break is written in double quotes")
        }
        let header = csv.header.map { $0.trimmingCharacters(in: .whitespaces) }
        let lines = recordLines(text)
        guard !header.isEmpty, header.allSatisfy({ !$0.isEmpty }) else {
            throw TesseraError("the first line of a CSV file names its columns, and one is empty", at: SourceLocation(file: file, line: 1, column: 1))
        }
        if let duplicate = Dictionary(grouping: header, by: { $0 }).first(where: { $0.value.count > 1 })?.key {
            throw TesseraError("the column '\(duplicate)' is named twice", at: SourceLocation(file: file, line: 1, column: 1))
        }
        var records: [ContentNode] = []
        for (index, row) in csv.rows.enumerated() {
            let line = index + 1 < lines.count ? lines[index + 1] : lines.last ?? 1
            let location = SourceLocation(file: file, line: line, column: 1)
            if row.count != header.count {
                throw TesseraError("this record has \(row.count) values for \(header.count) columns", at: location, hint: "quote values that hold a comma")
            }
            records.append(ContentNode(.map(zip(header, row).enumerated().map { column, pair in
                let place = SourceLocation(file: file, line: line, column: column + 1)
                return ContentNode.Entry(key: pair.0, keyLocation: place, value: ContentNode(typed(pair.1), at: place))
            }), at: location))
        }
        return ContentNode(.list(records), at: SourceLocation(file: file, line: 1, column: 1))
    }

    static func typed(_ text: String) -> ContentNode.Value {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return .null }
        if let number = Int(trimmed) { return .int(number) }
        if let number = Double(trimmed), trimmed.contains("."), number.isFinite { return .double(number) }
        if trimmed == "true" { return .bool(true) }
        if trimmed == "false" { return .bool(false) }
        return .string(text)
    }

    /// The line each record starts on (the header is record 0), following quotes across lines.
    static func recordLines(_ text: String) -> [Int] {
        var lines = [1]
        var line = 1
        var quoted = false
        var atRecordStart = false
        for character in text {
            if atRecordStart, character != "\n", character != "\r\n" {
                lines.append(line)
                atRecordStart = false
            }
            if character == "\"" { quoted.toggle() }
            if character == "\n" || character == "\r\n" {
                line += 1
                if !quoted { atRecordStart = true }
            }
        }
        return lines
    }
}
