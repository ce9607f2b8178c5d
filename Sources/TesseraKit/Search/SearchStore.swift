#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The search documents of the last build into an output folder, kept in the build cache
/// beside its record (`build-<output digest>.search`): a build that keeps pages from the last
/// one indexes them from here, without mapping them again. A kept page whose document is not
/// here is made again (`IncrementalBuild.planReuse`). One store per output folder: a build into
/// another folder may be of other content (one file for the whole cache gave a kept page the
/// document of another folder's build of an edit).
///
/// A small binary file: a version, then per document its strings (each a length and UTF-8) and
/// numbers in a fixed order. A file of another version, or cut short, reads as empty.
enum SearchStore {
    private static let magic: UInt32 = 0x5453_4932 // "TSI2"

    static func path(in cacheDirectory: String, output: String) -> String {
        String(BuildManifest.path(in: cacheDirectory, output: output).dropLast(".manifest".count)) + ".search"
    }

    /// The one store of the whole cache that earlier releases wrote: removed by the next build
    /// that writes its own.
    static let sharedName = "search.documents"

    /// Written through a small buffer to a temporary file renamed over the old one: the
    /// documents of 100,000 pages are 87 MB, which the build's last step held twice before.
    /// The cache folder is made here when it is missing: a first build writes this on another
    /// core while its record is saved, and the record's save made the folder only sometimes
    /// first (without it, the next build found no documents and made every page again).
    static func write(_ documents: [SearchDocument], to path: String) {
        let temporary = path + ".tmp-" + UUID().uuidString
        func create() -> Int32 { open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644) }
        var descriptor = create()
        if descriptor < 0 && errno == ENOENT {
            try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            descriptor = create()
        }
        guard descriptor >= 0 else { return }
        var out = BufferedFile(descriptor: descriptor)
        func int(_ value: Int) {
            var value = UInt32(truncatingIfNeeded: value).littleEndian
            withUnsafeBytes(of: &value) { out.bytes += $0 }
        }
        func string(_ text: String) {
            let bytes = text.utf8
            int(bytes.count)
            out.bytes += bytes
        }
        func optional(_ text: String?) {
            if let text { out.bytes.append(1); string(text) } else { out.bytes.append(0) }
        }
        int(Int(magic))
        int(documents.count)
        for document in documents.sorted(by: { $0.url < $1.url }) {
            string(document.url)
            optional(document.json)
            string(document.language)
            string(document.title)
            string(document.section)
            optional(document.date)
            optional(document.dateText)
            int(document.tags.count)
            document.tags.forEach(string)
            string(document.summary)
            string(document.id)
            optional(document.text)
            int(document.length)
            int(document.terms.count)
            for (term, weight) in document.terms {
                string(term)
                int(weight)
            }
            out.flushIfFull()
        }
        out.flush()
        close(descriptor)
        if !out.written || rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// The store at a path, read on another core from when this is made: `documents` waits for
    /// it, or reads it itself if no thread has begun.
    final class Reading: @unchecked Sendable {
        private let read: SideResult<[String: SearchDocument]>

        init(_ path: String) {
            read = SideResult { SearchStore.read(path) }
        }

        var documents: [String: SearchDocument] { read.value }
    }

    /// The documents by URL; empty when there are none or the file is not one this version wrote.
    static func read(_ path: String) -> [String: SearchDocument] {
        guard let data = FileManager.default.contents(atPath: path) else { return [:] }
        return data.withUnsafeBytes { raw -> [String: SearchDocument] in
            let bytes = raw.bindMemory(to: UInt8.self)
            var position = 0
            var failed = false
            func int() -> Int {
                guard position + 4 <= bytes.count else { failed = true; return 0 }
                let value = UInt32(bytes[position]) | UInt32(bytes[position + 1]) << 8 | UInt32(bytes[position + 2]) << 16 | UInt32(bytes[position + 3]) << 24
                position += 4
                return Int(value)
            }
            func string() -> String {
                let count = int()
                guard !failed, count >= 0, position + count <= bytes.count else { failed = true; return "" }
                defer { position += count }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<(position + count)]), as: UTF8.self)
            }
            /// A count, never more than the bytes left could hold (a damaged file ends the read).
            func count() -> Int { min(int(), bytes.count - position) }
            func optional() -> String? {
                guard position < bytes.count else { failed = true; return nil }
                position += 1
                return bytes[position - 1] == 1 ? string() : nil
            }
            guard int() == Int(magic) else { return [:] }
            let total = count()
            var documents: [String: SearchDocument] = [:]
            documents.reserveCapacity(total)
            for _ in 0..<total where !failed {
                let url = string(), json = optional(), language = string(), title = string(), section = string()
                let date = optional(), dateText = optional()
                let tags = (0..<count()).map { _ in string() }
                let summary = string(), id = string(), text = optional(), length = int()
                // The terms as written, in their order: packed again as they are, byte for byte.
                let termCount = count()
                var packed: [UInt8] = [], ends: [UInt32] = [], weights: [UInt32] = []
                ends.reserveCapacity(termCount)
                weights.reserveCapacity(termCount)
                for _ in 0..<termCount where !failed {
                    let length = int()
                    guard !failed, position + length <= bytes.count, packed.count + length <= Int(UInt32.max) else { failed = true; break }
                    packed.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[position..<(position + length)]))
                    position += length
                    ends.append(UInt32(packed.count))
                    weights.append(UInt32(int()))
                }
                documents[url] = SearchDocument(
                    url: url, json: json, language: language, title: title, section: section, date: date, dateText: dateText,
                    tags: tags, summary: summary, id: id, text: text, terms: SearchDocument.SearchTerms(packed: packed, ends: ends, weights: weights),
                    length: length)
            }
            return failed ? [:] : documents
        }
    }
}
