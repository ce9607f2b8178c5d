import Foundation

// The stages' products, in pipeline order. Each stage takes the product before it and returns a
// new one that holds it: a value of a later type exists only once every earlier stage has run,
// so a step cannot run before its inputs exist. Fields a later type adds are read through it
// (`rendered.pages`, `routed.configuration`) by dynamic member lookup.

/// The site's configuration and theme: what a build knows before it reads any template or page.
public struct ConfiguredSite: Sendable {
    public let configuration: SiteConfiguration
    public let theme: Theme
    /// What pages are published against and `site.buildDate` prints.
    public let buildDate: Date
}

/// Every page of the site, with what the theme brings and the `data/` folder. The loading stage
/// makes it from `content/`; its steps add the term pages and the later pages of paginated lists.
@dynamicMemberLookup
public struct LoadedSite: Sendable {
    public let configured: ConfiguredSite
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

    public subscript<T>(dynamicMember path: KeyPath<ConfiguredSite, T>) -> T { configured[keyPath: path] }
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
@dynamicMemberLookup
public struct RoutedSite: Sendable {
    public var loaded: LoadedSite
    /// Files copied as they are: the theme's and site's `static/`, assets beside content.
    public var staticFiles: [OutputFile]
    /// Every page's and file's URL, for links in content, menus and templates.
    public let links: LinkResolver
    /// Fingerprinted copies of stylesheets and scripts, for `{{#asset}}…{{/asset}}`.
    public var fingerprints = AssetFingerprints()
    /// Every menu, per language.
    public var menus = SiteMenus()

    public subscript<T>(dynamicMember path: KeyPath<LoadedSite, T>) -> T { loaded[keyPath: path] }
    public subscript<T>(dynamicMember path: WritableKeyPath<LoadedSite, T>) -> T {
        get { loaded[keyPath: path] }
        _modify { yield &loaded[keyPath: path] }
    }
}

/// Each page's view data: its components' fields made into values by their transformers.
@dynamicMemberLookup
public struct MappedSite: Sendable {
    public var routed: RoutedSite
    /// The views of the pages mapped by this build (the build cache may keep others' output).
    public var views: [PageView]

    public subscript<T>(dynamicMember path: KeyPath<RoutedSite, T>) -> T { routed[keyPath: path] }
    public subscript<T>(dynamicMember path: WritableKeyPath<RoutedSite, T>) -> T {
        get { routed[keyPath: path] }
        _modify { yield &routed[keyPath: path] }
    }
}

/// Every output file's bytes: pages' HTML, then their JSON, the sitemap, feeds and redirects.
@dynamicMemberLookup
public struct RenderedSite: Sendable {
    public var mapped: MappedSite
    public var outputs: [OutputFile] = []
    /// Template keys each page used, by page URL.
    public var pageTemplates: [String: Set<String>] = [:]
    /// HTML pages rendered, per language code.
    public var renderedPages: [String: Int] = [:]
    /// Fingerprinted assets each page's HTML linked, by page URL (for the build cache's record).
    var pageAssets: [String: [String]] = [:]
    /// Pages whose rendering gave warnings, by URL: never kept, so the warnings come again.
    var warnedPages: Set<String> = []

    init(mapped: MappedSite) {
        self.mapped = mapped
    }

    public subscript<T>(dynamicMember path: KeyPath<MappedSite, T>) -> T { mapped[keyPath: path] }
    public subscript<T>(dynamicMember path: WritableKeyPath<MappedSite, T>) -> T {
        get { mapped[keyPath: path] }
        _modify { yield &mapped[keyPath: path] }
    }
}

/// The site on disk.
@dynamicMemberLookup
public struct WrittenSite: Sendable {
    public var rendered: RenderedSite
    /// Output paths written, changed or removed by this build (all of them for a fresh folder).
    public var changedOutputs: [String]

    public subscript<T>(dynamicMember path: KeyPath<RenderedSite, T>) -> T { rendered[keyPath: path] }
    public subscript<T>(dynamicMember path: WritableKeyPath<RenderedSite, T>) -> T {
        get { rendered[keyPath: path] }
        _modify { yield &rendered[keyPath: path] }
    }
}
