#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The highlighted blocks of earlier builds, in the build cache: one engine's answers by
/// (language, code). Two files, so that an edit reads and writes little whatever the site's size:
///
/// - `highlight.data`: the answers, one after the other, appended to by builds that lex blocks;
/// - `highlight.index`: each answer's key, offset and length, rewritten by every build that adds
///   answers (24 bytes an answer).
///
/// A build that maps every page (`complete`) writes the data again with the answers it used only.
/// Both files start with the engine's identity: another engine's answers are never read. A file
/// that is damaged or out of step with the other costs only speed (its answers are lexed again).
/// Not thread-safe: `CodeHighlighter` calls it under its lock.
final class HighlightCache {
    struct Key: Hashable {
        var high: UInt64, low: UInt64

        init(language: String, code: String) {
            var bytes = Data(language.utf8)
            bytes.append(0)
            bytes.append(contentsOf: code.utf8)
            let digest = SHA256.hash(bytes)
            high = digest[0..<8].reduce(0) { $0 << 8 | UInt64($1) }
            low = digest[8..<16].reduce(0) { $0 << 8 | UInt64($1) }
        }

        init(high: UInt64, low: UInt64) {
            self.high = high
            self.low = low
        }
    }

    private let dataPath: String
    private let indexPath: String
    private let identity: String
    /// Where each answer of the data file is; nil until read.
    private var index: [Key: (offset: UInt64, length: Int)]?
    private var data: Int32 = -1

    init(folder: String, identity: String) {
        dataPath = folder + "/highlight.data"
        indexPath = folder + "/highlight.index"
        self.identity = identity
    }

    deinit {
        if data >= 0 { close(data) }
    }

    private var dataHeader: [UInt8] { Array("tessera highlight data 1\n\(identity)\n".utf8) }
    private var indexHeader: [UInt8] { Array("tessera highlight index 1\n\(identity)\n".utf8) }

    /// Whether an answer is kept for `key`.
    func contains(_ key: Key) -> Bool {
        if index == nil { index = readIndex() }
        return index?[key] != nil
    }

    /// The answer kept for `key`, as `HighlightAnswer.encoded` wrote it.
    func answer(for key: Key) -> [UInt8]? {
        if index == nil { index = readIndex() }
        guard let place = index?[key], data >= 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: place.length)
        let read = bytes.withUnsafeMutableBytes { pread(data, $0.baseAddress, place.length, off_t(place.offset)) }
        return read == place.length ? bytes : nil
    }

    /// The index, when both files hold this engine's answers and the data file holds every
    /// answer the index places.
    private func readIndex() -> [Key: (offset: UInt64, length: Int)] {
        guard let bytes = FileManager.default.contents(atPath: indexPath).map([UInt8].init), bytes.starts(with: indexHeader) else { return [:] }
        let descriptor = open(dataPath, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return [:] }
        var info = stat()
        var header = [UInt8](repeating: 0, count: dataHeader.count)
        let headerRead = header.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard fstat(descriptor, &info) == 0, headerRead == header.count, header == dataHeader else {
            close(descriptor)
            return [:]
        }
        var entries: [Key: (offset: UInt64, length: Int)] = [:]
        var offset = indexHeader.count
        entries.reserveCapacity((bytes.count - offset) / 28)
        func number(_ width: Int) -> UInt64 {
            defer { offset += width }
            return bytes[offset..<(offset + width)].reduce(0) { $0 << 8 | UInt64($1) }
        }
        while offset + 28 <= bytes.count {
            let key = Key(high: number(8), low: number(8))
            let place = (offset: number(8), length: Int(number(4)))
            guard place.offset + UInt64(place.length) <= UInt64(info.st_size) else {
                close(descriptor)
                return [:]
            }
            entries[key] = place
        }
        data = descriptor
        return entries
    }

    /// Adds this build's new answers (`made`); a `complete` build keeps only the answers it `used`.
    func save(made: [Key: [UInt8]], used: Set<Key>, complete: Bool) {
        if index == nil { index = readIndex() }
        let old = index ?? [:]
        let unused = complete && old.keys.contains { !used.contains($0) }
        guard !made.isEmpty || unused else { return }
        try? FileManager.default.createDirectory(atPath: (dataPath as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        var entries: [Key: (offset: UInt64, length: Int)] = [:]
        if unused || old.isEmpty || data < 0 {
            // The data file anew: the answers still used, then the new ones.
            var out = dataHeader
            func add(_ key: Key, _ bytes: [UInt8]) {
                entries[key] = (UInt64(out.count), bytes.count)
                out += bytes
            }
            for key in old.keys where made[key] == nil && (!complete || used.contains(key)) {
                if let bytes = answer(for: key) { add(key, bytes) }
            }
            for (key, bytes) in made { add(key, bytes) }
            guard Self.replace(dataPath, with: out) else { return }
        } else {
            // Appended: what the index places stays where it is.
            entries = old
            let descriptor = open(dataPath, O_WRONLY | O_APPEND | O_CLOEXEC)
            guard descriptor >= 0 else { return }
            defer { close(descriptor) }
            var end = UInt64(lseek(descriptor, 0, SEEK_END))
            var out: [UInt8] = []
            for (key, bytes) in made {
                entries[key] = (end + UInt64(out.count), bytes.count)
                out += bytes
            }
            let written = out.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            guard written == out.count else { return }
            end += UInt64(written)
        }
        var out = indexHeader
        out.reserveCapacity(out.count + entries.count * 28)
        func append(_ value: UInt64, _ width: Int) {
            for shift in stride(from: (width - 1) * 8, through: 0, by: -8) { out.append(UInt8(truncatingIfNeeded: value >> UInt64(shift))) }
        }
        for (key, place) in entries {
            append(key.high, 8)
            append(key.low, 8)
            append(place.offset, 8)
            append(UInt64(place.length), 4)
        }
        _ = Self.replace(indexPath, with: out)
        index = nil
        if data >= 0 { close(data) }
        data = -1
    }

    /// Writes `bytes` to `path` through a file beside it renamed over it.
    private static func replace(_ path: String, with bytes: [UInt8]) -> Bool {
        let temporary = path + ".\(getpid()).tmp"
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: temporary))
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown) }
            return true
        } catch {
            unlink(temporary)
            return false
        }
    }
}
