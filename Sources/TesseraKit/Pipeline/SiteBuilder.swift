import Foundation

/// Builds a site: runs the pipeline's stages in turn, gathers every problem, and writes the
/// output only when there is none.
public struct SiteBuilder: Sendable {
    public var options: BuildOptions
    public var pipeline: BuildPipeline
    /// The preview's memory of its last build; nil for one-off builds.
    public var cache: BuildCache?

    public init(options: BuildOptions, pipeline: BuildPipeline = .standard, cache: BuildCache? = nil) {
        self.options = options
        self.pipeline = pipeline
        self.cache = cache
    }

    /// Throws a `TesseraError` with every error found; the previous output is then untouched.
    @discardableResult
    public func build() throws -> BuildReport {
        try run().report
    }

    /// Builds and returns what was built as well, for tools that inspect it.
    public func run() throws -> (site: BuiltSite, report: BuildReport) {
        try CacheLayer(memory: cache).build(pipeline, options: options)
    }
}

/// What a build made, for the commands and tools that look at it after.
public final class BuiltSite: @unchecked Sendable {
    public let configuration: SiteConfiguration
    /// The last stage's product; nil when nothing changed since the last build, whose output stands.
    public let written: WrittenSite?
    public let diagnostics: DiagnosticCollector
    /// The build kept the last one's pages, lists, feeds and redirects, making only edited pages.
    public let keptStructure: Bool
    /// Output paths written, changed or removed by this build.
    public var changedOutputs: [String]
    /// What a one-off build read of the last one (its record, its search documents), let go with
    /// the site: a command that keeps the site until the process exits (`tessera build`) does not
    /// free them object by object first, a thirtieth of a second of an edit of 10,000 posts.
    var lastBuildRead: AnyObject?

    init(configuration: SiteConfiguration, written: WrittenSite?, diagnostics: DiagnosticCollector, keptStructure: Bool, changedOutputs: [String]? = nil) {
        self.configuration = configuration
        self.written = written
        self.diagnostics = diagnostics
        self.keptStructure = keptStructure
        self.changedOutputs = changedOutputs ?? written?.changedOutputs ?? []
    }

    /// Every page the build made (none when it was up to date). Their bodies are gone unless
    /// the build kept them (`BuildOptions.keepsPageBodies`).
    public var pages: [Page] { written?.rendered.mapped.routed.loaded.pages ?? [] }
    /// The pages' view data, when the build kept it (the preview does, to compare the next
    /// build with); any other build lets each view go once its page is made.
    public var views: [PageView] { written?.rendered.mapped.views ?? [] }
    public var outputs: [OutputFile] { written?.rendered.outputs ?? [] }
    public var translations: [String: TranslationTable] { written?.rendered.mapped.routed.loaded.translations ?? [:] }
    /// Every language's menus, resolved.
    public var menus: SiteMenus { written?.rendered.mapped.routed.menus ?? SiteMenus() }
}

/// The engine's name and version, for `site.generator` and `--version`.
public enum Tessera {
    public static let version = "0.1.0"
}
