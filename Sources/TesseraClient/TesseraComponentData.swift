import Foundation

/// One component instance: a `type` the app may or may not know, its theme-defined `fields`,
/// and what to show instead when the app cannot render it (``fallback``).
public struct TesseraComponentData: Decodable, Sendable, Equatable, Identifiable {
    /// Stable across builds, so list diffing and analytics can rely on it.
    public let id: String
    public let type: String
    /// The component's schema version; an app that knows `type` only at a lower version must
    /// treat it as unknown (its fields may have changed meaning).
    public let version: Int
    /// The theme's fields, by name; read them with ``TesseraValue/text`` and friends.
    public let fields: [String: TesseraValue]
    /// Values the generator computed for display ("+12%", `trend: up`); empty when there are none.
    public let computed: [String: TesseraValue]
    public let action: TesseraAction?
    /// The action's URL, for clients that do not look at actions.
    public let url: String?
    public let fallback: TesseraFallback?
    public let accessibility: TesseraAccessibility?

    private enum CodingKeys: String, CodingKey {
        case id, type, version, fields, computed, action, url, fallback, accessibility
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        type = try c.decode(String.self, forKey: .type)
        version = try c.decodeIfPresent(Int.self, forKey: .version) ?? 1
        fields = try c.decodeIfPresent([String: TesseraValue].self, forKey: .fields) ?? [:]
        computed = try c.decodeIfPresent([String: TesseraValue].self, forKey: .computed) ?? [:]
        action = try c.decodeIfPresent(TesseraAction.self, forKey: .action)
        url = try c.decodeIfPresent(String.self, forKey: .url)
        fallback = try c.decodeIfPresent(TesseraFallback.self, forKey: .fallback)
        accessibility = try c.decodeIfPresent(TesseraAccessibility.self, forKey: .accessibility)
    }

    /// The components of an `items` field (a list of nested components), e.g. a carousel's cards;
    /// empty when the field is absent or not a list of components.
    public func components(in field: String) -> [TesseraComponentData] {
        guard let value = fields[field] else { return [] }
        return (try? value.decode(as: [TesseraComponentData].self)) ?? []
    }

    /// Where tapping the component should go, following the spec's rule for unknown action
    /// types: use the action's `url` if present, else the component's `url`.
    public var destination: String? { action?.url ?? url }
}

/// What to show when the app cannot render a component: nothing (`"hide"`) or another component,
/// which may have its own fallback.
public indirect enum TesseraFallback: Decodable, Sendable, Equatable {
    case hide
    case component(TesseraComponentData)

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        // Any string is read as "hide": a future keyword this client does not know should
        // degrade to showing nothing, never to failing the whole page.
        if (try? container.decode(String.self)) != nil {
            self = .hide
        } else {
            self = .component(try container.decode(TesseraComponentData.self))
        }
    }
}

/// What happens when the user taps a component.
public struct TesseraAction: Decodable, Sendable, Equatable {
    public let type: TesseraActionType
    public let url: String?
    /// The target page's id, when the action leads to a page of the site.
    public let page: String?
    /// The target page's JSON, so an app can open it natively instead of in a browser.
    public let json: String?
    /// For `share`: the title to share with the URL.
    public let title: String?
}

/// An action type. A struct rather than an enum so that types added by newer generators still
/// decode; an app switches on the ones it knows and falls back to ``TesseraAction/url``.
public struct TesseraActionType: RawRepresentable, Hashable, Sendable, Decodable, ExpressibleByStringLiteral {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public init(from decoder: any Decoder) throws { rawValue = try decoder.singleValueContainer().decode(String.self) }

    /// Go to `url`; `page` and `json` are set when it is a page of the site.
    public static let navigate: Self = "navigate"
    /// Open `url` outside the app (browser, other app).
    public static let openExternal: Self = "open-external"
    /// Share `url`, with an optional `title`.
    public static let share: Self = "share"

    /// Whether this client version knows the type; others use the action's `url`, if any.
    public var isKnown: Bool { [.navigate, .openExternal, .share].contains(self) }
}

/// What assistive technologies should say for the component as a whole.
public struct TesseraAccessibility: Decodable, Sendable, Equatable {
    /// A complete spoken label ("Learners this week: 1,280, up 12%"), to use instead of reading
    /// the cell's texts one by one.
    public let label: String?
}
