import Foundation

/// A run of components laid out together: the unit a server-driven feed renders.
public struct TesseraSection: Decodable, Sendable, Equatable {
    /// Unique on the page: `id:` in the content, else `section-<n>`.
    public let id: String
    /// `list`, `grid`, `carousel` or a theme's own; an app maps unknown layouts to a list.
    public let layout: String
    /// The layout's parameters (`columns: 2`); empty when there are none.
    public let layoutOptions: [String: TesseraValue]
    public let header: TesseraComponentData?
    public let items: [TesseraComponentData]
    public let footer: TesseraComponentData?
    /// The section's own paged endpoint, for "show more" and infinite scrolling.
    public let more: TesseraMore?
    /// A grouped list (an archive by year): its items, in order, are runs of `count` under each
    /// title; empty when the list is not grouped.
    public let groups: [TesseraGroup]

    private enum CodingKeys: String, CodingKey { case id, layout, layoutOptions, header, items, footer, more, groups }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        layout = try c.decodeIfPresent(String.self, forKey: .layout) ?? "list"
        layoutOptions = try c.decodeIfPresent([String: TesseraValue].self, forKey: .layoutOptions) ?? [:]
        header = try c.decodeIfPresent(TesseraComponentData.self, forKey: .header)
        items = try c.decodeIfPresent([TesseraComponentData].self, forKey: .items) ?? []
        footer = try c.decodeIfPresent(TesseraComponentData.self, forKey: .footer)
        more = try c.decodeIfPresent(TesseraMore.self, forKey: .more)
        groups = try c.decodeIfPresent([TesseraGroup].self, forKey: .groups) ?? []
    }

    /// The items under each group's title, for an app that shows a grouped list with headings.
    public var groupedItems: [(title: String, items: [TesseraComponentData])] {
        var start = 0
        return groups.map { group in
            let end = min(start + group.count, items.count)
            defer { start = end }
            return (group.title, Array(items[min(start, end)..<end]))
        }
    }

    /// Header, items and footer in display order.
    public var components: [TesseraComponentData] { [header].compactMap { $0 } + items + [footer].compactMap { $0 } }
}

/// One group of a grouped list: its title ("2026") and how many of the items follow it.
public struct TesseraGroup: Decodable, Sendable, Equatable {
    public let title: String
    public let count: Int
}

/// Where a section continues: its first endpoint page and the item count over all pages.
public struct TesseraMore: Decodable, Sendable, Equatable {
    public let json: String
    public let total: Int?
}
