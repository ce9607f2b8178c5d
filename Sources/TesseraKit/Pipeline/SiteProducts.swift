import Foundation

// The stages' products, in pipeline order. Each stage takes the product before it and returns a
// new one that holds it: a value of a later type exists only once every earlier stage has run,
// so a step cannot run before its inputs exist. Fields a later type adds are read through it
// (`rendered.pages`, `routed.configuration`) by dynamic member lookup.

/// A stage's product, which holds the product of the stage before it (`earlier`) and reads
/// that one's fields as its own.
@dynamicMemberLookup
public protocol StageProduct: Sendable {
    associatedtype Earlier
    var earlier: Earlier { get set }
}

extension StageProduct {
    public subscript<T>(dynamicMember path: KeyPath<Earlier, T>) -> T { earlier[keyPath: path] }
    public subscript<T>(dynamicMember path: WritableKeyPath<Earlier, T>) -> T {
        get { earlier[keyPath: path] }
        _modify { yield &earlier[keyPath: path] }
    }
}

/// The site's configuration and theme: what a build knows before it reads any template or page.
public struct ConfiguredSite: Sendable {
    public let configuration: SiteConfiguration
    public let theme: Theme
    /// What pages are published against and `site.buildDate` prints.
    public let buildDate: Date
    /// What colours code blocks, when the site highlights them (`markdown.highlight`).
    public var highlighter: CodeHighlighter?
    /// What makes images' sizes and formats, unless the site turns it off (`images.process`).
    public var images: ImageProcessor?
}

/// Every page of the site, with what the theme brings and the `data/` folder. The loading stage
/// makes it from `content/`; its steps add the term pages and the later pages of paginated lists.
public struct LoadedSite: StageProduct {
    public var configured: ConfiguredSite
    public let components: ComponentRegistry
    public let templates: TemplateLibrary
    /// Language code → its strings, the theme's and the site's merged.
    public let translations: [String: TranslationTable]
    /// The `data/` folder's files.
    public let data: SiteData
    public var pages: [Page]
    /// What loading content left out, could not parse, or copies as it is.
    public var content: ContentTally
    /// What each query section lists, run once by the `queries` step.
    public var lists = QuerySelections()

    public var earlier: ConfiguredSite {
        get { configured }
        _modify { yield &configured }
    }
}

/// What loading `content/` found besides pages.
public struct ContentTally: Sendable {
    public var skippedDrafts = 0, skippedFuture = 0, skippedExpired = 0
    /// Files copied beside their pages, relative to `content/`.
    public var assets: [String] = []
    /// Page files that failed to parse, by content reference, with the URL they would have.
    var failedPageURLs: [(reference: String, url: String)] = []
    /// The dates and expiry dates of every page read, drafts aside: where the set of published
    /// pages changes.
    var publishingDates: [Date] = []
}

/// The pages with every file beside them, and what links between them: static files, links,
/// fingerprinted assets and menus.
public struct RoutedSite: StageProduct {
    public var loaded: LoadedSite
    /// Files copied as they are: the theme's and site's `static/`, assets beside content.
    public var staticFiles: [OutputFile]
    /// Every page's and file's URL, for links in content, menus and templates.
    public let links: LinkResolver
    /// Fingerprinted copies of stylesheets and scripts, for `{{#asset}}…{{/asset}}`.
    public var fingerprints = AssetFingerprints()
    /// Every menu, per language.
    public var menus = SiteMenus()
    /// The icons and web manifest made from the site's icon.
    public var icons = SiteIcons()
    /// Language code → the URL of its search page (a page whose layout is `search`), for
    /// `site.search.url`: found while every page is here (a full build lets them go as it renders).
    public var searchPages: [String: String] = [:]

    public var earlier: LoadedSite {
        get { loaded }
        _modify { yield &loaded }
    }
}

/// Each page's view data: its components' fields made into values by their transformers.
public struct MappedSite: StageProduct {
    public var routed: RoutedSite
    /// The views of the pages mapped by this build (the build cache may keep others' output).
    public var views: [PageView]
    /// Set instead of `views` in a full build: every page's view data is made as it is rendered.
    public var deferred: DeferredMapping?

    public var earlier: RoutedSite {
        get { routed }
        _modify { yield &routed }
    }
}

/// Every output file's bytes: pages' HTML, then their JSON, the sitemap, feeds and redirects.
public struct RenderedSite: StageProduct {
    public var mapped: MappedSite
    public var outputs: [OutputFile] = []
    /// Template keys each page used, by page URL.
    public var pageTemplates: [String: Set<String>] = [:]
    /// HTML pages rendered, per language code.
    public var renderedPages: [String: Int] = [:]
    /// Fingerprinted assets each page's HTML linked, by page URL (for the build cache's record).
    var pageAssets: [String: [String]] = [:]
    /// Files a page makes beside its HTML and JSON, by page URL: the image files it shows, its
    /// published sections' JSON. Outputs of the page, kept with it (for the build cache's record).
    var pageFiles: [String: [String]] = [:]
    /// Pages whose rendering gave warnings, by URL: never kept, so the warnings come again.
    var warnedPages: Set<String> = []
    /// Each page's JSON, made with its HTML, for the `page JSON` step to check and list.
    var documents: [(page: Page, file: OutputFile)] = []
    /// What encoded them, when a page has JSON.
    var documentWriter: PageDocument?
    /// The search documents of the pages rendered (`SearchDocument`), for the search step; then
    /// every page's, the kept pages' included, for the next build.
    var searchDocuments: [SearchDocument] = [] { didSet { searchIndexAhead = nil } }
    /// Their index, being made since rendering ended (nil once they change).
    var searchIndexAhead: SearchIndex.Ahead?
    /// The ids of each page with HTML, by URL, kept by the preview for checking the links of
    /// the pages a local edit makes again (`LocalEdits`).
    var pageIDs: [String: Set<String>]?

    init(mapped: MappedSite) {
        self.mapped = mapped
    }

    public var earlier: MappedSite {
        get { mapped }
        _modify { yield &mapped }
    }
}

/// The site on disk.
public struct WrittenSite: StageProduct {
    public var rendered: RenderedSite
    /// Output paths written, changed or removed by this build (all of them for a fresh folder).
    public var changedOutputs: [String]

    public var earlier: RenderedSite {
        get { rendered }
        _modify { yield &rendered }
    }
}
