import Foundation

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
        var use = ComponentUse(
            code: try string(), codeLocation: try location(), fields: try list { try $0.entry() },
            location: try location(), id: try optional { try $0.string() })
        use.action = try optional { try $0.node() }
        return use
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
        let publish = try optional { try $0.int() }
        let termFilter = try optional { PageQuery.TermFilter(key: try $0.string(), terms: try $0.list { try $0.string() }) }
        let group = try optional { try $0.string() }.flatMap(PageQuery.Grouping.init(rawValue:))
        let matches = try list { PageQuery.Match(key: try $0.string(), values: try $0.list { try $0.string() }) }
        var query = PageQuery(
            under: under, data: data, recursive: recursive, tags: tags, language: language, sortKey: sortKey,
            sortGiven: sortGiven, order: order, limit: limit, paginate: paginate, paginateLocation: paginateLocation,
            termFilter: termFilter, component: try string(), componentLocation: try location(),
            fields: try list { try $0.entry() }, location: try location())
        query.publish = publish
        query.matches = matches
        query.group = group
        return query
    }

    mutating func section() throws -> PageSection {
        let id = try optional { try $0.string() }, layout = try string(), layoutLocation = try location()
        let options = try list { try $0.entry() }
        var section = PageSection(
            id: id, layout: layout, layoutLocation: layoutLocation,
            header: try optional { try $0.component() }, items: try list { try $0.component() },
            footer: try optional { try $0.component() }, examples: try optional { try $0.list { try $0.string() } },
            examplesLocation: try optional { try $0.location() }, query: try optional { try $0.query() },
            location: try location())
        section.layoutOptions = options
        return section
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
            Page.Pagination(number: try $0.int(), total: try $0.int(), firstURL: try $0.string(), section: try $0.int(), size: try $0.int(), items: try $0.int())
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
        let outputs = try optional { try $0.list { try $0.string() } }
        return Page(fields: Page.Fields(
            sourcePath: sourcePath, relativePath: relativePath, kind: kind, url: url, title: title, date: date,
            dateHasTime: dateHasTime, draft: draft, expires: expires, aliases: aliases, slug: slug, layout: layout,
            layoutLocation: layoutLocation, layoutIsExplicit: layoutIsExplicit, isGenerated: isGenerated,
            pagination: pagination, language: language, translationKey: translationKey, tags: tags, menus: menus,
            feeds: feeds, feedsLocation: feedsLocation, summary: summary, frontMatter: frontMatter, params: params,
            sections: sections, body: body, bodyLine: bodyLine, countsBodyWords: countsBodyWords,
            outputs: outputs))
    }

    mutating func pages() throws -> [Page] { try list { try $0.page() } }
}
