import Foundation

/// How to build: what the command line says, with the clock injected.
public struct BuildOptions: Sendable {
    public var sourceDirectory: String
    /// Overrides `output:` of site.yml.
    public var outputDirectory: String?
    public var includeDrafts = false
    /// Include pages dated after the build date (`--future`).
    public var includeFuture = false
    /// Overrides `buildDate:` of site.yml.
    public var buildDate: Date?
    /// The date used when neither the options nor site.yml give one: `SOURCE_DATE_EPOCH` or the
    /// current time, read once by the caller so the engine never reads the clock.
    public var fallbackBuildDate: Date
    /// False for `tessera check`: everything is built and validated, nothing written.
    public var writesOutput = true
    /// True for `tessera serve`: write only the files that changed, in place, instead of
    /// building a new folder and swapping it in.
    public var updatesInPlace = false
    /// Replace an output folder that holds files Tessera did not write (`--force`).
    public var force = false
    /// Where `tessera build` keeps what the next build may reuse (`.tessera/cache` in the site);
    /// nil builds everything every time.
    public var cacheDirectory: String?
    /// The Python whose Pygments highlights code; nil: `TESSERA_PYTHON`, else `python3`.
    public var python: String?
    /// Where the build counts its progress, for a live line on a terminal; nil counts nothing.
    public var progress: BuildProgress?
    /// Keep every page's Markdown body to the end of the build, for code that reads
    /// `BuiltSite.pages` or a step added over the rendered or written site that reads bodies.
    /// Otherwise each body is let go once its page is made (100,000 posts hold 330 MB of
    /// Markdown), and reading one afterwards stops the program. Full-content feeds and the
    /// preview keep them either way.
    public var keepsPageBodies = false

    public init(sourceDirectory: String, outputDirectory: String? = nil, includeDrafts: Bool = false, buildDate: Date? = nil, fallbackBuildDate: Date, writesOutput: Bool = true) {
        self.sourceDirectory = sourceDirectory
        self.outputDirectory = outputDirectory
        self.includeDrafts = includeDrafts
        self.buildDate = buildDate
        self.fallbackBuildDate = fallbackBuildDate
        self.writesOutput = writesOutput
    }

    /// `SOURCE_DATE_EPOCH` if set (reproducible builds), else now.
    public static func environmentBuildDate(_ environment: [String: String] = ProcessInfo.processInfo.environment, now: Date = Date()) -> Date {
        if let epoch = environment["SOURCE_DATE_EPOCH"].flatMap(TimeInterval.init) { return Date(timeIntervalSince1970: epoch) }
        return now
    }
}

/// What a build did, for the one-line summary.
public struct BuildReport: Sendable {
    public var pages: Int
    public var files: Int
    public var staticFiles: Int
    public var skippedDrafts: Int
    public var skippedFuture = 0
    public var skippedExpired = 0
    public var warnings: [Diagnostic]
    public var outputDirectory: String
    public var seconds: Double
    /// How long each pipeline step took, in order.
    public var stepTimings: [(step: String, seconds: Double)] = []
    /// Pages whose output the build cache kept from the previous build.
    public var reusedPages = 0
    /// Content files whose pages the build cache gave as an earlier build parsed them.
    public var storedPages = 0
    /// Nothing changed since the previous build: nothing was written.
    public var upToDate = false
    /// HTML pages per language code; the summary has a line per language when there are several.
    public var languagePages: [String: Int] = [:]
    /// The site's languages in site.yml's order: code and name.
    public var languages: [(code: String, name: String)] = []

    public func summary(relativeTo base: String? = nil) -> String {
        // `files` counts every file written, the pages' HTML among them.
        let others = max(0, files - pages)
        let counts = "\(pages) page\(pages == 1 ? "" : "s") and \(others) other file\(others == 1 ? "" : "s")"
        var line = upToDate
            ? "Up to date: \(counts), nothing changed since the last build"
            : "Built \(counts) in \(String(format: "%.2f", seconds)) s"
        var left: [String] = []
        if upToDate { left.append("checked in \(String(format: "%.2f", seconds)) s") }
        if reusedPages > 0 { left.append("\(reusedPages) unchanged page\(reusedPages == 1 ? "" : "s") kept from the last build") }
        if skippedDrafts > 0 { left.append("\(skippedDrafts) draft\(skippedDrafts == 1 ? "" : "s") left out; --drafts includes them") }
        if skippedFuture > 0 { left.append("\(skippedFuture) future page\(skippedFuture == 1 ? "" : "s") left out; --future includes them") }
        if skippedExpired > 0 { left.append("\(skippedExpired) expired page\(skippedExpired == 1 ? "" : "s") left out") }
        if !left.isEmpty { line += " (" + left.joined(separator: "; ") + ")" }
        if !warnings.isEmpty { line += ", \(warnings.count) warning\(warnings.count == 1 ? "" : "s")" }
        line += " → \(Diagnostic.displayPath(outputDirectory, relativeTo: base))"
        if languagePages.count > 1 || languages.count > 1 {
            let known = languages.map(\.code)
            let codes = known + languagePages.keys.filter { !known.contains($0) }.sorted()
            let width = codes.map(\.count).max() ?? 2
            for code in codes {
                let count = languagePages[code] ?? 0
                let name = languages.first { $0.code == code }?.name
                line += "\n  " + code.padding(toLength: width, withPad: " ", startingAt: 0)
                    + "  \(count) page\(count == 1 ? "" : "s")" + (name.map { " (\($0))" } ?? "")
            }
        }
        return line
    }
}
