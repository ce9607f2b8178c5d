#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writing the build record: its text, written through a small buffer to a temporary name and
/// renamed to its own.
extension BuildManifest {
    /// Writes to a temporary file and renames it, so a reader never sees half a manifest.
    /// Writes the record; `pagesText`, when given, is the page records' part as an earlier
    /// record wrote it for the same `pages`.
    func write(to path: String, pagesText: Data? = nil) throws {
        var out = "tessera-build-cache\t\(Self.format)\t\(tessera)\n"
        out += "output\t\(output)\nenvironment\t\(String(environment, radix: 16))\n"
        // Left out when unknown: such a record matches no build.
        if let highlight { out += "highlight\t\(String(highlight, radix: 16))\n" }
        out += "structure\t\(String(structure, radix: 16))\n"
        out += "buildDate\t\(buildDate)\nreadsBuildDate\t\(readsBuildDate ? 1 : 0)\npublished\t\(publishedFrom)\t\(publishedUntil)\n"
        out += "warnings\t\(warnings)\ncounts\t\(builtPages)\t\(builtFiles)\n"
        out += "languages\t" + languagePages.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ") + "\n"
        out += "skipped\t\(skippedDrafts)\t\(skippedFuture)\t\(skippedExpired)\t\(staticFiles)\n"
        for entry in relativeDates {
            out += "relative\t\(entry.date)\t\(entry.locale)\t\(entry.timeZone)\t\(Self.escape(entry.text))\t\(entry.hasTime ? 1 : 0)\n"
        }
        try Self.makeFolder(of: path)
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw OutputWriter.writeError("cannot save the build cache to", path) }
        // The many records go in as bytes (no interpolation, no sorting: a cache file is read
        // back into dictionaries, in any order), through a buffer of 1 MiB: the record of
        // 100,000 pages is 67 MB, which was made whole at the build's end, its peak of memory.
        var writer = RecordWriter(descriptor: descriptor)
        writer.text(out)
        for (key, record) in inputs { writer.line("input", key, record) }
        writer.folders("in", inputFolders)
        writer.text("outputs\n")
        for (key, record) in files { writer.line("file", key, record) }
        writer.folders("out", outputFolders)
        if let pagesText {
            writer.file.write(pagesText)
        } else {
            writer.text("pages\n")
            for (url, page) in pages { writer.page(url, page) }
            writer.text("end\n")
        }
        writer.file.flush()
        close(descriptor)
        guard writer.file.written, rename(temporary, path) == 0 else {
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
}

/// The lines of a build record, as bytes written to its file a mebibyte at a time.
private struct RecordWriter {
    var file: BufferedFile

    init(descriptor: Int32) {
        file = BufferedFile(descriptor: descriptor)
    }

    mutating func text(_ value: String) {
        var value = value
        value.withUTF8 { file.bytes.append(contentsOf: $0) }
    }

    /// Most paths need no escape: `escape` gives them back as they are.
    mutating func escaped(_ value: String) { text(BuildManifest.escape(value)) }

    /// Digits through a small buffer on the stack: a record line has five numbers, and tens of
    /// thousands of lines are written after every build.
    mutating func decimal(_ value: Int) {
        if value < 0 { file.bytes.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var start = 20
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            file.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start..<20]))
        }
    }

    mutating func hex(_ value: UInt64) {
        let count = max(1, (64 - value.leadingZeroBitCount + 3) / 4)
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            for index in 0..<count {
                let digit = UInt8(truncatingIfNeeded: value >> UInt64(4 * (count - 1 - index))) & 0xF
                buffer[index] = digit < 10 ? UInt8(ascii: "0") &+ digit : UInt8(ascii: "a") &+ digit &- 10
            }
            file.bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[0..<count]))
        }
    }

    mutating func field() { file.bytes.append(0x09) }
    mutating func end() {
        file.bytes.append(0x0A)
        file.flushIfFull()
    }

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
            if index > 0 { file.bytes.append(0x20) }
            escaped(item)
        }
    }

    mutating func page(_ url: String, _ page: BuildManifest.PageRecord) {
        text("page"); field(); escaped(url); field(); escaped(page.source); field(); list(page.outputs); field(); list(page.assets); field()
        file.bytes.append(page.html ? UInt8(ascii: "1") : UInt8(ascii: "0")); end()
    }
}
