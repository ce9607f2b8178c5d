import Foundation

/// Pages as bytes: numbers as LEB128 (signed ones zigzagged), texts as their length and UTF-8,
/// optionals and enums behind a tag byte. A place in the page's own file (nearly all of them)
/// is stored without the file's path.
struct PageEncoder {
    /// Fields of `Page.Fields`, `ContentNode`, `PageSection`, `ComponentUse`, `PageQuery` and
    /// `MenuEntry` this encoding writes: a test compares them with the types, so a field added
    /// to one of them without being stored fails it. A `ContentNode`'s six are its value, its
    /// location, and the four that hold `textStart` and `textIndent`, which are stored.
    static let fieldCounts = [
        "Fields": 30, "ContentNode": 6, "Entry": 3, "SourceLocation": 3, "PageSection": 11, "ComponentUse": 6, "PageQuery": 19,
        "TermFilter": 2, "Match": 2, "MenuEntry": 9, "MenuMembership": 2, "Alias": 2, "Pagination": 6,
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
        optional(use.action) { $0.node($1) }
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
        optional(query.publish) { $0.int($1) }
        optional(query.termFilter) { encoder, filter in
            encoder.string(filter.key)
            encoder.list(filter.terms) { $0.string($1) }
        }
        optional(query.group) { $0.string($1.rawValue) }
        list(query.matches) { encoder, match in
            encoder.string(match.key)
            encoder.list(match.values) { $0.string($1) }
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
        list(section.layoutOptions) { $0.entry($1) }
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
            encoder.int(pagination.items)
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
        optional(fields.outputs) { $0.list($1) { $0.string($1) } }
    }

    mutating func pages(_ pages: [Page]) { list(pages) { $0.page($1) } }
}
