import Foundation

/// Turns what content writes as a link target into a URL, and refuses internal targets that the
/// site does not have (the router of seed 000, checked at build time).
///
/// Accepted forms: an external URL (`https://…`, `mailto:…`), a site path (`/courses/swift/`),
/// a path relative to the page (`../other/`), a page reference by its content file
/// (`@/courses/swift.md` or `courses/swift.md`), each with an optional `#fragment` or `?query`.
public struct LinkResolver: Sendable, Equatable {
    public struct Resolution: Sendable, Equatable {
        public var url: String
        public var isExternal: Bool
        /// The page the URL leads to (site-relative, `/blog/post/`), when it names a fragment of
        /// one: the fragment, decoded, must be an id of that page (`FragmentCheck`).
        public var fragmentTarget: FragmentTarget?

        public init(url: String, isExternal: Bool, fragmentTarget: FragmentTarget? = nil) {
            self.url = url
            self.isExternal = isExternal
            self.fragmentTarget = fragmentTarget
        }
    }

    /// A page and one of its ids: where `…#id` leads.
    public struct FragmentTarget: Sendable, Equatable, Hashable {
        public var page: String
        public var id: String
    }

    /// Prefix of every internal URL: the path of `baseURL`.
    public var basePath: String { didSet { memo = Memo() } }
    /// Site-relative page URLs: `/courses/swift/`.
    public var pageURLs: Set<String> { didSet { memo = Memo() } }
    /// Content file → page URL: `courses/swift.md` → `/courses/swift/`.
    public var pageReferences: [String: String] { didSet { memo = Memo() } }
    /// Output files other than pages, relative: `css/site.css`.
    public var files: Set<String> { didSet { memo = Memo() } }
    /// Where each file of `files` is copied from, for reading an image's size.
    public var fileSources: [String: String]
    /// Targets already resolved: a feed links the same pages again and again.
    private var memo = Memo()

    /// Resolutions by target, shared by copies of a resolver until one changes what it resolves
    /// against. Not part of a resolver's identity.
    final class Memo: TesseraKit.Memo<String, Resolution>, Equatable, @unchecked Sendable {
        static func == (lhs: Memo, rhs: Memo) -> Bool { true }
    }

    public init(basePath: String = "/", pageURLs: Set<String> = [], pageReferences: [String: String] = [:], files: Set<String> = [], fileSources: [String: String] = [:]) {
        self.basePath = basePath
        self.pageURLs = pageURLs
        self.pageReferences = pageReferences
        self.files = files
        self.fileSources = fileSources
    }

    /// The pixel size of an internal image URL's file, when it can be read.
    public func imageSize(of url: String) -> ImageSize? {
        sourceFile(of: url).flatMap { ImageSize.of(file: $0.source) }
    }

    /// The file an internal URL is copied from: its path in the output folder and on disk.
    func sourceFile(of url: String) -> (relative: String, source: String)? {
        guard url.hasPrefix(basePath) else { return nil }
        var file = String(url.dropFirst(basePath.count))
        if let cut = file.firstIndex(where: { $0 == "#" || $0 == "?" }) { file = String(file[..<cut]) }
        return fileSources[file].map { (file, $0) }
    }

    static let pageExtensions = ["md", "markdown", "yml", "yaml", "json"]

    public func resolve(_ raw: String, from pageURL: String, filesOnly: Bool = false) throws -> Resolution {
        // Targets from the site's root, and other sites' (`https://…`, which Markdown's autolinks
        // make on many pages), resolve alike from every page.
        let fromRoot = raw.hasPrefix("/") || raw.hasPrefix("@/") || Self.isExternal(raw)
        return try memo.value((filesOnly ? "f" : "l") + (fromRoot ? "" : pageURL) + "\u{1}" + raw) {
            try resolveAfresh(raw, from: pageURL, filesOnly: filesOnly)
        }
    }

    private func resolveAfresh(_ raw: String, from pageURL: String, filesOnly: Bool) throws -> Resolution {
        if let resolution = resolvedPlainPath(raw, filesOnly: filesOnly) { return resolution }
        let target = raw.trimmingCharacters(in: .whitespaces)
        guard !target.isEmpty else { throw TesseraError("the link is empty") }
        if let problem = URLSafety.problem(with: raw, isImage: filesOnly) {
            throw TesseraError("refused URL: \(problem)", hint: "link to a page, a file or an http(s) address")
        }
        if Self.isExternal(target) { return Resolution(url: target, isExternal: true) }

        var path = target
        var suffix = ""
        if let cut = path.firstIndex(where: { $0 == "#" || $0 == "?" }) {
            suffix = String(path[cut...])
            path = String(path[..<cut])
        }
        /// The page, with the fragment the suffix names.
        func page(_ url: String) -> FragmentTarget? { Self.fragment(of: suffix).map { FragmentTarget(page: url, id: $0) } }
        if path.isEmpty { return Resolution(url: basePath + pageURL.dropFirst() + suffix, isExternal: false, fragmentTarget: page(pageURL)) }

        let isReference = path.hasPrefix("@/") || Self.pageExtensions.contains((path as NSString).pathExtension.lowercased())
        if isReference && !filesOnly {
            let reference = path.hasPrefix("@/") ? String(path.dropFirst(2)) : (path.hasPrefix("/") ? String(path.dropFirst()) : path)
            guard let url = pageReferences[reference] else {
                throw TesseraError(
                    "no page is written in content/\(reference)",
                    hint: Suggestions.didYouMean(reference, in: pageReferences.keys) ?? "link to a file of content/, for example @/index.md")
            }
            return Resolution(url: basePath + url.dropFirst() + suffix, isExternal: false, fragmentTarget: page(url))
        }

        let absolute = Self.normalize(path.hasPrefix("/") ? path : pageURL + path)
        let file = String(absolute.dropFirst())
        if files.contains(file) || files.contains(file + "index.html") {
            return Resolution(url: basePath + file + suffix, isExternal: false)
        }
        if !filesOnly {
            if pageURLs.contains(absolute) { return Resolution(url: basePath + file + suffix, isExternal: false, fragmentTarget: page(absolute)) }
            if pageURLs.contains(absolute + "/") { return Resolution(url: basePath + file + "/" + suffix, isExternal: false, fragmentTarget: page(absolute + "/")) }
        }
        let candidates = filesOnly ? Array(files.map { "/" + $0 }) : Array(pageURLs) + files.map { "/" + $0 }
        throw TesseraError(
            filesOnly ? "no file \(absolute) in static/ or content/" : "no page or file at \(absolute)",
            hint: Suggestions.didYouMean(absolute, in: candidates) ?? (filesOnly ? "put the file in static/ or beside the page in content/" : "link to a page of content/ or a file of static/"))
    }

    /// The id a URL's suffix (`#id`, `?q=1#id`) names, percent-decoded; nil without one (or
    /// with an empty one, `#`, which names the top of the page).
    static func fragment(of suffix: String) -> String? {
        guard let hash = suffix.firstIndex(of: "#") else { return nil }
        let raw = suffix[suffix.index(after: hash)...]
        guard !raw.isEmpty else { return nil }
        return raw.removingPercentEncoding ?? String(raw)
    }

    /// A site path of plain characters that the site has (`/posts/first/`, as every listed page
    /// links its own): nothing to trim, decode, split or normalize, so it is looked up as it is.
    /// Nil for anything else, which `resolveAfresh` reads in full (and explains when it fails).
    private func resolvedPlainPath(_ raw: String, filesOnly: Bool) -> Resolution? {
        var previous: UInt8 = 0
        for byte in raw.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "~"):
                break
            // No `.`: no dot segments, extensions or page references to tell apart.
            case UInt8(ascii: "/") where previous != UInt8(ascii: "/"):
                break
            default:
                return nil
            }
            previous = byte
        }
        guard raw.utf8.first == UInt8(ascii: "/") else { return nil }
        let file = String(raw.dropFirst())
        guard files.contains(file) || files.contains(file + "index.html") || (!filesOnly && pageURLs.contains(raw)) else { return nil }
        return Resolution(url: basePath + file, isExternal: false)
    }

    static func isExternal(_ target: String) -> Bool {
        if target.hasPrefix("//") { return true }
        guard let colon = target.firstIndex(of: ":") else { return false }
        let scheme = target[..<colon]
        return !scheme.isEmpty && scheme.first!.isLetter && scheme.allSatisfy { $0.isLetter || $0.isNumber || "+.-".contains($0) }
    }

    /// Folds `.` and `..` segments; keeps a trailing slash.
    static func normalize(_ path: String) -> String {
        var segments: [Substring] = []
        for segment in path.split(separator: "/", omittingEmptySubsequences: true) {
            if segment == "." { continue }
            if segment == ".." { _ = segments.popLast(); continue }
            segments.append(segment)
        }
        let joined = "/" + segments.joined(separator: "/")
        return path.hasSuffix("/") && joined != "/" ? joined + "/" : joined
    }
}
