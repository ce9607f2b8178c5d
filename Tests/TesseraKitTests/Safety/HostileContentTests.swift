import Foundation
import Testing
@testable import TesseraKit

/// Hostile content: XSS payloads in every place content reaches the page (every field type, page
/// titles, tags, slugs, summaries, section ids, Markdown bodies, translation tables, `site.yml`),
/// built through the real pipeline. Either the build refuses the value with a located error, or
/// the built HTML holds nothing a browser would run. `Checker` below decides what "would run"
/// means, and `theCheckerCatchesEveryForbiddenPattern` proves it is not blind.
@Suite struct HostileContentTests {
    // MARK: Payloads

    /// Values that must build and come out inert wherever content puts them.
    static let payloads: [String] = [
        "<script>alert(1)</script>",
        "\"><img src=x onerror=alert(1)>",
        "'><svg onload=alert(1)>",
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " java\tscript:alert(1)",
        "&#106;avascript:alert(1)",
        "javascript&colon;alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "vbscript:msgbox(1)",
        "{{#x}}{{/x}}{{{site}}}",
        "{{{ page.title }}}",
        "</title><script>alert(1)</script>",
        "<a href=\"javascript:alert(1)\">x</a>",
        "<iframe src=//evil>",
        "<style>@import'//evil'</style>",
        "\" autofocus onfocus=\"alert(1)",
        "\u{2028}\u{2029}</script><script>alert(1)</script>",
        "<img src=\"x\" onerror=\"alert(1)\">",
        "<svg><script>alert(1)</script></svg>",
        "<object data=x>",
        "<embed src=x>",
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "<scr<script>ipt>alert(1)</script>",
        "<!--<script>alert(1)//-->",
        "`<script>alert(1)</script>`",
        // Markdown that is not a refused URL: quotes in titles, destinations and alt text.
        "[x](https://example.com/ \"\\\" onmouseover=\\\"alert(1)\")",
        "[x](https://example.com/\"onmouseover=\"alert(1))",
        "![x\" onerror=\"alert(1)](/pic.png)",
        "<https://example.com/\"onmouseover=\"alert(1)>",
    ]

    /// Script and data URLs that Markdown parses as a link or image destination.
    static let markdownURLs: [String] = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        " java\tscript:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x6A;avascript:alert(1)",
        "javascript&colon;alert(1)",
        "\u{1}javascript:alert(1)",
        "data:text/html,<script>alert(1)</script>",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "data:image/svg+xml,%3Csvg%20onload=alert(1)%3E",
        "vbscript:msgbox(1)",
    ]

    /// Link and image fields take any text, so a few more disguises fit there.
    static let fieldURLs: [String] = markdownURLs + [
        "java\nscript:alert(1)",
        "  JAVASCRIPT:alert(1)",
        "data:image/svg+xml,<svg onload=alert(1)>",
    ]

    // MARK: The test site

    /// One component with one field of every type, printed in text, in double- and single-quoted
    /// attributes, in `href`/`src`, and through translations with placeholders.
    static let everySchema = """
        shell: card
        fields:
          text: { type: text }
          markdown: { type: markdown }
          inline: { type: inline-markdown }
          number: { type: number }
          percent: { type: percent }
          currency: { type: currency }
          date: { type: date }
          link: { type: link }
          image: { type: image }
          choice: { type: enum, values: [calm, loud] }
          flag: { type: bool }
          list: { type: list, format: and }
          items: { type: items }

        """

    static let everyTemplate = """
        <h3 title="{{text}}" data-t='{{text}}'>{{text}}</h3>
        <div class="md">{{{markdown}}}</div><p>{{{inline}}}</p>
        <data value="{{number.value}}">{{number}}</data> <span>{{percent}}</span> <span>{{currency}}</span>
        {{#date}}<time datetime="{{date.iso}}">{{date}}</time>{{/date}}
        {{#link}}<a href="{{link}}">go</a><a href='{{link.url}}'>go</a>{{/link}}
        {{#image}}<img src="{{image}}" alt="{{image.alt}}"><img src='{{image.src}}' alt='{{image.alt}}'>{{/image}}
        <b class="{{choice}}">{{choice}}</b>{{#flag}}<i>on</i>{{/flag}}
        <p>{{list}}</p><ul>{{#list.items}}<li title="{{.}}">{{.}}</li>{{/list.items}}</ul>
        <div class="kids">{{{items}}}</div>
        <p class="hi">{{#t}}hi{{/t}}</p>{{#number}}<p class="count">{{#t}}lessons count=number{{/t}}</p>{{/number}}

        """

    /// The layout prints site and page values in text, in attributes and in URLs, and loads one
    /// script of its own: the only script tag the output may hold.
    static let layout = """
        <!doctype html>
        <html lang="{{page.lang}}"><head><meta charset="utf-8"><title>{{page.title}} · {{site.title}}</title>
        <meta name="description" content="{{page.summary}}"><meta property="og:title" content='{{page.title}}'>
        <link rel="canonical" href="{{page.url}}">
        <script src="{{site.basePath}}app.js" defer></script>
        </head><body data-tagline='{{site.params.tagline}}'>
        <h1 title="{{page.title}}">{{page.title}}</h1><p class="site">{{site.title}} {{site.params.tagline}} {{site.params.nested.deep}}</p>
        <ul class="tags">{{#page.tags}}<li><a href="{{site.basePath}}tags/{{.}}/" title='{{.}}'>{{.}}</a></li>{{/page.tags}}</ul>
        <p class="summary">{{page.summary}}</p><p class="param">{{page.params.custom}}</p>
        <nav>{{#site.languages}}<a href="{{url}}" hreflang="{{code}}" title="{{name}}">{{name}}</a>{{/site.languages}}</nav>
        <p class="t">{{#t}}plain{{/t}} | {{#t}}greeting{{/t}} | {{#t}}markupHTML{{/t}}</p>
        <main>{{{content}}}{{{sections}}}</main>
        </body></html>

        """

    static let themeStrings = """
        plain: Plain
        greeting: "Hello, {page.title}!"
        markupHTML: "<b>{page.title}</b>"
        hi: "Hi {text}"
        lessons:
          one: "{count} lesson"
          other: "{count} lessons"

        """

    /// The theme and static files every hostile site shares.
    static let themeFiles: [String: String] = [
        "themes/mini/components/every.yml": everySchema,
        "themes/mini/components/every.mustache": everyTemplate,
        "themes/mini/layouts/page.mustache": layout,
        "themes/mini/sections/list.mustache": "<section id=\"{{section.id}}\">{{{header}}}<ul>{{#items}}<li>{{{html}}}</li>{{/items}}</ul>{{{footer}}}</section>",
        "themes/mini/i18n/en.yml": themeStrings,
        "static/app.js": "",
        "static/pic.png": TestImages.png(40, 30),
    ]

    static func siteYML(_ payload: String, extra: String = "") -> String {
        let q = quoted(payload)
        return """
            title: \(q)
            theme: mini
            buildDate: 2026-11-22T12:00:00Z
            params:
              tagline: \(q)
              nested: { deep: \(q) }
            languages:
              en: { title: \(q), name: \(q) }
            \(extra)
            """
    }

    /// A site with `payload` in every place content reaches: site.yml, front matter, every field
    /// type (nested components too), a section id, the Markdown body, a JSON feed, a slug, and
    /// (when `translations`) the site's translation table, which overrides the theme's.
    static func hostileSite(_ payload: String, translations: Bool = true) -> [String: String] {
        let q = quoted(payload), inline = quoted("x " + payload)
        let link = quoted("https://example.com/?q=" + payload), fragment = quoted("#" + payload)
        var files = themeFiles
        files["site.yml"] = siteYML(payload)
        files["content/index.md"] = """
            ---
            title: \(q)
            summary: \(q)
            tags: [\(q), plain]
            custom: \(q)
            sections:
              - id: \(q)
                items:
                  - component: every
                    text: \(q)
                    markdown: \(q)
                    inline: \(inline)
                    number: 1280
                    percent: 0.42
                    currency: 12.5
                    date: 2026-11-01
                    link: \(link)
                    image: { src: /pic.png, alt: \(q) }
                    choice: loud
                    flag: true
                    list: [\(q), two]
                    items:
                      - { component: note, message: \(inline) }
                      - { component: heading, title: \(q) }
                  - { component: every, link: \(fragment) }
                  - { component: heading, title: \(q) }
            ---
            \(payload)

            x \(payload)

            """
        files["content/feed.json"] = "{\"title\": \(q), \"components\": [{\"component\": \"heading\", \"title\": \(q)}]}"
        // A slug is one URL segment of letters, digits and -_.~; others are refused (see
        // slugsThatAreNotOneSegmentAreRefused).
        if isSlug(payload) {
            files["content/slugged.md"] = "---\ntitle: Slugged\nslug: \(q)\n---\n"
        }
        if translations {
            files["i18n/en.yml"] = "plain: \(q)\nlessons:\n  one: \(quoted("{count} " + payload))\n  other: \(quoted("{count} " + payload))\n"
        }
        return files
    }

    /// A page holding one `every` component written as YAML flow, and an optional Markdown body.
    static func onePage(_ component: String, body: String = "", site: String? = nil) -> [String: String] {
        var files = themeFiles
        files["site.yml"] = site ?? siteYML("Test")
        files["content/index.md"] = "---\ntitle: T\ncomponents:\n  - \(component)\n---\n\(body)"
        return files
    }

    /// The start tags of the theme's own risky elements, from a build with harmless values.
    static func themeTags(_ files: [String: String]) throws -> Set<String> {
        let site = try TemporarySite(files)
        try site.build()
        let tags = Checker.riskyTags(inFolder: site.output)
        #expect(tags == ["<script src=\"/app.js\" defer>"], "the baseline holds the theme's script and nothing else: \(tags)")
        return tags
    }

    // MARK: Everything inert

    @Test func theComponentHasOneFieldOfEveryType() {
        for type in FieldType.allCases {
            #expect(Self.everySchema.contains("{ type: \(type.rawValue)"), "no field of type \(type.rawValue) in the hostile component")
        }
    }

    @Test(arguments: payloads)
    func aPayloadEverywhereBuildsAndNothingRuns(_ payload: String) throws {
        // Translation strings may not hold Mustache tags (mustacheInTranslationsIsRefusedOrInert).
        let translations = !payload.contains("{{")
        let allowed = try Self.themeTags(Self.hostileSite("harmless", translations: translations))
        let site = try TemporarySite(Self.hostileSite(payload, translations: translations))
        try site.build()

        let pages = Checker.htmlFiles(in: site.output)
        // Tag pages too: the payload is a tag, so it has a term page of its own.
        var expectedPages: Set<String> = ["index.html", "feed/index.html", "tags/index.html", "tags/plain/index.html"]
        if !Taxonomy.slug(payload).isEmpty { expectedPages.insert("tags/\(Taxonomy.slug(payload))/index.html") }
        if Self.isSlug(payload) { expectedPages.insert(payload + "/index.html") }
        #expect(Set(pages) == expectedPages, "the checker reads every page")
        let findings = Checker.findings(inFolder: site.output) { allowed.contains($0.source) }
        #expect(findings.isEmpty, "\(payload.debugDescription) runs: \(findings)")

        // The payload really reached each place, escaped.
        let e = Self.escaped(payload)
        let home = try site.read("index.html")
        var landings = [
            "page.title, site.title": "<title>\(e) · \(e)</title>",
            "page.title in an attribute": "<h1 title=\"\(e)\">\(e)</h1>",
            "site.title and params": "<p class=\"site\">\(e) \(e) \(e)</p>",
            "summary": "content=\"\(e)\"",
            "tags": "<li><a href=\"/tags/\(e)/\" title='\(e)'>\(e)</a></li>",
            "section id": "<section id=\"\(e)\">",
            "text field": "<h3 title=\"\(e)\" data-t='\(e)'>\(e)</h3>",
            "link field": "href=\"https://example.com/?q=\(e)\"",
            "image alt": "alt=\"\(e)\"",
            "list field": "<li title=\"\(e)\">\(e)</li>",
            "nested component": "<h2>\(e)</h2></div>",
            "translation placeholders": "| Hello, \(e)! | <b>\(e)</b></p>",
            "translation placeholder from a field": "<p class=\"hi\">Hi \(e)</p>",
            "language name": "title=\"\(e)\">\(e)</a></nav>",
        ]
        if translations {
            landings["translation"] = "<p class=\"t\">\(e) |"
            landings["plural translation"] = "<p class=\"count\">1,280 \(e)</p>"
        }
        for (place, expected) in landings.sorted(by: { $0.key < $1.key }) {
            #expect(home.contains(expected), "\(place): \(expected.debugDescription) not in the page")
        }
        #expect(try site.read("feed/index.html").contains("<h2>\(e)</h2>"), "JSON feed")
    }

    static func isSlug(_ text: String) -> Bool {
        text.unicodeScalars.allSatisfy { $0.properties.isAlphabetic || $0.properties.numericType != nil || "-_.~".unicodeScalars.contains($0) }
    }

    @Test(arguments: payloads.filter { !isSlug($0) })
    func slugsThatAreNotOneSegmentAreRefused(_ payload: String) throws {
        var files = Self.hostileSite("harmless")
        files["content/slugged.md"] = "---\ntitle: Slugged\nslug: \(Self.quoted(payload))\n---\n"
        let errors = try TemporarySite(files).diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("content/slugged.md:3:") == true && errors.first?.contains("slug must be one URL segment") == true, "\(errors)")
    }

    // MARK: Refused URLs

    enum URLField: String, CaseIterable, Sendable {
        case link, image, imageSource

        func component(_ url: String) -> String {
            switch self {
            case .link: "{ component: every, link: \(HostileContentTests.quoted(url)) }"
            case .image: "{ component: every, image: \(HostileContentTests.quoted(url)) }"
            case .imageSource: "{ component: every, image: { src: \(HostileContentTests.quoted(url)), alt: a } }"
            }
        }

        var field: String { self == .link ? "link" : "image" }
    }

    @Test(arguments: fieldURLs, URLField.allCases)
    func scriptURLsInLinkAndImageFieldsAreRefused(_ url: String, _ place: URLField) throws {
        let errors = try TemporarySite(Self.onePage(place.component(url))).diagnostics()
        Self.expectRefused(errors, url, in: "field '\(place.field)'")
    }

    enum MarkdownPlace: String, CaseIterable, Sendable {
        case markdownField, inlineField, nestedInlineField, bodyLink, bodyImage, bodyReference

        func files(_ url: String) -> [String: String] {
            let destination = url.contains("<") || url.contains(">") ? url : "<\(url)>"
            let link = "[x](\(destination))"
            switch self {
            case .markdownField: return HostileContentTests.onePage("{ component: every, markdown: \(HostileContentTests.quoted(link)) }")
            case .inlineField: return HostileContentTests.onePage("{ component: every, inline: \(HostileContentTests.quoted(link)) }")
            case .nestedInlineField: return HostileContentTests.onePage("{ component: every, items: [{ component: note, message: \(HostileContentTests.quoted(link)) }] }")
            case .bodyLink: return HostileContentTests.onePage("{ component: every }", body: "Text \(link)\n")
            case .bodyImage: return HostileContentTests.onePage("{ component: every }", body: "Text !\(link)\n")
            case .bodyReference: return HostileContentTests.onePage("{ component: every }", body: "Text [x][r]\n\n[r]: \(destination)\n")
            }
        }

        var what: String {
            switch self {
            case .markdownField: "field 'markdown'"
            case .inlineField: "field 'inline'"
            case .nestedInlineField: "field 'message'"
            case .bodyLink, .bodyImage, .bodyReference: "the page's Markdown"
            }
        }
    }

    @Test(arguments: markdownURLs, MarkdownPlace.allCases)
    func scriptURLsInMarkdownAreRefused(_ url: String, _ place: MarkdownPlace) throws {
        let errors = try TemporarySite(place.files(url)).diagnostics()
        Self.expectRefused(errors, url, in: place.what)
    }

    @Test(arguments: ["javascript:alert(1)", "JaVaScRiPt:alert(1)", "vbscript:msgbox(1)", "data:text/html;base64,PHNjcmlwdD4="])
    func scriptURLsInMarkdownAutolinksAreRefused(_ url: String) throws {
        let errors = try TemporarySite(Self.onePage("{ component: every, inline: \(Self.quoted("see <\(url)>")) }", body: "See <\(url)>.\n")).diagnostics()
        #expect(errors.count == 2, "\(errors)")
        #expect(errors.contains { $0.contains("error: refused URL in field 'inline'") }, "\(errors)")
        #expect(errors.contains { $0.contains("error: refused URL in the page's Markdown") }, "\(errors)")
    }

    /// One located error that names the place and the scheme.
    static func expectRefused(_ errors: [String], _ url: String, in what: String, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        let view = Checker.browserView(of: url)
        let scheme = String(view.prefix { $0 != ":" })
        #expect(errors.count == 1, "\(url.debugDescription): \(errors)", sourceLocation: sourceLocation)
        let message = errors.first ?? ""
        #expect(message.hasPrefix("content/index.md:"), "\(message)", sourceLocation: sourceLocation)
        // A control character hidden in the URL is refused as one before the URL is read.
        if let control = url.unicodeScalars.first(where: ControlCharacters.isControl) {
            #expect(message.contains(": error: this text holds the control character \(ControlCharacters.name(control))"), "\(url.debugDescription): \(message)", sourceLocation: sourceLocation)
            return
        }
        #expect(message.contains(": error: refused URL in \(what): a \(scheme): URL"), "\(url.debugDescription): \(message)", sourceLocation: sourceLocation)
    }

    @Test func rasterDataImagesPassAsImagesOnly() throws {
        let png = "data:image/png;base64,iVBORw0KGgo="
        let site = try TemporarySite(Self.onePage(
            "{ component: every, image: \(Self.quoted(png)), items: [{ component: every, image: { src: \"data:image/gif,GIF89a\", alt: a } }] }",
            body: "![x](data:image/webp;base64,UklGR)\n"))
        try site.build()
        let home = try site.read("index.html")
        #expect(home.contains("src=\"\(png)\"") && home.contains("src=\"data:image/gif,GIF89a\"") && home.contains("src=\"data:image/webp;base64,UklGR\""))
        #expect(Checker.findings(inFolder: site.output) { $0.source == "<script src=\"/app.js\" defer>" }.isEmpty)

        Self.expectRefused(try TemporarySite(Self.onePage("{ component: every, link: \(Self.quoted(png)) }")).diagnostics(), png, in: "field 'link'")
        Self.expectRefused(try TemporarySite(Self.onePage("{ component: every }", body: "[x](\(png))\n")).diagnostics(), png, in: "the page's Markdown")
    }

    // MARK: Typed fields

    enum TypedPlace: String, CaseIterable, Sendable {
        case number, percent, currency, currencyCode, date, choice, flag, list, items, componentCode, fieldName

        func component(_ value: String) -> String {
            let q = HostileContentTests.quoted(value)
            switch self {
            case .currencyCode: return "{ component: every, currency: { amount: 1, currency: \(q) } }"
            case .componentCode: return "{ component: \(q) }"
            case .fieldName: return "{ component: every, \(q): x }"
            default: return "{ component: every, \(rawValue): \(q) }"
            }
        }

        var message: String {
            switch self {
            case .currencyCode: "is not an ISO 4217 currency code"
            case .componentCode: "unknown component"
            case .fieldName: "unknown field"
            default: "field '\(rawValue)'"
            }
        }
    }

    @Test(arguments: ["<script>alert(1)</script>", "\" autofocus onfocus=\"alert(1)", "javascript:alert(1)", "{{#x}}{{/x}}{{{site}}}"], TypedPlace.allCases)
    func payloadsInTypedFieldsAreRefusedAtTheirPlace(_ payload: String, _ place: TypedPlace) throws {
        let errors = try TemporarySite(Self.onePage(place.component(payload))).diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("content/index.md:4:") == true, "\(errors)")
        #expect(errors.first?.contains(": error: ") == true && errors.first?.contains(place.message) == true, "\(errors)")
    }

    // MARK: Translations

    /// Translation strings are text: a Mustache tag in one (here reaching for the raw page title)
    /// is either refused where the table is loaded or printed as inert text, never rendered raw.
    @Test(arguments: [
        "{{#x}}{{/x}}{{{site}}}",
        "{{{ page.title }}}",
        "{{{\npage.title\n}}}",
        "{{#page.title}}{{{ . }}}{{/page.title}}",
        "{{{ site.params.tagline }}}",
        "{{ page.title }}",
        "{{&page.title}}",
        "{{> head}}",
        "{{=[[ ]]=}}[[{ page.title }]]",
    ])
    func mustacheInTranslationsIsRefusedOrInert(_ translation: String) throws {
        var files = Self.hostileSite("<script>alert(1)</script>", translations: false)
        files["themes/mini/layouts/page.mustache"] = Self.layout.replacingOccurrences(of: "<main>", with: "<p class=\"inj\">{{#t}}injPage{{/t}}</p><main>")
        files["themes/mini/components/every.mustache"] = Self.everyTemplate + "<p class=\"inj\">{{#t}}injField{{/t}}</p>"
        files["i18n/en.yml"] = "injPage: \(Self.quoted(translation))\ninjField: \(Self.quoted(translation))\n"
        let site = try TemporarySite(files)
        let errors = site.diagnostics()
        if errors.contains(where: { $0.contains(": error: ") }) {
            #expect(errors.allSatisfy { $0.hasPrefix("i18n/en.yml:") }, "refused at the translation: \(errors)")
            return
        }
        try site.build()
        let findings = Checker.findings(inFolder: site.output) { $0.source == "<script src=\"/app.js\" defer>" }
        #expect(findings.isEmpty, "translation \(translation.debugDescription) renders content raw: \(findings)")
    }

    // MARK: Markdown raw HTML

    static let rawHTMLBody = """
        <script>alert(1)</script>

        Text <img src=x onerror=alert(1)> and <a href="javascript:alert(1)">x</a>.

        <iframe src=//evil></iframe>

        <style>@import'//evil'</style>

        <svg onload=alert(1)>

        <object data=x></object><embed src=x>

        """

    @Test(arguments: ["", "markdown: { unsafe: false }\n"])
    func rawHTMLInMarkdownIsOmittedByDefault(_ setting: String) throws {
        let site = try TemporarySite(Self.onePage("{ component: every, markdown: \(Self.quoted(Self.rawHTMLBody)) }", body: Self.rawHTMLBody, site: Self.siteYML("Test", extra: setting)))
        try site.build()
        let home = try site.read("index.html")
        #expect(home.components(separatedBy: "<!-- raw HTML omitted -->").count - 1 == 2 * 10, "the Markdown field and the body each omit all ten pieces: \(home)")
        let findings = Checker.findings(inFolder: site.output) { $0.source == "<script src=\"/app.js\" defer>" }
        #expect(findings.isEmpty, "\(findings)")
    }

    /// `markdown.unsafe: true` lets raw HTML through, as documented: the checker must see every
    /// kind of it in real output (so its silence elsewhere means something), while Markdown links
    /// with script URLs stay refused.
    @Test func withUnsafeMarkdownTheCheckerSeesTheRawHTML() throws {
        let site = try TemporarySite(Self.onePage("{ component: every }", body: Self.rawHTMLBody, site: Self.siteYML("Test", extra: "markdown: { unsafe: true }\n")))
        try site.build()
        let findings = Checker.findings(inFolder: site.output) { $0.source == "<script src=\"/app.js\" defer>" }["index.html"] ?? []
        let found = Set(findings.map { "\($0.kind) \($0.tag.prefix(7))" })
        #expect(found == [
            "foreignTag <script", "eventHandler <img sr", "scriptURL <a href", "foreignTag <iframe", "foreignTag <style>",
            "foreignTag <svg on", "eventHandler <svg on", "foreignTag <object", "foreignTag <embed ",
        ], "\(findings)")

        try site.write("content/index.md", "---\ntitle: T\n---\n[x](javascript:alert(1))\n")
        Self.expectRefused(site.diagnostics(), "javascript:alert(1)", in: "the page's Markdown")
    }

    // MARK: site.yml baseURL

    /// Every internal URL starts with the path of `baseURL`. However it is written, that path must
    /// keep the theme's own script and links on the site: never a script URL, never another host.
    @Test(arguments: [
        "javascript:alert(1)//",
        "JaVaScRiPt:alert(1)/",
        "data:text/html,x/",
        "vbscript:msgbox(1)/",
        "https://example.com/\"><script>alert(1)</script>/",
        "/\" onmouseover=\"alert(1)/",
        "https://example.com//evil.example/",
        "https://example.com/%2F%2Fevil.example/",
        "/\\evil.example/",
        "https://example.com/\\evil.example/",
    ])
    func aHostileBaseURLKeepsInternalURLsOnTheSite(_ baseURL: String) throws {
        var files = Self.onePage("{ component: every, text: Hi, link: /, image: /pic.png }", site: Self.siteYML("Test", extra: "baseURL: \(Self.quoted(baseURL))\n"))
        files["content/index.md"]! += "[home](/) ![p](/pic.png)\n"
        let site = try TemporarySite(files)
        let errors = site.diagnostics()
        if errors.contains(where: { $0.contains(": error: ") }) {
            #expect(errors.allSatisfy { $0.hasPrefix("site.yml:") }, "refused at baseURL: \(errors)")
            return
        }
        try site.build()
        // The theme's script tag changes with the base path; its URL is checked below.
        let findings = Checker.findings(inFolder: site.output) { tag in
            tag.name == "script" && tag.attributes.map { $0.name } == ["src", "defer"] && (tag.value("src")?.hasSuffix("app.js") ?? false)
        }
        #expect(findings.isEmpty, "\(findings)")
        let offSite = try Checker.offSiteURLs(in: site.read("index.html"))
        #expect(offSite.isEmpty, "baseURL \(baseURL.debugDescription) sends internal URLs elsewhere: \(offSite)")
    }

    // MARK: The default theme

    /// The default theme's every component, from its schemas, with `payload` in each text-like
    /// field, plus page, site, language and translation values.
    static func defaultThemeSite(_ payload: String) throws -> [String: String] {
        let registry = try CatalogFixture().registry
        let q = quoted(payload)
        func item(_ code: String) -> String { defaultThemeItem(code, payload, registry: registry) }
        var files: [String: String] = [:]
        let theme = Repository.root + "/themes/default"
        let enumerator = FileManager.default.enumerator(atPath: theme)
        while let relative = enumerator?.nextObject() as? String {
            if let text = try? String(contentsOfFile: theme + "/" + relative, encoding: .utf8) { files["themes/default/" + relative] = text }
        }
        files["site.yml"] = """
            title: \(q)
            theme: default
            buildDate: 2026-11-22T12:00:00Z
            params: { tagline: \(q) }
            languages:
              en: { title: \(q), name: \(q) }
              fr: { name: \(q) }

            """
        let codes = registry.codes.filter { registry[$0]?.schema.file.hasPrefix(CatalogFixture.themeDirectory) == true && $0 != "segment" }
        files["content/index.md"] = """
            ---
            title: \(q)
            summary: \(q)
            tags: [\(q)]
            sections:
              - id: \(q)
                header: \(item("section-header"))
                items: [\(codes.map { item($0) }.joined(separator: ", "))]
                footer: \(item("section-footer"))
              - { layout: grid, items: [\(item("stat"))] }
              - { layout: carousel, header: \(item("section-header")), items: [\(item("article-thumb"))] }
            ---
            \(payload)

            x \(payload)

            """
        files["content/index.fr.md"] = "---\ntitle: \(q)\nsummary: \(q)\n---\n"
        if !payload.contains("{{") { files["i18n/en.yml"] = "skipLink: \(q)\n" }
        return files
    }

    /// One component of the default theme as YAML flow, with `payload` in its text-like fields.
    static func defaultThemeItem(_ code: String, _ payload: String, registry: ComponentRegistry, depth: Int = 0) -> String {
        let fields = registry[code]?.schema.fields ?? []
        let values = fields.map { "\($0.name): \(defaultThemeValue($0, payload, registry: registry, depth: depth))" }
        return "{ " + (["component: \(code)"] + values).joined(separator: ", ") + " }"
    }

    static func defaultThemeValue(_ field: FieldSpec, _ payload: String, registry: ComponentRegistry, depth: Int) -> String {
        let q = quoted(payload)
        switch field.type {
        case .text, .markdown: return q
        case .inlineMarkdown: return quoted("x " + payload)
        case .number: return "3"
        case .percent: return "0.5"
        case .currency: return "12.5"
        case .date: return "2026-11-01"
        case .link: return quoted("https://example.com/?q=" + payload)
        case .image: return "{ src: /assets/samples/avatar-1.svg, alt: \(q) }"
        case .enum: return quoted(field.values.first ?? "")
        case .bool: return "true"
        case .list: return "[\(q), b]"
        case .items:
            guard depth < 2 else { return "[]" }
            let codes = field.accepts.isEmpty ? ["text"] : field.accepts
            let children = codes.map { defaultThemeItem($0, payload, registry: registry, depth: depth + 1) }
            return "[" + children.joined(separator: ", ") + "]"
        }
    }

    @Test(arguments: [
        "<script>alert(1)</script>", "\"><img src=x onerror=alert(1)>", "'><svg onload=alert(1)>", "\" autofocus onfocus=\"alert(1)",
        "</title><script>alert(1)</script>", "{{#x}}{{/x}}{{{site}}}", "javascript:alert(1)", "<style>@import'//evil'</style>",
        "\u{2028}\u{2029}</script><script>alert(1)</script>",
    ])
    func theDefaultThemeKeepsEveryComponentInert(_ payload: String) throws {
        let baseline = try TemporarySite(Self.defaultThemeSite("harmless"), theme: nil)
        try baseline.build()
        let allowed = Checker.riskyTags(inFolder: baseline.output)
        // The theme's own scripts only (its behaviour, deferred, and the remembered colour scheme,
        // in the head), linked by their fingerprints with integrity hashes, and the search form,
        // which goes to the site's own search page.
        let scripts = allowed.filter { $0.hasPrefix("<script") }, forms = allowed.filter { $0.hasPrefix("<form") }
        #expect(scripts.count == 2 && scripts.allSatisfy { $0.wholeMatch(of: #/<script src="/assets/(tessera|color-scheme)\.[0-9a-f]{8}\.js" integrity="sha256-[A-Za-z0-9+/]{43}="( defer)?>/#) != nil }, "\(allowed)")
        #expect(allowed.count == scripts.count + forms.count && forms.allSatisfy { $0.wholeMatch(of: #/<form class="search-form" role="search" action="(/[a-z/]*)?" method="get">/#) != nil }, "\(allowed)")

        let site = try TemporarySite(Self.defaultThemeSite(payload), theme: nil)
        try site.build()
        #expect(Set(Checker.htmlFiles(in: site.output)).isSuperset(of: ["fr/index.html", "index.html"]))
        #expect(Checker.htmlFiles(in: site.output).allSatisfy { ["fr/index.html", "index.html"].contains($0) || $0.hasPrefix("tags/") || $0.hasPrefix("fr/tags/") }, "the pages and their tag pages")
        let findings = Checker.findings(inFolder: site.output) { allowed.contains($0.source) }
        #expect(findings.isEmpty, "\(payload.debugDescription) runs: \(findings)")
        let home = try site.read("index.html"), e = Self.escaped(payload)
        #expect(home.contains("<h1 class=\"page-title\">\(e)</h1>"))
        #expect(home.components(separatedBy: e).count - 1 >= 80, "the payload reaches every component")
    }

    // MARK: The checker checks

    @Test(arguments: [
        ("<script>alert(1)</script>", [Checker.Kind.foreignTag]),
        ("<SCRIPT SRC=//evil/x.js></SCRIPT>", [.foreignTag]),
        ("<script src=\"/app.js\" defer async></script>", [.foreignTag]),
        ("<img src=x onerror=alert(1)>", [.eventHandler]),
        ("<svg/onload=alert(1)>", [.foreignTag, .eventHandler]),
        ("<div title=\"x\" ONMOUSEOVER='alert(1)'>", [.eventHandler]),
        ("<input autofocus onfocus=alert(1)>", [.eventHandler]),
        ("<a href=\"javascript:alert(1)\">x</a>", [.scriptURL]),
        ("<a href=\" JaVa&#x09;ScRiPt&colon;alert(1)\">x</a>", [.scriptURL]),
        ("<a href='&#106;avascript:alert(1)'>x</a>", [.scriptURL]),
        ("<a href=&#0000106avascript&#58alert(1)>x</a>", [.scriptURL]),
        ("<a href=\"java&Tab;script:alert(1)\">x</a>", [.scriptURL]),
        ("<a href=\"\u{1}javascript:alert(1)\">x</a>", [.scriptURL]),
        ("<a href=\"vbscript:msgbox(1)\">x</a>", [.scriptURL]),
        ("<form action=\"javascript:alert(1)\"></form>", [.foreignTag, .scriptURL]),
        ("<button formaction=\"vbscript:msgbox(1)\">x</button>", [.scriptURL]),
        ("<iframe src=\"data:text/html,<script>alert(1)</script>\"></iframe>", [.foreignTag, .scriptURL]),
        ("<img src=\"data:image/svg+xml,<svg onload=alert(1)>\">", [.scriptURL]),
        ("<a href=\"data:image/png;base64,AAAA\">x</a>", [.scriptURL]),
        ("<iframe src=//evil>", [.foreignTag]),
        ("<iframe srcdoc=\"x\"></iframe>", [.foreignTag, .srcdoc]),
        ("<object data=x></object>", [.foreignTag]),
        ("<embed src=x>", [.foreignTag]),
        ("<svg><circle r=1></svg>", [.foreignTag]),
        ("<style>@import'//evil'</style>", [.foreignTag]),
        ("<base href=\"//evil/\">", [.foreignTag]),
    ] as [(String, [Checker.Kind])])
    func theCheckerCatchesEveryForbiddenPattern(_ html: String, _ kinds: [Checker.Kind]) {
        let page = "<!doctype html><title>T</title><script src=\"/app.js\" defer></script><main>\(html)</main>"
        let findings = Checker.findings(in: page) { $0.source == "<script src=\"/app.js\" defer>" }
        #expect(Set(findings.map(\.kind)) == Set(kinds), "\(html.debugDescription): \(findings)")
    }

    @Test(arguments: [
        "&lt;script&gt;alert(1)&lt;/script&gt;",
        "<h3 title=\"&quot;&gt;&lt;img src=x onerror=alert(1)&gt;\" data-t='&#39;&gt;&lt;svg onload=alert(1)&gt;'>x</h3>",
        "<p>onclick=alert(1) javascript:alert(1) a < b</p>",
        "<a href=\"/javascript:alert(1)/\">x</a><a href=\"https://example.com/?q=javascript:alert(1)\">x</a><a href=\"#javascript:alert(1)\">x</a>",
        "<a href=\"&amp;#106;avascript:alert(1)\">x</a>",
        "<img src=\"data:image/png;base64,iVBORw0KGgo=\" alt=\"\"><img src=\"data:image/webp;base64,UklGR\" alt=\"\">",
        "<a href=\"/\" data-onload=\"x\" aria-label=\"onerror\">x</a>",
        "<!-- raw HTML omitted -->",
    ])
    func theCheckerPassesInertMarkup(_ html: String) {
        let page = "<!doctype html><title>T</title><script src=\"/app.js\" defer></script><main>\(html)</main>"
        #expect(Checker.findings(in: page) { $0.source == "<script src=\"/app.js\" defer>" }.isEmpty, "\(html)")
    }

    @Test func theCheckerReadsEveryHTMLFileOfAFolder() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-checker-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let files = ["index.html": "<p>fine</p>", "a/b/index.html": "<p><img src=x onerror=alert(1)></p>", "404.html": "<script>x</script>", "notes.txt": "<script>x</script>"]
        for (path, text) in files {
            try FileManager.default.createDirectory(atPath: ((folder + "/" + path) as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(text.utf8).write(to: URL(fileURLWithPath: folder + "/" + path))
        }
        #expect(Checker.htmlFiles(in: folder) == ["404.html", "a/b/index.html", "index.html"])
        let findings = Checker.findings(inFolder: folder) { _ in false }
        #expect(findings.keys.sorted() == ["404.html", "a/b/index.html"])
        #expect(Checker.riskyTags(inFolder: folder) == ["<script>"])
    }

    @Test func theOffSiteCheckSeesOtherHosts() {
        #expect(Checker.offSiteURLs(in: "<a href=\"/a/\">x</a><img src=\"/b.png\"><a href=\"#top\">x</a>").isEmpty)
        #expect(Checker.offSiteURLs(in: "<script src=\"//evil/app.js\"></script><a href=\"/\\evil/\">x</a><a href=\"https://evil/\">x</a><link href=\"/&#47;evil/\">").count == 4)
    }

    // MARK: Helpers

    /// A YAML (and JSON) double-quoted scalar holding `text` exactly: characters YAML would fold,
    /// strip or refuse are written as `\u` escapes.
    static func quoted(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            default:
                let value = scalar.value
                if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0x2028 || value == 0x2029 || value == 0xFEFF {
                    let hex = String(value, radix: 16, uppercase: true)
                    result += "\\u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
                } else {
                    result.unicodeScalars.append(scalar)
                }
            }
        }
        return result + "\""
    }

    /// What `{{value}}` prints: Mustache's HTML escaping.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }

    /// Reads built HTML the way a browser reads start tags and attributes, and reports what would
    /// run: risky elements the theme did not write, event-handler attributes, and script or data
    /// URLs in URL attributes (after character references are decoded and the whitespace and
    /// control characters a browser ignores are dropped). It reads every `<` followed by a letter
    /// as a tag, even inside `<title>`, comments or scripts: stricter than a browser, never laxer.
    enum Checker {
        enum Kind: String, Sendable, CustomStringConvertible {
            case foreignTag, eventHandler, scriptURL, srcdoc
            var description: String { rawValue }
        }

        struct Finding: CustomStringConvertible {
            var kind: Kind
            var tag: String
            var description: String { "\(kind): \(tag)" }
        }

        struct Tag {
            var name: String
            var attributes: [(name: String, value: String?)]
            /// The tag as written, from `<` to `>`.
            var source: String

            func value(_ attribute: String) -> String? {
                attributes.first { $0.name == attribute }?.value ?? nil
            }
        }

        static let riskyElements: Set<String> = ["script", "iframe", "frame", "frameset", "object", "embed", "applet", "svg", "math", "style", "base", "form"]
        static let urlAttributes: Set<String> = ["href", "src", "action", "formaction", "xlink:href", "poster", "data", "cite", "background", "ping", "srcset"]
        static let refusedSchemes = ["javascript:", "vbscript:", "data:"]
        static let imageDataTypes = ["data:image/png", "data:image/jpeg", "data:image/gif", "data:image/webp"]

        static func findings(in html: String, themeWrote: (Tag) -> Bool) -> [Finding] {
            var findings: [Finding] = []
            for tag in tags(in: html) {
                if riskyElements.contains(tag.name) && !themeWrote(tag) {
                    findings.append(Finding(kind: .foreignTag, tag: tag.source))
                }
                for (name, value) in tag.attributes {
                    if name.hasPrefix("on") { findings.append(Finding(kind: .eventHandler, tag: tag.source)) }
                    if name == "srcdoc" { findings.append(Finding(kind: .srcdoc, tag: tag.source)) }
                    guard urlAttributes.contains(name), let value else { continue }
                    let url = browserView(of: value)
                    guard refusedSchemes.contains(where: { url.hasPrefix($0) }) else { continue }
                    if name == "src", imageDataTypes.contains(where: { url.hasPrefix($0 + ";") || url.hasPrefix($0 + ",") }) { continue }
                    findings.append(Finding(kind: .scriptURL, tag: tag.source))
                }
            }
            return findings
        }

        /// Findings of every `.html` file under `folder`, by relative path; files without any are left out.
        static func findings(inFolder folder: String, themeWrote: (Tag) -> Bool) -> [String: [Finding]] {
            var result: [String: [Finding]] = [:]
            for path in htmlFiles(in: folder) {
                let html = (try? String(contentsOfFile: folder + "/" + path, encoding: .utf8)) ?? "<script>unreadable</script>"
                let found = findings(in: html, themeWrote: themeWrote)
                if !found.isEmpty { result[path] = found }
            }
            return result
        }

        /// The risky start tags in a build: from a harmless build, the ones the theme writes.
        static func riskyTags(inFolder folder: String) -> Set<String> {
            var result: Set<String> = []
            for path in htmlFiles(in: folder) {
                let html = (try? String(contentsOfFile: folder + "/" + path, encoding: .utf8)) ?? ""
                for tag in tags(in: html) where riskyElements.contains(tag.name) { result.insert(tag.source) }
            }
            return result
        }

        static func htmlFiles(in folder: String) -> [String] {
            var result: [String] = []
            let enumerator = FileManager.default.enumerator(atPath: folder)
            while let relative = enumerator?.nextObject() as? String {
                if relative.hasSuffix(".html") { result.append(relative) }
            }
            return result.sorted()
        }

        /// URL attributes that leave the site: a scheme, or a path a browser reads as another host
        /// (`//host`, and `/\host` since browsers read backslashes as slashes in http URLs).
        static func offSiteURLs(in html: String) -> [String] {
            tags(in: html).flatMap { tag in
                tag.attributes.compactMap { attribute -> String? in
                    guard urlAttributes.contains(attribute.name), let value = attribute.value else { return nil }
                    let url = browserView(of: value).replacingOccurrences(of: "\\", with: "/")
                    let scheme = url.prefix { $0 != ":" && $0 != "/" && $0 != "?" && $0 != "#" }
                    let hasScheme = url.dropFirst(scheme.count).hasPrefix(":") && !scheme.isEmpty
                    return url.hasPrefix("//") || hasScheme ? tag.source : nil
                }
            }
        }

        /// A URL as a browser reads its scheme: character references decoded, ASCII whitespace and
        /// control characters dropped, lowercased.
        static func browserView(of value: String) -> String {
            let decoded = decodingCharacterReferences(value)
            return String(String.UnicodeScalarView(decoded.unicodeScalars.filter { $0.value > 0x20 && !(0x7F...0x9F).contains($0.value) })).lowercased()
        }

        static func isLetter(_ c: Unicode.Scalar) -> Bool { (0x41...0x5A).contains(c.value) || (0x61...0x7A).contains(c.value) }
        static func isDigit(_ c: Unicode.Scalar) -> Bool { (0x30...0x39).contains(c.value) }
        static func isHexDigit(_ c: Unicode.Scalar) -> Bool { isDigit(c) || (0x41...0x46).contains(c.value) || (0x61...0x66).contains(c.value) }

        static let namedReferences: [String: String] = [
            "colon": ":", "tab": "\t", "newline": "\n", "nbsp": "\u{A0}", "amp": "&", "lt": "<", "gt": ">", "quot": "\"",
            "apos": "'", "sol": "/", "lpar": "(", "rpar": ")", "period": ".", "num": "#", "quest": "?", "equals": "=",
        ]

        /// `&#106;`, `&#x6A`, `&#0000106`, `&colon;`, `&Tab;`: numeric references with or without
        /// `;`, and the named ones that can spell a scheme.
        static func decodingCharacterReferences(_ text: String) -> String {
            let s = Array(text.unicodeScalars)
            var result = String.UnicodeScalarView()
            func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(s[range])) }
            var i = 0
            while i < s.count {
                if s[i] == "&" {
                    var j = i + 1
                    if j < s.count, s[j] == "#" {
                        j += 1
                        let hex = j < s.count && (s[j] == "x" || s[j] == "X")
                        if hex { j += 1 }
                        let digits = j
                        while j < s.count, hex ? isHexDigit(s[j]) : isDigit(s[j]) { j += 1 }
                        if j > digits {
                            let value = UInt32(string(digits..<j), radix: hex ? 16 : 10)
                            result.append(value.flatMap { Unicode.Scalar($0) } ?? "\u{FFFD}")
                            if j < s.count, s[j] == ";" { j += 1 }
                            i = j
                            continue
                        }
                    } else {
                        while j < s.count, isLetter(s[j]) { j += 1 }
                        if let replacement = namedReferences[string((i + 1)..<j).lowercased()] {
                            result.append(contentsOf: replacement.unicodeScalars)
                            if j < s.count, s[j] == ";" { j += 1 }
                            i = j
                            continue
                        }
                    }
                }
                result.append(s[i])
                i += 1
            }
            return String(result)
        }

        /// Every start tag: `<` and an ASCII letter, the name, then attributes as the HTML tokenizer
        /// reads them (names end at whitespace, `/`, `>` or `=`; values quoted or up to whitespace or `>`).
        static func tags(in html: String) -> [Tag] {
            let s = Array(html.unicodeScalars)
            func string(_ range: Range<Int>) -> String { String(String.UnicodeScalarView(s[range])) }
            func isSpace(_ c: Unicode.Scalar) -> Bool { c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\u{0C}" }
            var tags: [Tag] = []
            var i = 0
            while i < s.count {
                guard s[i] == "<", i + 1 < s.count, isLetter(s[i + 1]) else { i += 1; continue }
                var j = i + 1
                while j < s.count, !isSpace(s[j]), s[j] != "/", s[j] != ">" { j += 1 }
                let name = string((i + 1)..<j).lowercased()
                var attributes: [(name: String, value: String?)] = []
                while j < s.count {
                    while j < s.count, isSpace(s[j]) || s[j] == "/" { j += 1 }
                    guard j < s.count, s[j] != ">" else { break }
                    let nameStart = j
                    j += 1 // the first character belongs to the name, even "="
                    while j < s.count, !isSpace(s[j]), s[j] != "/", s[j] != ">", s[j] != "=" { j += 1 }
                    let attribute = string(nameStart..<j).lowercased()
                    var k = j
                    while k < s.count, isSpace(s[k]) { k += 1 }
                    var value: String?
                    if k < s.count, s[k] == "=" {
                        k += 1
                        while k < s.count, isSpace(s[k]) { k += 1 }
                        if k < s.count, s[k] == "\"" || s[k] == "'" {
                            let quote = s[k]
                            var end = k + 1
                            while end < s.count, s[end] != quote { end += 1 }
                            value = string((k + 1)..<end)
                            j = min(end + 1, s.count)
                        } else {
                            var end = k
                            while end < s.count, !isSpace(s[end]), s[end] != ">" { end += 1 }
                            value = string(k..<end)
                            j = end
                        }
                    }
                    attributes.append((attribute, value))
                }
                let end = min(j + 1, s.count)
                tags.append(Tag(name: name, attributes: attributes, source: string(i..<end)))
                i = end
            }
            return tags
        }
    }
}
