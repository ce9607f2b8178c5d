#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A 64-bit digest of bytes for telling whether a file changed between two builds (not for
/// security: nobody gains anything by making two inputs collide here).
struct StableDigest {
    private(set) var value: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func combine(_ buffer: UnsafeRawBufferPointer) {
        var index = 0
        let count = buffer.count
        while index + 8 <= count {
            mix(buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(buffer[index]) << shift
            shift += 8
            index += 1
        }
        // The length keeps "ab" + "c" apart from "a" + "bc".
        mix(tail ^ (UInt64(count) << 56))
        mix(UInt64(count))
    }

    mutating func combine(_ data: Data) { data.withUnsafeBytes { combine($0) } }

    mutating func combine(_ string: String) {
        var string = string
        string.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    mutating func combine(_ number: UInt64) { mix(number) }

    private mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value = value &* 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 29
    }

    static func of(_ data: Data) -> UInt64 {
        var digest = StableDigest()
        digest.combine(data)
        return digest.value
    }
}

/// What the last successful build into an output folder was made of and what it wrote, so the
/// next `tessera build` redoes only what changed.
///
/// Kept in `.tessera/cache/` beside the site (that folder ignores itself in git and may be
/// deleted at any time; the next build is then a full one). Entries are compared on file
/// contents (a stat match short-cuts the read), the Tessera version and the cache format, so an
/// upgrade or an edit never reuses a stale result; the test suite checks that every incremental
/// build writes exactly what a full build writes.
struct BuildManifest: Equatable {
    static let format = 4

    /// A file the build read or wrote: what `stat` said and a digest of its bytes.
    struct FileRecord: Equatable {
        var size: Int
        var modified: Int
        /// The change time: set by the system at every write, rename or `chmod`, and by nobody
        /// else, so a file rewritten with its old size and modification time still shows it.
        var changed: Int = 0
        var inode: UInt64
        var digest: UInt64
        /// For content files: the digest of the front matter alone (other pages see it through
        /// links, menus, queries and taxonomies; the body only through lists, which are rebuilt).
        var structure: UInt64 = 0
    }

    /// A page whose output can be kept: its source, what it wrote and what its HTML linked.
    struct PageRecord: Equatable {
        var source: String
        var outputs: [String]
        var assets: [String]
        var html: Bool
    }

    /// A relative date the build printed, to check it would read the same at another build date.
    struct RelativeDate: Equatable {
        var date: Double
        var hasTime: Bool
        var locale: String
        var timeZone: String
        var text: String
    }

    var tessera = Tessera.version
    var output = ""
    var environment: UInt64 = 0
    var structure: UInt64 = 0
    var buildDate: Double = 0
    /// Templates print `site.buildDate`, or relative dates were not all recorded: another build
    /// date means a full build.
    var readsBuildDate = false
    /// The build dates between which the same pages are published (drafts aside): a later build
    /// date may publish a future page or retire an expired one.
    var publishedFrom: Double = -.infinity
    var publishedUntil: Double = .infinity
    var relativeDates: [RelativeDate] = []
    /// Content files by path relative to `content/`.
    var inputs: [String: FileRecord] = [:]
    /// Pages by URL.
    var pages: [String: PageRecord] = [:]
    /// Output files by path relative to the output folder.
    var files: [String: FileRecord] = [:]
    /// The folders the last check walked, so an unchanged one is not read again: input folders by
    /// path relative to the site, output folders relative to the output folder ("" for itself).
    var inputFolders: [String: FolderStamp] = [:]
    var outputFolders: [String: FolderStamp] = [:]
    var skippedDrafts = 0, skippedFuture = 0, skippedExpired = 0, staticFiles = 0
    /// Warnings the build printed: a build with warnings is never skipped, so they are printed again.
    var warnings = 0
    /// The summary's figures, for a build that had nothing to do.
    var builtPages = 0, builtFiles = 0
    /// Pages per language code, for the summary's line per language.
    var languagePages: [String: Int] = [:]

    // MARK: Reading and writing

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

    /// Writes to a temporary file and renames it, so a reader never sees half a manifest.
    /// Writes the record; `pagesText`, when given, is the page records' part as an earlier
    /// record wrote it for the same `pages`.
    func write(to path: String, pagesText: Data? = nil) throws {
        var out = "tessera-build-cache\t\(Self.format)\t\(tessera)\n"
        out += "output\t\(output)\nenvironment\t\(String(environment, radix: 16))\nstructure\t\(String(structure, radix: 16))\n"
        out += "buildDate\t\(buildDate)\nreadsBuildDate\t\(readsBuildDate ? 1 : 0)\npublished\t\(publishedFrom)\t\(publishedUntil)\n"
        out += "warnings\t\(warnings)\ncounts\t\(builtPages)\t\(builtFiles)\n"
        out += "languages\t" + languagePages.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "\n"
        out += "skipped\t\(skippedDrafts)\t\(skippedFuture)\t\(skippedExpired)\t\(staticFiles)\n"
        for entry in relativeDates {
            out += "relative\t\(entry.date)\t\(entry.locale)\t\(entry.timeZone)\t\(Self.escape(entry.text))\t\(entry.hasTime ? 1 : 0)\n"
        }
        // The many records go in as bytes (no interpolation, no sorting: a cache file is read
        // back into dictionaries, in any order), the three parts on both cores.
        let parts = ParallelMap.map([0, 1, 2]) { part -> [UInt8] in
            var writer = RecordWriter()
            switch part {
            case 0:
                writer.bytes.reserveCapacity(110 * (inputs.count + inputFolders.count))
                for (key, record) in inputs { writer.line("input", key, record) }
                writer.folders("in", inputFolders)
            case 1:
                writer.bytes.reserveCapacity(110 * (files.count + outputFolders.count))
                writer.text("outputs\n")
                for (key, record) in files { writer.line("file", key, record) }
                writer.folders("out", outputFolders)
            default:
                if let pagesText { return [UInt8](pagesText) }
                writer.bytes.reserveCapacity(110 * pages.count)
                writer.text("pages\n")
                for (url, page) in pages { writer.page(url, page) }
                writer.text("end\n")
            }
            return writer.bytes
        }
        try Self.makeFolder(of: path)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputWriter.writeError("cannot save the build cache to", path) }
        let written = FileTree.write(Array(out.utf8), to: descriptor) && parts.allSatisfy { FileTree.write($0, to: descriptor) }
        close(descriptor)
        guard written, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw OutputWriter.writeError("cannot save the build cache to", path)
        }
    }

    /// Creates the cache folder that holds `path`, with the rule that keeps it out of git.
    static func makeFolder(of path: String) throws {
        let folder = (path as NSString).deletingLastPathComponent
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        // The cache is never content: git ignores the folder by its own rule.
        let parent = (folder as NSString).deletingLastPathComponent
        if !FileManager.default.fileExists(atPath: parent + "/.gitignore") {
            try? "# Tessera's build cache: safe to delete, never commit it.\n*\n".write(toFile: parent + "/.gitignore", atomically: true, encoding: .utf8)
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

extension BuildManifest.FileRecord {
    /// What `stat` says of `path` now, with no digest; nil when it is not a regular file.
    static func current(_ path: String) -> BuildManifest.FileRecord? {
        guard let info = fileStatus(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        return from(info)
    }

    /// The record of what `stat` returned, with no digest.
    static func from(_ info: stat) -> BuildManifest.FileRecord {
        BuildManifest.FileRecord(
            size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
            changed: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec), inode: UInt64(info.st_ino), digest: 0)
    }

    /// Same file as far as `stat` can tell: nobody wrote it since.
    func sameStat(as other: BuildManifest.FileRecord) -> Bool {
        size == other.size && modified == other.modified && changed == other.changed && inode == other.inode
    }
}

/// `stat(2)` of `path` (following links), or nil.
private func fileStatus(_ path: String) -> stat? {
    var info = stat()
    return stat(path, &info) == 0 ? info : nil
}

/// The lines of a build record, as bytes.
private struct RecordWriter {
    var bytes: [UInt8] = []

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { bytes.append(contentsOf: $0) }
    }

    /// Most paths need no escape: `escape` gives them back as they are.
    mutating func escaped(_ value: String) { text(BuildManifest.escape(value)) }

    /// Digits through a small buffer on the stack: a record line has five numbers, and tens of
    /// thousands of lines are written after every build.
    mutating func decimal(_ value: Int) {
        if value < 0 { bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = 20
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
        }
    }

    mutating func hex(_ value: UInt64) {
        let count = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            for index in 0..<count {
                let digit = UInt8(truncatingIfNeeded: value >> UInt64(4 * (count - 1 - index))) & 0xF
                buffer[index] = digit < 10 ? UInt8(ascii: "0") &+ digit : UInt8(ascii: "a") &+ digit &- 10
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    mutating func field() { bytes.append(0x09) }
    mutating func end() { bytes.append(0x0A) }

    mutating func line(_ kind: String, _ key: String, _ record: BuildManifest.FileRecord) {
        text(kind); field(); escaped(key); field(); decimal(record.size); field(); decimal(record.modified); field()
        decimal(record.changed); field(); hex(record.inode); field(); hex(record.digest); field(); hex(record.structure); end()
    }

    mutating func folders(_ side: String, _ folders: [String: FolderStamp]) {
        for (key, stamp) in folders {
            text("folder\t"); text(side); field(); escaped(key); field(); hex(stamp.inode); field(); decimal(stamp.modified); field(); decimal(stamp.changed); end()
        }
    }

    mutating func list(_ items: [String]) {
        for (index, item) in items.enumerated() {
            if index > 0 { bytes.append(0x20) }
            escaped(item)
        }
    }

    mutating func page(_ url: String, _ page: BuildManifest.PageRecord) {
        text("page"); field(); escaped(url); field(); escaped(page.source); field(); list(page.outputs); field(); list(page.assets); field()
        bytes.append(page.html ? UInt8(ascii: "1") : UInt8(ascii: "0")); end()
    }
}
