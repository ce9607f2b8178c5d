import Foundation

/// A URL pattern for the pages of one content folder (`permalinks:` in site.yml):
/// `blog: /:year/:month/:slug/` writes `content/blog/hello.md`, dated 2026-11-05, at
/// `/2026/11/hello/`. Two pages that end up at one URL are an error naming both.
public struct Permalink: Sendable, Equatable {
    /// The folder below `content/`, without slashes at the ends.
    public var folder: String
    public var pattern: String
    public var location: SourceLocation

    static let tokens = [":year", ":month", ":day", ":slug", ":filename", ":section"]

    /// Checks the pattern's shape and tokens.
    init(folder: String, pattern: String, location: SourceLocation) throws {
        self.folder = folder.split(separator: "/").joined(separator: "/")
        self.pattern = pattern
        self.location = location
        guard pattern.hasPrefix("/"), pattern.hasSuffix("/"), !pattern.contains("//"),
              !pattern.split(separator: "/").contains(where: { $0 == ".." || $0 == "." }) else {
            throw TesseraError(
                "the permalink pattern '\(pattern)' must be a path that starts and ends with /", at: location,
                hint: "for example `\(folder): /:year/:month/:slug/`")
        }
        for segment in pattern.split(separator: "/") {
            for token in segment.split(separator: ":", omittingEmptySubsequences: true).dropFirst(segment.hasPrefix(":") ? 0 : 1) {
                let name = ":" + token.prefix { $0.isLetter }
                guard Self.tokens.contains(name) else {
                    throw TesseraError(
                        "unknown permalink token '\(name)' in '\(pattern)'", at: location,
                        hint: Suggestions.didYouMean(name, in: Self.tokens) ?? "the tokens are \(Self.tokens.joined(separator: ", "))")
                }
            }
        }
        guard pattern.contains(":slug") || pattern.contains(":filename") else {
            throw TesseraError(
                "the permalink pattern '\(pattern)' gives every page of \(folder)/ the same URL", at: location,
                hint: "include :slug or :filename, for example /:year/:slug/")
        }
    }

    /// Pages below the folder, but not the folder's own index (the list page keeps its URL).
    func applies(to relativePath: String) -> Bool {
        guard relativePath.hasPrefix(folder + "/") else { return false }
        let stem = PathText.deletingPathExtension(String(PathText.lastComponent(relativePath)))
        return !(stem == "index" || stem == "_index") || relativePath.dropFirst(folder.count + 1).contains("/")
    }

    /// The page's URL under this pattern, without the language prefix.
    func url(for page: Page, path: String) throws -> String {
        let stem = PathText.deletingPathExtension(String(PathText.lastComponent(path)))
        let file = stem == "index" || stem == "_index" ? ((path as NSString).deletingLastPathComponent as NSString).lastPathComponent : stem
        var url = pattern
        if url.contains(":year") || url.contains(":month") || url.contains(":day") {
            guard let date = page.date else {
                throw TesseraError(
                    "this page needs a date: its URL follows the pattern '\(pattern)' of \(folder)/", at: page.location,
                    hint: "add `date:` to the front matter")
            }
            // The UTC day, in the proleptic Gregorian calendar (a `Calendar` is Julian before 1582).
            let parts = CivilTime.unbounded(Int(date.timeIntervalSince1970.rounded(.down)))
            url = url.replacingOccurrences(of: ":year", with: String(format: "%04d", parts.year))
                .replacingOccurrences(of: ":month", with: String(format: "%02d", parts.month))
                .replacingOccurrences(of: ":day", with: String(format: "%02d", parts.day))
        }
        return url.replacingOccurrences(of: ":slug", with: page.slug ?? file)
            .replacingOccurrences(of: ":filename", with: file)
            .replacingOccurrences(of: ":section", with: folder.split(separator: "/").first.map(String.init) ?? folder)
    }
}
