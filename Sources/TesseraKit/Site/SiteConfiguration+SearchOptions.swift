import Foundation

extension SiteConfiguration {
    /// `search:` of site.yml: the full-text index readers (and apps) search (`SearchIndex`).
    public struct SearchOptions: Sendable, Equatable {
        /// `search: false` writes no index.
        public var enabled = true
        /// Pages left out, by URL: `/legal/` (that page), `/drafts/*` (pages one level below),
        /// `/archive/**` (every page below).
        public var exclude: [String] = []
        /// `documents: true` also writes `api/search/<lang>.json`: every searched page's text,
        /// for an app's own index (SQLite FTS5, Core Spotlight).
        public var documents = false

        public init() {}

        static let names = ["enabled", "exclude", "documents"]

        mutating func read(_ node: ContentNode) throws {
            if let flag = node.bool {
                enabled = flag
                return
            }
            guard let entries = node.entries else {
                throw TesseraError("'search' must be true, false or a mapping, found \(node.kindDescription)", at: node.location, hint: "write `search: { exclude: [/legal/] }`, or `search: false` for no search")
            }
            for option in entries {
                switch option.key {
                case "enabled":
                    guard let flag = option.value.bool else { throw TesseraError("'search.enabled' must be true or false", at: option.value.location) }
                    enabled = flag
                case "documents":
                    guard let flag = option.value.bool else { throw TesseraError("'search.documents' must be true or false", at: option.value.location) }
                    documents = flag
                case "exclude":
                    let list = option.value.list ?? [option.value]
                    exclude = try list.map { item in
                        guard let pattern = item.scalarText, pattern.hasPrefix("/") else {
                            throw TesseraError("a pattern of 'search.exclude' must be a URL path of the site, such as /legal/ or /archive/**", at: item.location)
                        }
                        return pattern
                    }
                default:
                    throw TesseraError("unknown search option '\(option.key)'", at: option.keyLocation, hint: Suggestions.didYouMean(option.key, in: Self.names) ?? "the options are \(Self.names.joined(separator: ", "))")
                }
            }
        }

        /// Whether `url` (without the base path, `/blog/post/`) is left out.
        func excludes(_ url: String) -> Bool {
            exclude.contains { Self.matches(url, $0) }
        }

        /// `*` stands for one path segment or part of one, `**` for any number of segments.
        static func matches(_ url: String, _ pattern: String) -> Bool {
            let path = url.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            let parts = pattern.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
            func match(_ p: Int, _ s: Int) -> Bool {
                if p == parts.count { return s == path.count }
                if parts[p] == "**" { return (s...path.count).contains { match(p + 1, $0) } }
                guard s < path.count, segment(path[s], parts[p]) else { return false }
                return match(p + 1, s + 1)
            }
            return match(0, 0)
        }

        private static func segment(_ text: String, _ pattern: String) -> Bool {
            let pieces = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
            guard pieces.count > 1 else { return text == pattern }
            guard text.hasPrefix(pieces[0]), text.hasSuffix(pieces[pieces.count - 1]), text.count >= pieces[0].count + pieces[pieces.count - 1].count else { return false }
            var rest = Substring(text.dropFirst(pieces[0].count).dropLast(pieces[pieces.count - 1].count))
            for piece in pieces.dropFirst().dropLast() where !piece.isEmpty {
                guard let range = rest.range(of: piece) else { return false }
                rest = rest[range.upperBound...]
            }
            return true
        }
    }
}
