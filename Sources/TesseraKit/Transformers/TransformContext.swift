import Foundation

/// What a transformer may depend on. Injected, never read from the environment, so the same
/// content and the same context always give the same view data.
public struct TransformContext: Sendable {
    public var locale: Locale { didSet { calendar = Self.calendar(locale, timeZone) } }
    public var timeZone: TimeZone { didSet { calendar = Self.calendar(locale, timeZone) } }
    /// Gregorian, in `timeZone` and `locale`; made once, not per date formatted.
    public private(set) var calendar: Calendar
    /// "Now" for relative dates: the build date, fixed for a whole build.
    public var buildDate: Date
    public var markdown: MarkdownRenderer
    public var links: LinkResolver
    public var defaultCurrency: String
    /// The page being mapped, for links relative to it.
    public var pageURL: String
    /// The page language's strings and plural rules.
    public var translator: Translator
    /// Where the page being mapped records its links to ids (`FragmentCheck`) and its Markdown's
    /// warnings; nil records none.
    var recorder: MarkdownRecorder?
    /// What makes images' sizes; nil copies images as they are.
    public var images: ImageProcessor?

    public init(locale: Locale, timeZone: TimeZone, buildDate: Date, markdown: MarkdownRenderer, links: LinkResolver, defaultCurrency: String = "USD", pageURL: String = "/", translator: Translator? = nil) {
        self.locale = locale
        self.timeZone = timeZone
        self.calendar = Self.calendar(locale, timeZone)
        self.buildDate = buildDate
        self.markdown = markdown
        self.links = links
        self.defaultCurrency = defaultCurrency
        self.pageURL = pageURL
        self.translator = translator ?? Translator(table: TranslationTable(language: locale.language.languageCode?.identifier ?? "en"))
    }

    /// The plural category of `value` in this language, as `{ <category>: true }`, so templates and
    /// the `t` lambda can choose a form without logic.
    func pluralFlags(_ value: Double) -> ViewValue {
        .object(ViewObject([(translator.plurals.category(for: value).rawValue, .bool(true))]))
    }

    static func calendar(_ locale: Locale, _ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.locale = locale
        return calendar
    }
}

extension TransformContext {
    /// Markdown links resolve like `link` fields, from the page being built.
    var markdownLinks: MarkdownRenderer.Links {
        var links = MarkdownRenderer.Links(resolver: links, pageURL: pageURL)
        links.recorder = recorder
        links.images = images
        return links
    }

    /// The same for Markdown held in `node`, whose links' places are in it.
    func markdownLinks(in node: ContentNode) -> MarkdownRenderer.Links {
        var links = markdownLinks
        links.origin = .node(node)
        return links
    }
}
