#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The build record's text form: where it lives, its escaping, and reading it back part by part.
extension BuildManifest {
    static func path(in cacheDirectory: String, output: String) -> String {
        var digest = StableDigest()
        digest.combine(output)
        return cacheDirectory + "/build-" + String(digest.value, radix: 16) + ".manifest"
    }

    /// The text form: a header, then one tab-separated record per line. Nil for a file of another
    /// format or version, or one that does not parse (a cache is only ever a shortcut).
    static func read(_ path: String) -> BuildManifest? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let parts = parts(of: data)
        guard let inputs = parse(data, lines: parts.inputs, header: true), let outputs = parse(data, lines: parts.outputs, header: false),
              let pages = parse(data, lines: parts.pages, header: false, last: true) else { return nil }
        return inputs.with(outputsOf: outputs).with(pagesOf: pages)
    }

    /// The three parts of the text: what the inputs were, what the output folder holds (read
    /// while the inputs are checked, for the output folder's walk) and the pages (read only
    /// when pages are to be kept or the record written again).
    static func parts(of data: Data) -> (inputs: Range<Int>, outputs: Range<Int>, pages: Range<Int>) {
        func start(_ marker: String, from: Int) -> Int {
            let line = Array("\(marker)\n".utf8)
            return data.withUnsafeBytes { raw in
                // Line by line: `memchr` finds each line end.
                var index = from
                while index < raw.count, let found = memchr(raw.baseAddress! + index, 0x0A, raw.count - index) {
                    let next = raw.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
                    if next + line.count <= raw.count, memcmp(raw.baseAddress! + next, line, line.count) == 0 { return next }
                    index = next
                }
                return data.count
            }
        }
        let outputs = start("outputs", from: 0)
        let pages = start("pages", from: outputs)
        return (0..<outputs, outputs..<pages, pages..<data.count)
    }

    /// `self` with the output records (files and folders) of `part`.
    func with(outputsOf part: BuildManifest) -> BuildManifest {
        var manifest = self
        manifest.files = part.files
        manifest.outputFolders = part.outputFolders
        return manifest
    }

    /// `self` with the page records of `part`.
    func with(pagesOf part: BuildManifest) -> BuildManifest {
        var manifest = self
        manifest.pages = part.pages
        return manifest
    }

    /// The records of the lines in `range`: the first part of a manifest begins with its header,
    /// the others with their name (`outputs`, `pages`), and the last one ends with `end`. Nil
    /// when a line does not parse or the last part has no end.
    static func parse(_ data: Data, lines range: Range<Int>, header: Bool, last: Bool = false) -> BuildManifest? {
        // Read as bytes: a large site's manifest has tens of thousands of lines.
        data.withUnsafeBytes { raw -> BuildManifest? in
            let bytes = raw.bindMemory(to: UInt8.self)
            var manifest = BuildManifest()
            // Room for every line of the part in the tables it fills: no table grows line by line.
            var lines = 0
            var scan = range.lowerBound
            while scan < range.upperBound, let found = memchr(raw.baseAddress! + scan, 0x0A, range.upperBound - scan) {
                lines += 1
                scan = raw.baseAddress!.distance(to: UnsafeRawPointer(found)) + 1
            }
            if header {
                manifest.inputs.reserveCapacity(lines)
            } else if last {
                manifest.pages.reserveCapacity(lines)
            } else {
                manifest.files.reserveCapacity(lines / 2 + 1)
                manifest.outputFolders.reserveCapacity(lines / 2 + 1)
            }
            var fields: [Range<Int>] = []
            func text(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            func path(_ range: Range<Int>) -> String {
                bytes[range].contains(UInt8(ascii: "%")) ? Self.unescape(Substring(text(range))) : text(range)
            }
            func integer(_ range: Range<Int>) -> Int? {
                var value = 0
                var index = range.lowerBound
                let negative = index < range.upperBound && bytes[index] == UInt8(ascii: "-")
                if negative { index += 1 }
                guard index < range.upperBound else { return nil }
                while index < range.upperBound {
                    let digit = Int(bytes[index]) - 48
                    guard digit >= 0 && digit <= 9 else { return nil }
                    value = value &* 10 &+ digit
                    index += 1
                }
                return negative ? -value : value
            }
            func hex(_ range: Range<Int>) -> UInt64? {
                guard !range.isEmpty, range.count <= 16 else { return nil }
                var value: UInt64 = 0
                for index in range {
                    let byte = bytes[index]
                    let digit: UInt8
                    switch byte {
                    case 48...57: digit = byte - 48
                    case 97...102: digit = byte - 87
                    default: return nil
                    }
                    value = value << 4 | UInt64(digit)
                }
                return value
            }
            func number(_ range: Range<Int>) -> Double? { Double(text(range)) }
            func record(_ at: Int) -> FileRecord? {
                guard let size = integer(fields[at]), let modified = integer(fields[at + 1]), let changed = integer(fields[at + 2]),
                      let inode = hex(fields[at + 3]), let digest = hex(fields[at + 4]), let structure = hex(fields[at + 5]) else { return nil }
                return FileRecord(size: size, modified: modified, changed: changed, inode: inode, digest: digest, structure: structure)
            }
            var lineStart = range.lowerBound
            var first = true
            var complete = !last
            while lineStart < range.upperBound {
                var lineEnd = lineStart
                while lineEnd < range.upperBound, bytes[lineEnd] != 0x0A { lineEnd += 1 }
                defer { lineStart = lineEnd + 1 }
                fields.removeAll(keepingCapacity: true)
                var fieldStart = lineStart
                for index in lineStart...lineEnd where index == lineEnd || bytes[index] == 0x09 {
                    fields.append(fieldStart..<index)
                    fieldStart = index + 1
                }
                if first {
                    let line = text(lineStart..<lineEnd)
                    guard header ? line == "tessera-build-cache\t\(format)\t\(Tessera.version)" : line == "outputs" || line == "pages" else { return nil }
                    first = false
                    continue
                }
                guard lineEnd > lineStart else { continue }
                switch (text(fields[0]), fields.count) {
                case ("input", 8):
                    guard let entry = record(2) else { return nil }
                    manifest.inputs[path(fields[1])] = entry
                case ("file", 8):
                    guard let entry = record(2) else { return nil }
                    manifest.files[path(fields[1])] = entry
                case ("folder", 6):
                    guard let inode = hex(fields[3]), let modified = integer(fields[4]), let changed = integer(fields[5]) else { return nil }
                    let stamp = FolderStamp(inode: inode, modified: modified, changed: changed)
                    switch text(fields[1]) {
                    case "in": manifest.inputFolders[path(fields[2])] = stamp
                    case "out": manifest.outputFolders[path(fields[2])] = stamp
                    default: return nil
                    }
                case ("page", 6):
                    let list = { (range: Range<Int>) -> [String] in
                        var items: [String] = []
                        var start = range.lowerBound
                        for index in range.lowerBound...range.upperBound where index == range.upperBound || bytes[index] == 0x20 {
                            if index > start { items.append(path(start..<index)) }
                            start = index + 1
                        }
                        return items
                    }
                    manifest.pages[path(fields[1])] = PageRecord(source: path(fields[2]), outputs: list(fields[3]), assets: list(fields[4]), html: text(fields[5]) == "1")
                case ("relative", 6):
                    guard let date = number(fields[1]) else { return nil }
                    manifest.relativeDates.append(RelativeDate(date: date, hasTime: text(fields[5]) == "1", locale: text(fields[2]), timeZone: text(fields[3]), text: path(fields[4])))
                case ("output", 2): manifest.output = path(fields[1])
                case ("environment", 2): manifest.environment = hex(fields[1]) ?? 0
                case ("highlight", 2): manifest.highlight = hex(fields[1])
                case ("structure", 2): manifest.structure = hex(fields[1]) ?? 0
                case ("buildDate", 2): manifest.buildDate = number(fields[1]) ?? .nan
                case ("readsBuildDate", 2): manifest.readsBuildDate = text(fields[1]) == "1"
                case ("published", 3):
                    manifest.publishedFrom = number(fields[1]) ?? .infinity
                    manifest.publishedUntil = number(fields[2]) ?? -.infinity
                case ("counts", 3):
                    manifest.builtPages = integer(fields[1]) ?? 0
                    manifest.builtFiles = integer(fields[2]) ?? 0
                case ("languages", 2):
                    for pair in text(fields[1]).split(separator: " ") {
                        let parts = pair.split(separator: "=")
                        guard parts.count == 2, let count = Int(parts[1]) else { return nil }
                        manifest.languagePages[String(parts[0])] = count
                    }
                case ("warnings", 2): manifest.warnings = integer(fields[1]) ?? 1
                case ("skipped", 5):
                    manifest.skippedDrafts = integer(fields[1]) ?? 0
                    manifest.skippedFuture = integer(fields[2]) ?? 0
                    manifest.skippedExpired = integer(fields[3]) ?? 0
                    manifest.staticFiles = integer(fields[4]) ?? 0
                case ("end", 1):
                    guard last else { return nil }
                    complete = true
                default: return nil
                }
            }
            return complete && !first ? manifest : nil
        }
    }

    /// Paths may hold spaces and tabs; `%`, tab, newline and space are percent-escaped.
    static func escape(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 == 0x25 || $0 == 0x09 || $0 == 0x0A || $0 == 0x20 || $0 == 0x0D }) else { return text }
        var out = ""
        for character in text.unicodeScalars {
            switch character {
            case "%": out += "%25"
            case "\t": out += "%09"
            case "\n": out += "%0A"
            case "\r": out += "%0D"
            case " ": out += "%20"
            default: out.unicodeScalars.append(character)
            }
        }
        return out
    }

    static func unescape(_ field: Substring) -> String {
        guard field.utf8.contains(UInt8(ascii: "%")) else { return String(field) }
        return String(field).removingPercentEncoding ?? String(field)
    }
}
