import Foundation

/// The build, as the stages' products it makes in turn (`Documentation/Architecture.md` draws it):
///
///     BuildOptions ─ load configuration ─▶ SiteConfiguration
///                  ─ load theme ─────────▶ ConfiguredSite   configuration, theme, build date
///                  ─ load content ───────▶ LoadedSite       + components, templates, translations,
///                    taxonomies, queries                      data, every page, what lists hold
///                  ─ collect static files ▶ RoutedSite      + static files, links,
///                    fingerprint assets, menus,               fingerprints, menus, icons
///                    site icons
///                  ─ map view data ──────▶ MappedSite       + each page's view data
///                  ─ render pages ───────▶ RenderedSite     + output files
///                    page JSON, sitemap, feeds, aliases,
///                    search index
///                  ─ write output ───────▶ WrittenSite      + the paths written
///
/// Each stage is a value: a step that makes its product, then steps over it. A plugin or a new
/// output is one more step over the product it reads. The build cache is not in this list: it
/// is a layer around the pipeline (`CacheLayer`), which the stages only ask what they may reuse.
public struct BuildPipeline: Sendable {
    public var configure: Stage<BuildOptions, SiteConfiguration>
    public var theme: Stage<SiteConfiguration, ConfiguredSite>
    public var load: Stage<ConfiguredSite, LoadedSite>
    public var route: Stage<LoadedSite, RoutedSite>
    public var map: Stage<RoutedSite, MappedSite>
    public var render: Stage<MappedSite, RenderedSite>
    public var write: Stage<RenderedSite, WrittenSite>

    /// load → route → map → render → write.
    public static let standard = BuildPipeline(
        configure: Stage("load configuration", make: ConfigureStage.loadConfiguration),
        theme: Stage("load theme", make: ConfigureStage.loadTheme),
        load: Stage("load content", steps: [.addTaxonomyPages, .paginate], make: LoadStage.load),
        route: Stage("collect static files", steps: [.fingerprintAssets, .buildMenus, .makeSiteIcons], make: RouteStage.collectStaticFiles),
        map: Stage("map view data", make: MapStage.map),
        render: Stage("render pages", steps: [.writePageJSON, .writeSitemap, .writeFeeds, .writeAliases, .writeSearchIndex], make: RenderStage.render),
        write: Stage("write output", make: WriteStage.write))

    /// The names of the steps in the order they run, the cache layer's included.
    public var stepNames: [String] {
        [configure.name] + CacheLayer.outputStepNames + [theme.name, CacheLayer.compareStepName]
            + LoadStage.partNames + [load.name] + load.steps.map(\.name)
            + [route.name] + route.steps.map(\.name) + [CacheLayer.planStepName]
            + [map.name] + map.steps.map(\.name) + [render.name] + render.steps.map(\.name) + [write.name] + write.steps.map(\.name)
    }
}
