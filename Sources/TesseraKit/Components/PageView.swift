import Foundation

/// A page after mapping: every component turned into view data, the body into HTML.
/// It is what gets rendered, and what the per-page JSON document holds.
public struct PageView: Sendable, Equatable {
    public var page: Page
    /// The `page` value templates receive.
    public var data: ViewObject
    /// The body as HTML; nil when the page has no body or places it in its feed.
    public var content: String?
    public var sections: [SectionView]
    /// The body's headings with their ids, in order: `page.toc` and the page JSON's `toc`.
    public var headings: [MarkdownHeading] = []
    /// Components placed in the body, in order: the body's HTML (`content`, or the `body`
    /// component's) holds a marker where each renders (`MarkdownComponents`).
    public var embedded: [ComponentView] = []
    /// Links of the page to ids of pages (its own among them), checked once every page is rendered.
    public var fragments: [FragmentLink] = []
    /// Code blocks of the body, in order: the body's HTML holds a marker where each is written
    /// (`MarkdownComponents.codeMarker`); the page JSON makes each a `code` block.
    public var code: [RenderedCode] = []
    /// What mapping the page found to say (an unknown language, a misspelt fence option): a page
    /// with warnings is never kept by the next build, so they are said again.
    public var warnings: [Diagnostic] = []
    /// A code block named a language and no engine coloured it: the build says so once.
    public var unhighlighted = false
    /// The output paths of the image files the page shows (made by `ImageProcessor`): outputs of
    /// the page, kept with it by the next build.
    public var images: [String] = []
}

/// One section after mapping.
public struct SectionView: Sendable, Equatable {
    public var id: String?
    public var layout: String
    public var layoutLocation: SourceLocation
    public var layoutOptions: [ContentNode.Entry] = []
    public var header: ComponentView?
    public var items: [ComponentView]
    public var footer: ComponentView?
    /// A query section's whole list, for its own JSON (`publish:`); nil when not published.
    public var published: Published?
    /// A grouped query section's groups (`group: year`), in order: runs of its items.
    public var groups: [Group] = []

    public struct Group: Sendable, Equatable {
        /// "2026", "November 2026": in the page's language.
        public var title: String
        public var count: Int
    }

    public struct Published: Sendable, Equatable {
        public var items: [ComponentView]
        public var perPage: Int
    }
}
