import Foundation

/// What a transformer may depend on. Injected, never read from the environment, so the same
/// content and the same context always give the same view data.
public struct TransformContext: Sendable {
    /// Shared by the context's copies (`CopyOnWrite`): a page's context goes to every section,
    /// component and field it maps, and into every date's deferred forms.
    private struct Stored: Sendable {
        var locale: Locale
        var timeZone: TimeZone
        var calendar: Calendar
        var buildDate: Date
        var markdown: MarkdownRenderer
        var links: LinkResolver
        var defaultCurrency: String
        var pageURL: String
        var translator: Translator
        var recorder: MarkdownRecorder?
        var images: ImageProcessor?
    }

    private var stored: CopyOnWrite<Stored>

    public var locale: Locale {
        get { stored.read.locale }
        set { stored.write.locale = newValue; stored.write.calendar = Self.calendar(newValue, timeZone) }
    }
    public var timeZone: TimeZone {
        get { stored.read.timeZone }
        set { stored.write.timeZone = newValue; stored.write.calendar = Self.calendar(locale, newValue) }
    }
    /// Gregorian, in `timeZone` and `locale`; made once, not per date formatted.
    public var calendar: Calendar { stored.read.calendar }
    /// "Now" for relative dates: the build date, fixed for a whole build.
    public var buildDate: Date {
        get { stored.read.buildDate }
        _modify { yield &stored.write.buildDate }
    }
    public var markdown: MarkdownRenderer {
        get { stored.read.markdown }
        _modify { yield &stored.write.markdown }
    }
    public var links: LinkResolver {
        get { stored.read.links }
        _modify { yield &stored.write.links }
    }
    public var defaultCurrency: String {
        get { stored.read.defaultCurrency }
        _modify { yield &stored.write.defaultCurrency }
    }
    /// The page being mapped, for links relative to it.
    public var pageURL: String {
        get { stored.read.pageURL }
        _modify { yield &stored.write.pageURL }
    }
    /// The page language's strings and plural rules.
    public var translator: Translator {
        get { stored.read.translator }
        _modify { yield &stored.write.translator }
    }
    /// Where the page being mapped records its links to ids (`FragmentCheck`) and its Markdown's
    /// warnings; nil records none.
    var recorder: MarkdownRecorder? {
        get { stored.read.recorder }
        _modify { yield &stored.write.recorder }
    }
    /// What makes images' sizes; nil copies images as they are.
    public var images: ImageProcessor? {
        get { stored.read.images }
        _modify { yield &stored.write.images }
    }

    public init(locale: Locale, timeZone: TimeZone, buildDate: Date, markdown: MarkdownRenderer, links: LinkResolver, defaultCurrency: String = "USD", pageURL: String = "/", translator: Translator? = nil) {
        stored = CopyOnWrite(Stored(
            locale: locale, timeZone: timeZone, calendar: Self.calendar(locale, timeZone), buildDate: buildDate, markdown: markdown,
            links: links, defaultCurrency: defaultCurrency, pageURL: pageURL,
            translator: translator ?? Translator(table: TranslationTable(language: locale.language.languageCode?.identifier ?? "en"))))
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
