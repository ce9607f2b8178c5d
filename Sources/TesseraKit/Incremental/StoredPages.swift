#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The pages an earlier build parsed, kept beside its build record: a build that finds a content
/// file unchanged decodes its pages from here instead of reading and parsing the file again.
///
/// Two files per output folder. `build-<digest>.pages`: a header (the format, a digest of
/// everything parsing depends on besides the file itself: the engine, the content folder, the
/// time zone, languages and permalinks, and which bodies file it reads), then one entry per
/// content file: its path, the digest of the bytes its pages were parsed from, and the pages.
/// Their bodies are in `build-<digest>.bodies-<generation>`: a build reads every kept page and
/// almost no body, so the pages lie together, and a build that parsed a few files again appends
/// their bodies there instead of copying every body into a new file; the file is written anew,
/// as the next generation, when most of it is bodies no entry uses any more. An entry is used
/// only when its digest is the one the build's check found for the file, so an entry can be
/// stale but never wrong. The pages file is written whole to a temporary name and renamed over
/// the old one, after the bodies it names are written: an interrupted save leaves the old files
/// in use (appended bodies are past the end the old table knows), or none.
final class StoredPages: @unchecked Sendable {
    /// 4: no `excerpt` (the summary is made from the body when front matter has none).
    /// 5: components' `action:`, sections' layout options, queries' `publish:`.
    static let format: UInt32 = 6
    static let magic: [UInt8] = Array("TSPAGES".utf8)

    let path: String
    /// Everything parsing depends on besides the file (`use(key:digests:)`): entries stored under
    /// another key are not used.
    private(set) var key: UInt64 = 0
    private(set) var storedKey: UInt64?
    /// The digest the build's check found for a content file, by its path below `content/`.
    private var digests: @Sendable (String) -> UInt64? = { _ in nil }

    struct Entry {
        var digest: UInt64
        /// The pages' bytes in the file, and their bodies'.
        var payload: Range<Int>
        var bodies: Range<Int>
        /// The entry's place in `order`.
        var index: Int
    }

    private(set) var mapping: UnsafeRawBufferPointer?
    /// The bodies file the table reads, its generation, and how many of its bytes the table knows.
    private(set) var bodiesMapping: UnsafeRawBufferPointer?
    private(set) var bodiesGeneration: UInt64 = 0
    private(set) var bodiesLength = 0
    private var entries: [String: Entry] = [:]
    /// Entries in the order of their pages' bytes, for copying runs of them.
    private(set) var order: [(String, Entry)] = []
    /// Whether this build used each entry of `order` (each is looked up by one file only).
    private(set) var usedFlags: UnsafeMutableBufferPointer<Bool> = .init(start: nil, count: 0)
    /// Opening the file, once `prepare()` asked for it.
    private let opening = Mutex<SideTask?>(nil)

    /// Pages parsed in this build, by content path, with the digest of the bytes parsed.
    let fresh = Mutex(FreshPages())

    /// Pages parsed in this build, kept until the save: their bytes and bodies one after another
    /// in slabs of 8 MiB. An allocation that large is mapped on its own (`M_MMAP_THRESHOLD`, 4 MiB)
    /// and given back whole when the save drops it; 200,000 small arrays (100,000 posts' bytes and
    /// bodies), freed, left holes in the heaps that the rendering then grew past.
    struct FreshPages: Sendable {
        static let slabSize = 8 << 20
        private var slabs: [[UInt8]] = []
        private(set) var entries: [String: Entry] = [:]

        struct Entry: Sendable {
            var digest: UInt64
            var slab: Int
            var bytes: Range<Int>
            var bodies: Range<Int>
        }

        mutating func add(_ relative: String, digest: UInt64, bytes: [UInt8], bodies: [UInt8]) {
            let size = bytes.count + bodies.count
            if slabs.last.map({ $0.capacity - $0.count < size }) ?? true {
                var slab: [UInt8] = []
                slab.reserveCapacity(max(Self.slabSize, size))
                slabs.append(slab)
            }
            let slab = slabs.count - 1, start = slabs[slab].count
            slabs[slab].append(contentsOf: bytes)
            slabs[slab].append(contentsOf: bodies)
            entries[relative] = Entry(digest: digest, slab: slab, bytes: start..<(start + bytes.count), bodies: (start + bytes.count)..<(start + size))
        }

        func bytes(of entry: Entry) -> ArraySlice<UInt8> { slabs[entry.slab][entry.bytes] }
        func bodies(of entry: Entry) -> ArraySlice<UInt8> { slabs[entry.slab][entry.bodies] }
    }

    init(path: String) {
        self.path = path
    }

    /// Starts opening the stored pages on another core; `pages(for:…)` opens them itself if that
    /// core has not begun yet (it may still be checking the output folder), or waits for it. The
    /// file begins with a table of its entries: opening it reads that table, and each page's
    /// bytes only when they are used.
    func prepare() {
        opening.withLock { task in
            if task == nil { task = SideTask { [self] in open() } }
        }
    }

    /// Returns once the file is open, if `prepare()` asked for it.
    func ready() {
        opening.withLock { $0 }?.wait()
    }

    deinit {
        for mapped in [mapping, bodiesMapping] {
            if let mapped, mapped.count > 0 { munmap(UnsafeMutableRawPointer(mutating: mapped.baseAddress), mapped.count) }
        }
        usedFlags.deallocate()
    }

    static func path(in cacheDirectory: String, output: String) -> String {
        String(BuildManifest.path(in: cacheDirectory, output: output).dropLast(".manifest".count)) + ".pages"
    }

    /// The bodies file of a generation.
    func bodiesPath(_ generation: UInt64) -> String {
        String(path.dropLast(".pages".count)) + ".bodies-" + String(generation, radix: 16)
    }

    /// `length` bytes of `path`, mapped; nil when the file is missing or shorter. Empty for 0.
    private static func map(_ path: String, length: Int? = nil, populate: Bool) -> UnsafeRawBufferPointer? {
        let descriptor = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let size = length ?? Int(info.st_size)
        guard size <= Int(info.st_size) else { return nil }
        guard size > 0 else { return UnsafeRawBufferPointer(start: nil, count: 0) }
        // Pages are read nearly whole: mapped in one call rather than a fault per memory page.
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), descriptor, 0), base != MAP_FAILED else { return nil }
        return UnsafeRawBufferPointer(start: base, count: size)
    }

    /// The key of pages parsed by `parser` from files below `directory`.
    static func key(parser: PageParser, directory: String) -> UInt64 {
        var digest = StableDigest()
        digest.combine(IncrementalBuild.engineIdentity)
        digest.combine(directory)
        digest.combine(parser.timeZone.identifier)
        digest.combine(String(reflecting: parser.languages))
        digest.combine(String(reflecting: parser.permalinks))
        digest.combine("summaryLength=\(parser.summaryLength)")
        digest.combine(String(reflecting: parser.markdown))
        return digest.value
    }

    /// Layout: `TSPAGES`, the format, the key, the bodies' generation and length, the number of
    /// entries and the table's length; the table (per entry: path, digest of the bytes parsed,
    /// offset and length of its pages' bytes after the table, then of its bodies in the bodies
    /// file); the pages' bytes.
    private func open() {
        guard let bytes = Self.map(path, populate: true), bytes.count > 0 else { return }
        mapping = bytes
        var reader = PageDecoder(bytes, sourcePath: "")
        do {
            guard try reader.bytes(Self.magic.count).elementsEqual(Self.magic), try reader.fixed32() == Self.format else { return }
            let key = try reader.fixed64()
            let generation = try reader.fixed64()
            // A damaged length is a damaged file, never a trap.
            guard let knownBodies = Int(exactly: try reader.fixed64()) else { return }
            let count = Int(try reader.fixed32())
            let tableEnd = reader.offset + 4 + Int(try reader.fixed32())
            guard tableEnd <= bytes.count, let bodies = Self.map(bodiesPath(generation), length: knownBodies, populate: false) else { return }
            bodiesMapping = bodies
            var index: [String: Entry] = [:]
            index.reserveCapacity(count)
            var order: [(String, Entry)] = []
            order.reserveCapacity(count)
            for position in 0..<count {
                let relative = try reader.string()
                let digest = try reader.fixed64()
                guard let offset = Int(exactly: try reader.fixed64()) else { return }
                let length = Int(try reader.fixed32())
                guard let bodyOffset = Int(exactly: try reader.fixed64()) else { return }
                let bodyLength = Int(try reader.fixed32())
                guard offset <= bytes.count - tableEnd, length <= bytes.count - tableEnd - offset,
                      bodyOffset <= knownBodies, bodyLength <= knownBodies - bodyOffset else { return }
                let entry = Entry(
                    digest: digest, payload: (tableEnd + offset)..<(tableEnd + offset + length),
                    bodies: bodyOffset..<(bodyOffset + bodyLength), index: position)
                index[relative] = entry
                order.append((relative, entry))
            }
            guard reader.offset == tableEnd else { return }
            entries = index
            self.order = order
            usedFlags = .allocate(capacity: count)
            usedFlags.initialize(repeating: false)
            bodiesGeneration = generation
            bodiesLength = knownBodies
            storedKey = key
        } catch {
            // A file cut short or of another make: nothing in it is used.
        }
    }

    /// Sets what this build parses with, before content is loaded.
    func use(key: UInt64, digests: @escaping @Sendable (String) -> UInt64?) {
        self.key = key
        self.digests = digests
    }

    /// The pages of the content file `relative` (below `content/`) when they were stored under
    /// this build's key from the bytes the check found in it; nil means: parse the file.
    func pages(for relative: String, sourcePath: String) -> [Page]? {
        ready()
        guard storedKey == key, let entry = entries[relative], let digest = digests(relative), entry.digest == digest,
              let mapping else { return nil }
        let bodies = entry.bodies.isEmpty ? UnsafeRawBufferPointer(start: nil, count: 0) : UnsafeRawBufferPointer(rebasing: bodiesMapping![entry.bodies])
        var reader = PageDecoder(UnsafeRawBufferPointer(rebasing: mapping[entry.payload]), bodies: bodies, sourcePath: sourcePath, owner: self)
        guard let pages = try? reader.pages(), reader.atEnd else { return nil }
        usedFlags[entry.index] = true
        return pages
    }

    /// How many content files' pages came from here in this build.
    var usedCount: Int {
        ready()
        return usedFlags.count { $0 }
    }

    /// Keeps the pages just parsed from the bytes with `digest`.
    func store(_ pages: [Page], for relative: String, digest: UInt64) {
        var encoder = PageEncoder(sourcePath: pages.first?.sourcePath ?? "")
        encoder.pages(pages)
        // Copied into the slabs at their size: the encoder's room (4 KB to start, doubling as it
        // grows) was half of what 100,000 posts' entries took.
        fresh.withLock { $0.add(relative, digest: digest, bytes: encoder.bytes, bodies: encoder.bodies) }
    }
}

/// Text left in the stored pages' file until it is read (`Page.Body`).
final class StoredText: @unchecked Sendable {
    /// Keeps the file mapped.
    private let owner: StoredPages
    private let bytes: UnsafeRawBufferPointer

    init(owner: StoredPages, bytes: UnsafeRawBufferPointer) {
        self.owner = owner
        self.bytes = bytes
    }

    /// Written from a `String`, so valid UTF-8.
    var text: String { String(decoding: bytes, as: UTF8.self) }
}
