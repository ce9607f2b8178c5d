import Foundation

/// The first two stages: site.yml, then the theme it names.
enum ConfigureStage {
    static func loadConfiguration(_ options: consuming BuildOptions, context: BuildContext) throws -> SiteConfiguration {
        let site = context.siteDirectory
        guard FileTree.isDirectory(site) else {
            throw TesseraError("no site at \(site): the folder does not exist", hint: "pass the site folder with --source, or create one with `tessera new DIR`")
        }
        return try SiteConfiguration.load(from: site)
    }

    static func loadTheme(_ configuration: consuming SiteConfiguration, context: BuildContext) throws -> ConfiguredSite {
        let theme = try Theme.load(
            name: configuration.theme, siteDirectory: context.siteDirectory, location: configuration.themeLocation,
            allowExternalSymlinks: configuration.allowExternalSymlinks)
        let options = context.options
        let highlighter = configuration.markdown.highlight
            ? CodeHighlighter(python: options.python ?? CodeHighlighter.defaultPython(), cacheDirectory: options.cacheDirectory.map(OutputWriter.resolve)) : nil
        // What the engine is, is found out when a block is highlighted: a site without code
        // starts no Python (`IncrementalBuild.highlightDigest`).
        let images = configuration.images.process
            ? ImageProcessor(options: configuration.images, cacheDirectory: options.cacheDirectory.map(OutputWriter.resolve), progress: options.progress) : nil
        if options.writesOutput { images?.prepare() }
        return ConfiguredSite(
            configuration: configuration, theme: theme,
            buildDate: options.buildDate ?? configuration.buildDate ?? options.fallbackBuildDate, highlighter: highlighter, images: images)
    }
}

extension ConfiguredSite {
    /// The folder the site is built into.
    func outputDirectory(options: BuildOptions) -> String {
        SiteConfiguration.outputDirectory(options: options, configuration: configuration)
    }
}

extension SiteConfiguration {
    /// The folder `options` and this configuration build into, absolute.
    static func outputDirectory(options: BuildOptions, configuration: SiteConfiguration) -> String {
        let configured = options.outputDirectory ?? configuration.output
        return configured.hasPrefix("/") ? configured : options.sourceDirectory + "/" + configured
    }
}

extension OutputWriter {
    /// Writes the build's output, checked against the site's own folders (the theme's too, once
    /// it is known).
    init(options: BuildOptions, configuration: SiteConfiguration, theme: Theme?) {
        let site = options.sourceDirectory
        var folders = ["content", "themes", "data", "archetypes"] + Theme.Folder.allCases.map(\.rawValue)
        folders = folders.map { site + "/" + $0 }
        if let theme { folders.append(theme.directory) }
        if let cache = options.cacheDirectory { folders.append(cache) }
        self.init(
            outputDirectory: SiteConfiguration.outputDirectory(options: options, configuration: configuration), siteDirectory: site,
            sourceFolders: folders, force: options.force, configuredAt: options.outputDirectory == nil ? configuration.outputLocation : nil)
    }
}
