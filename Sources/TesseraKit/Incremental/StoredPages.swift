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
    static let format: UInt32 = 3
    private static let magic: [UInt8] = Array("TSPAGES".utf8)

    let path: String
    /// Everything parsing depends on besides the file (`use(key:digests:)`): entries stored under
    /// another key are not used.
    private var key: UInt64 = 0
    private var storedKey: UInt64?
    /// The digest the build's check found for a content file, by its path below `content/`.
    private var digests: @Sendable (String) -> UInt64? = { _ in nil }

    private struct Entry {
        var digest: UInt64
        /// The pages' bytes in the file, and their bodies'.
        var payload: Range<Int>
        var bodies: Range<Int>
        /// The entry's place in `order`.
        var index: Int
    }

    private var mapping: UnsafeRawBufferPointer?
    /// The bodies file the table reads, its generation, and how many of its bytes the table knows.
    private var bodiesMapping: UnsafeRawBufferPointer?
    private var bodiesGeneration: UInt64 = 0
    private var bodiesLength = 0
    private var entries: [String: Entry] = [:]
    /// Entries in the order of their pages' bytes, for copying runs of them.
    private var order: [(String, Entry)] = []
    /// Whether this build used each entry of `order` (each is looked up by one file only).
    private var usedFlags: UnsafeMutableBufferPointer<Bool> = .init(start: nil, count: 0)
    /// Opening the file, once `prepare()` asked for it.
    private let opening = Mutex<SideTask?>(nil)

    /// Pages parsed in this build, by content path, with the digest of the bytes parsed.
    private let fresh = Mutex<[String: (digest: UInt64, bytes: [UInt8], bodies: [UInt8])]>([:])

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
    private func ready() {
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
        fresh.withLock { $0[relative] = (digest, encoder.bytes, encoder.bodies) }
    }

    /// Writes the entries this build used or made, and only those (the pages of a file that
    /// is gone, changed or no longer parses are dropped). Nothing is written when the file
    /// already holds exactly those. New bodies go at the end of the bodies file, unless most of
    /// it would then be bodies no entry uses: the next generation holds the used ones alone.
    func save() {
        ready()
        let fresh = self.fresh.withLock { $0 }.sorted { $0.key < $1.key }
        // A used entry was not parsed again, so no path is in both.
        let kept = storedKey != key ? [] : order.filter { usedFlags[$0.1.index] }
        if fresh.isEmpty && kept.count == order.count { return }
        guard (try? BuildManifest.makeFolder(of: path)) != nil else { return }
        let keptBodies = kept.reduce(0) { $0 + $1.1.bodies.count }, freshBodies = fresh.reduce(0) { $0 + $1.value.bodies.count }
        // Appended to the last generation's file (from its real end: a save cut short may have
        // left bytes there), or a new generation.
        var generation = bodiesGeneration, appendAt = 0
        var appends = bodiesMapping != nil && storedKey == key
        if appends {
            var info = stat()
            appends = stat(bodiesPath(generation), &info) == 0 && Int(info.st_size) >= bodiesLength
            appendAt = Int(info.st_size)
            // Mostly bodies of files changed since: written anew.
            if appendAt + freshBodies > 2 * (keptBodies + freshBodies) + (1 << 20) { appends = false }
        }
        if !appends {
            generation = bodiesGeneration &+ 1
            appendAt = 0
        }
        let target = bodiesPath(generation)
        let bodiesDescriptor = Glibc.open(target, O_WRONLY | O_CREAT | O_CLOEXEC | (appends ? 0 : O_TRUNC), 0o644)
        guard bodiesDescriptor >= 0 else { return }
        var complete = lseek(bodiesDescriptor, off_t(appendAt), SEEK_SET) == off_t(appendAt)
        // Where each entry's bodies go: kept ones stay where they are when appending, else they
        // are copied first; new ones after.
        var end = appendAt
        var movedBodies: [Range<Int>] = []
        if !appends {
            movedBodies = kept.map { _, entry in
                defer { end += entry.bodies.count }
                return end..<(end + entry.bodies.count)
            }
            if let bodiesMapping, complete { complete = Self.write(runsOf: kept.map(\.1.bodies), in: bodiesMapping, to: bodiesDescriptor) }
        }
        let freshStart = fresh.map { _, entry in
            defer { end += entry.bodies.count }
            return end
        }
        if complete { complete = Self.write(fresh.lazy.map(\.value.bodies), to: bodiesDescriptor) }
        close(bodiesDescriptor)
        guard complete else { return }

        // The table, with each entry's bytes where they go: the kept ones first, in their order.
        var table = PageEncoder(sourcePath: "")
        var offset = 0
        func row(_ relative: String, _ digest: UInt64, _ length: Int, _ bodies: Range<Int>) {
            table.string(relative)
            table.fixed64(digest)
            table.fixed64(UInt64(offset))
            table.fixed32(UInt32(length))
            table.fixed64(UInt64(bodies.lowerBound))
            table.fixed32(UInt32(bodies.count))
            offset += length
        }
        for (position, (relative, entry)) in kept.enumerated() {
            row(relative, entry.digest, entry.payload.count, appends ? entry.bodies : movedBodies[position])
        }
        for (position, (relative, entry)) in fresh.enumerated() {
            row(relative, entry.digest, entry.bytes.count, freshStart[position]..<(freshStart[position] + entry.bodies.count))
        }
        var header = PageEncoder(sourcePath: "")
        header.bytes.append(contentsOf: Self.magic)
        header.fixed32(Self.format)
        header.fixed64(key)
        header.fixed64(generation)
        header.fixed64(UInt64(end))
        header.fixed32(UInt32(kept.count + fresh.count))
        header.fixed32(UInt32(table.bytes.count))
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        complete = FileTree.write(header.bytes, to: descriptor) && FileTree.write(table.bytes, to: descriptor)
        // Runs of kept entries go out straight from the old file.
        if let mapping, complete { complete = Self.write(runsOf: kept.map(\.1.payload), in: mapping, to: descriptor) }
        if complete { complete = Self.write(fresh.lazy.map(\.value.bytes), to: descriptor) }
        close(descriptor)
        guard complete, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        // The last generation's bodies, once no table reads them.
        if generation != bodiesGeneration { unlink(bodiesPath(bodiesGeneration)) }
    }

    /// Writes the bytes of `ranges` of `mapping`, in order, neighbours in one write.
    private static func write(runsOf ranges: [Range<Int>], in mapping: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var run: Range<Int>?
        for range in ranges {
            if let current = run, current.upperBound == range.lowerBound {
                run = current.lowerBound..<range.upperBound
                continue
            }
            if let current = run, !FileTree.write(UnsafeRawBufferPointer(rebasing: mapping[current]), to: descriptor) { return false }
            run = range
        }
        return run.map { FileTree.write(UnsafeRawBufferPointer(rebasing: mapping[$0]), to: descriptor) } ?? true
    }

    /// Writes `chunks` one after another, gathered into writes of about a megabyte.
    private static func write<Chunks: Sequence<[UInt8]>>(_ chunks: Chunks, to descriptor: Int32) -> Bool {
        var batch: [UInt8] = []
        for chunk in chunks {
            batch.append(contentsOf: chunk)
            if batch.count > 1 << 20 {
                guard FileTree.write(batch, to: descriptor) else { return false }
                batch.removeAll(keepingCapacity: true)
            }
        }
        return FileTree.write(batch, to: descriptor)
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

// MARK: - Encoding

/// Pages as bytes: numbers as LEB128 (signed ones zigzagged), texts as their length and UTF-8,
/// optionals and enums behind a tag byte. A place in the page's own file (nearly all of them)
/// is stored without the file's path.
struct PageEncoder {
    /// Fields of `Page.Fields`, `ContentNode`, `PageSection`, `ComponentUse`, `PageQuery` and
    /// `MenuEntry` this encoding writes: a test compares them with the types, so a field added
    /// to one of them without being stored fails it.
    static let fieldCounts = [
        "Fields": 31, "ContentNode": 4, "Entry": 3, "SourceLocation": 3, "PageSection": 10, "ComponentUse": 5, "PageQuery": 16,
        "TermFilter": 2, "MenuEntry": 9, "MenuMembership": 2, "Alias": 2, "Pagination": 5,
    ]

    var bytes: [UInt8] = []
    /// The pages' bodies, apart: a page's bytes hold where its body is in these.
    var bodies: [UInt8] = []
    let sourcePath: String

    init(sourcePath: String) {
        self.sourcePath = sourcePath
        bytes.reserveCapacity(4096)
    }

    mutating func fixed32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func fixed64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }

    mutating func unsigned(_ value: UInt64) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    mutating func int(_ value: Int) { unsigned(UInt64(bitPattern: Int64((value << 1) ^ (value >> 63)))) }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }
    mutating func double(_ value: Double) { fixed64(value.bitPattern) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in
            unsigned(UInt64(utf8.count))
            bytes.append(contentsOf: utf8)
        }
    }

    mutating func optional<T>(_ value: T?, _ encode: (inout PageEncoder, T) -> Void) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        encode(&self, value)
    }

    mutating func list<T>(_ values: [T], _ encode: (inout PageEncoder, T) -> Void) {
        unsigned(UInt64(values.count))
        for value in values { encode(&self, value) }
    }

    mutating func location(_ location: SourceLocation) {
        if location.file == sourcePath {
            bytes.append(0)
        } else {
            bytes.append(1)
            string(location.file)
        }
        int(location.line)
        int(location.column)
    }

    mutating func node(_ node: ContentNode) {
        switch node.value {
        case .null: bytes.append(0)
        case .bool(let value): bytes.append(1); bool(value)
        case .int(let value): bytes.append(2); int(value)
        case .double(let value): bytes.append(3); double(value)
        case .string(let value): bytes.append(4); string(value)
        case .timestamp(let value): bytes.append(5); string(value)
        case .list(let items): bytes.append(6); list(items) { $0.node($1) }
        case .map(let entries): bytes.append(7); list(entries) { $0.entry($1) }
        }
        location(node.location)
        optional(node.textStart) { $0.location($1) }
        int(node.textIndent)
    }

    mutating func entry(_ entry: ContentNode.Entry) {
        string(entry.key)
        location(entry.keyLocation)
        node(entry.value)
    }

    mutating func component(_ use: ComponentUse) {
        string(use.code)
        location(use.codeLocation)
        list(use.fields) { $0.entry($1) }
        location(use.location)
        optional(use.id) { $0.string($1) }
    }

    mutating func query(_ query: PageQuery) {
        optional(query.under) { $0.string($1) }
        optional(query.data) { $0.string($1) }
        bool(query.recursive)
        list(query.tags) { $0.string($1) }
        optional(query.language) { $0.string($1) }
        string(query.sortKey)
        bool(query.sortGiven)
        string(query.order.rawValue)
        optional(query.limit) { $0.int($1) }
        optional(query.paginate) { $0.int($1) }
        optional(query.paginateLocation) { $0.location($1) }
        optional(query.termFilter) { encoder, filter in
            encoder.string(filter.key)
            encoder.list(filter.terms) { $0.string($1) }
        }
        string(query.component)
        location(query.componentLocation)
        list(query.fields) { $0.entry($1) }
        location(query.location)
    }

    mutating func section(_ section: PageSection) {
        optional(section.id) { $0.string($1) }
        string(section.layout)
        location(section.layoutLocation)
        optional(section.header) { $0.component($1) }
        list(section.items) { $0.component($1) }
        optional(section.footer) { $0.component($1) }
        optional(section.examples) { $0.list($1) { $0.string($1) } }
        optional(section.examplesLocation) { $0.location($1) }
        optional(section.query) { $0.query($1) }
        location(section.location)
    }

    mutating func menuEntry(_ entry: MenuEntry) {
        list(entry.titles.sorted { $0.key < $1.key }) { encoder, title in
            encoder.string(title.key)
            encoder.string(title.value)
        }
        optional(entry.link) { $0.string($1) }
        int(entry.weight)
        optional(entry.parent) { $0.string($1) }
        string(entry.identifier)
        optional(entry.icon) { $0.string($1) }
        list(entry.children) { $0.menuEntry($1) }
        optional(entry.language) { $0.string($1) }
        location(entry.location)
    }

    mutating func page(_ page: Page) {
        let fields = page.fields
        location(SourceLocation(file: fields.sourcePath))
        string(fields.relativePath)
        string(fields.kind.rawValue)
        string(fields.url)
        optional(fields.title) { $0.string($1) }
        optional(fields.date) { $0.double($1.timeIntervalSinceReferenceDate) }
        bool(fields.dateHasTime)
        bool(fields.draft)
        optional(fields.expires) { $0.double($1.timeIntervalSinceReferenceDate) }
        list(fields.aliases) { encoder, alias in
            encoder.string(alias.url)
            encoder.location(alias.location)
        }
        optional(fields.slug) { $0.string($1) }
        string(fields.layout)
        location(fields.layoutLocation)
        bool(fields.layoutIsExplicit)
        bool(fields.isGenerated)
        optional(fields.pagination) { encoder, pagination in
            encoder.int(pagination.number)
            encoder.int(pagination.total)
            encoder.string(pagination.firstURL)
            encoder.int(pagination.section)
            encoder.int(pagination.size)
        }
        string(fields.language)
        string(fields.translationKey)
        list(fields.tags) { $0.string($1) }
        list(fields.menus) { encoder, membership in
            encoder.string(membership.menu)
            encoder.menuEntry(membership.entry)
        }
        list(fields.feeds) { $0.string($1.rawValue) }
        optional(fields.feedsLocation) { $0.location($1) }
        optional(fields.summary) { $0.string($1) }
        list(fields.frontMatter) { $0.entry($1) }
        list(fields.params) { $0.entry($1) }
        list(fields.sections) { $0.section($1) }
        var body = fields.body.text
        body.withUTF8 { utf8 in
            unsigned(UInt64(bodies.count))
            unsigned(UInt64(utf8.count))
            bodies.append(contentsOf: utf8)
        }
        int(fields.bodyLine)
        bool(fields.countsBodyWords)
        optional(fields.excerpt) { $0.string($1) }
        optional(fields.outputs) { $0.list($1) { $0.string($1) } }
    }

    mutating func pages(_ pages: [Page]) { list(pages) { $0.page($1) } }
}

// MARK: - Decoding

/// Reads what `PageEncoder` wrote; any byte out of place throws (the entry is then parsed again).
struct PageDecoder {
    struct Malformed: Error {}

    private let base: UnsafeRawBufferPointer
    /// What `PageEncoder.bodies` held.
    private let bodies: UnsafeRawBufferPointer
    private(set) var offset = 0
    /// The file of places stored without one.
    let sourcePath: String
    /// The stored pages `base` is part of: bodies are then left where they are until read.
    let owner: StoredPages?

    init(_ bytes: UnsafeRawBufferPointer, bodies: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0), sourcePath: String, owner: StoredPages? = nil) {
        base = bytes
        self.bodies = bodies
        self.sourcePath = sourcePath
        self.owner = owner
    }

    var atEnd: Bool { offset == base.count }

    mutating func skip(_ count: Int) throws {
        guard count >= 0, count <= base.count - offset else { throw Malformed() }
        offset += count
    }

    mutating func bytes(_ count: Int) throws -> UnsafeRawBufferPointer {
        let start = offset
        try skip(count)
        return UnsafeRawBufferPointer(rebasing: base[start..<offset])
    }

    mutating func byte() throws -> UInt8 {
        guard offset < base.count else { throw Malformed() }
        defer { offset += 1 }
        return base[offset]
    }

    mutating func fixed32() throws -> UInt32 { UInt32(littleEndian: try bytes(4).loadUnaligned(as: UInt32.self)) }
    mutating func fixed64() throws -> UInt64 { UInt64(littleEndian: try bytes(8).loadUnaligned(as: UInt64.self)) }

    mutating func unsigned() throws -> UInt64 {
        // Most numbers (lengths, lines, columns, counts) take one byte.
        guard offset < base.count else { throw Malformed() }
        if base[offset] < 0x80 {
            offset += 1
            return UInt64(base[offset - 1])
        }
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            let byte = try byte()
            guard shift < 64 else { throw Malformed() }
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value }
            shift += 7
        }
    }

    mutating func int() throws -> Int {
        let raw = try unsigned()
        return Int(Int64(bitPattern: (raw >> 1) ^ (0 &- (raw & 1))))
    }

    mutating func count() throws -> Int {
        let value = try unsigned()
        guard value <= UInt64(base.count - offset) else { throw Malformed() }
        return Int(value)
    }

    mutating func bool() throws -> Bool {
        switch try byte() {
        case 0: return false
        case 1: return true
        default: throw Malformed()
        }
    }

    mutating func double() throws -> Double { Double(bitPattern: try fixed64()) }

    /// Texts were written from `String`s, so they are valid UTF-8 (a damaged byte would read as
    /// U+FFFD, as with any damaged cache entry, of which the digests catch the rest).
    mutating func string() throws -> String {
        let utf8 = try bytes(try count())
        return String(decoding: utf8.bindMemory(to: UInt8.self), as: UTF8.self)
    }

    @inline(__always)
    mutating func optional<T>(_ decode: (inout PageDecoder) throws -> T) throws -> T? {
        try bool() ? try decode(&self) : nil
    }

    @inline(__always)
    mutating func list<T>(_ decode: (inout PageDecoder) throws -> T) throws -> [T] {
        let count = try count()
        var items: [T] = []
        items.reserveCapacity(count)
        for _ in 0..<count { items.append(try decode(&self)) }
        return items
    }

    mutating func raw<T: RawRepresentable>(_ type: T.Type) throws -> T where T.RawValue == String {
        guard let value = T(rawValue: try string()) else { throw Malformed() }
        return value
    }

    mutating func location() throws -> SourceLocation {
        let file = try bool() ? try string() : sourcePath
        return SourceLocation(file: file, line: try int(), column: try int())
    }

    mutating func node() throws -> ContentNode {
        let value: ContentNode.Value
        switch try byte() {
        case 0: value = .null
        case 1: value = .bool(try bool())
        case 2: value = .int(try int())
        case 3: value = .double(try double())
        case 4: value = .string(try string())
        case 5: value = .timestamp(try string())
        case 6: value = .list(try list { try $0.node() })
        case 7: value = .map(try list { try $0.entry() })
        default: throw Malformed()
        }
        var node = ContentNode(value, at: try location())
        node.textStart = try optional { try $0.location() }
        node.textIndent = try int()
        return node
    }

    mutating func entry() throws -> ContentNode.Entry {
        ContentNode.Entry(key: try string(), keyLocation: try location(), value: try node())
    }

    mutating func component() throws -> ComponentUse {
        ComponentUse(
            code: try string(), codeLocation: try location(), fields: try list { try $0.entry() },
            location: try location(), id: try optional { try $0.string() })
    }

    mutating func query() throws -> PageQuery {
        let under = try optional { try $0.string() }
        let data = try optional { try $0.string() }
        let recursive = try bool()
        let tags = try list { try $0.string() }
        let language = try optional { try $0.string() }
        let sortKey = try string()
        let sortGiven = try bool()
        let order = try raw(PageQuery.Order.self)
        let limit = try optional { try $0.int() }
        let paginate = try optional { try $0.int() }
        let paginateLocation = try optional { try $0.location() }
        let termFilter = try optional { PageQuery.TermFilter(key: try $0.string(), terms: try $0.list { try $0.string() }) }
        return PageQuery(
            under: under, data: data, recursive: recursive, tags: tags, language: language, sortKey: sortKey,
            sortGiven: sortGiven, order: order, limit: limit, paginate: paginate, paginateLocation: paginateLocation,
            termFilter: termFilter, component: try string(), componentLocation: try location(),
            fields: try list { try $0.entry() }, location: try location())
    }

    mutating func section() throws -> PageSection {
        PageSection(
            id: try optional { try $0.string() }, layout: try string(), layoutLocation: try location(),
            header: try optional { try $0.component() }, items: try list { try $0.component() },
            footer: try optional { try $0.component() }, examples: try optional { try $0.list { try $0.string() } },
            examplesLocation: try optional { try $0.location() }, query: try optional { try $0.query() },
            location: try location())
    }

    mutating func menuEntry() throws -> MenuEntry {
        var titles: [String: String] = [:]
        for (key, value) in try list({ (try $0.string(), try $0.string()) }) { titles[key] = value }
        return MenuEntry(
            titles: titles, link: try optional { try $0.string() }, weight: try int(), parent: try optional { try $0.string() },
            identifier: try string(), icon: try optional { try $0.string() }, children: try list { try $0.menuEntry() },
            language: try optional { try $0.string() }, location: try location())
    }

    mutating func page() throws -> Page {
        let sourcePath = try location().file
        let relativePath = try string()
        let kind = try raw(Page.Kind.self)
        let url = try string()
        let title = try optional { try $0.string() }
        let date = try optional { Date(timeIntervalSinceReferenceDate: try $0.double()) }
        let dateHasTime = try bool()
        let draft = try bool()
        let expires = try optional { Date(timeIntervalSinceReferenceDate: try $0.double()) }
        let aliases = try list { Page.Alias(url: try $0.string(), location: try $0.location()) }
        let slug = try optional { try $0.string() }
        let layout = try string()
        let layoutLocation = try location()
        let layoutIsExplicit = try bool()
        let isGenerated = try bool()
        let pagination = try optional {
            Page.Pagination(number: try $0.int(), total: try $0.int(), firstURL: try $0.string(), section: try $0.int(), size: try $0.int())
        }
        let language = try string()
        let translationKey = try string()
        let tags = try list { try $0.string() }
        let menus = try list { Page.MenuMembership(menu: try $0.string(), entry: try $0.menuEntry()) }
        let feeds = try list { try $0.raw(FeedFormat.self) }
        let feedsLocation = try optional { try $0.location() }
        let summary = try optional { try $0.string() }
        let frontMatter = try list { try $0.entry() }
        let params = try list { try $0.entry() }
        let sections = try list { try $0.section() }
        guard let bodyStart = Int(exactly: try unsigned()), let bodyLength = Int(exactly: try unsigned()),
              bodyStart <= bodies.count, bodyLength <= bodies.count - bodyStart else { throw Malformed() }
        let bodyBytes = UnsafeRawBufferPointer(rebasing: bodies[bodyStart..<(bodyStart + bodyLength)])
        let body: Page.Body
        if let owner {
            body = Page.Body(stored: StoredText(owner: owner, bytes: bodyBytes))
        } else {
            body = Page.Body(String(decoding: bodyBytes.bindMemory(to: UInt8.self), as: UTF8.self))
        }
        let bodyLine = try int()
        let countsBodyWords = try bool()
        let excerpt = try optional { try $0.string() }
        let outputs = try optional { try $0.list { try $0.string() } }
        return Page(fields: Page.Fields(
            sourcePath: sourcePath, relativePath: relativePath, kind: kind, url: url, title: title, date: date,
            dateHasTime: dateHasTime, draft: draft, expires: expires, aliases: aliases, slug: slug, layout: layout,
            layoutLocation: layoutLocation, layoutIsExplicit: layoutIsExplicit, isGenerated: isGenerated,
            pagination: pagination, language: language, translationKey: translationKey, tags: tags, menus: menus,
            feeds: feeds, feedsLocation: feedsLocation, summary: summary, frontMatter: frontMatter, params: params,
            sections: sections, body: body, bodyLine: bodyLine, countsBodyWords: countsBodyWords, excerpt: excerpt,
            outputs: outputs))
    }

    mutating func pages() throws -> [Page] { try list { try $0.page() } }
}
