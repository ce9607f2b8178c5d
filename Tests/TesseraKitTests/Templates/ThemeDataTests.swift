import Foundation
import Testing
@testable import TesseraKit

/// What themes get beyond fields: strict sub-keys, page metadata for meta tags and articles,
/// image sizes, relative dates worded alike in every language, a switcher that never links nowhere.
@Suite struct ThemeDataTests {
    // MARK: Strict sub-keys

    @Test func aMisspeltSubKeyIsALocatedErrorWithTheValuesParts() throws {
        let site = try TemporarySite([
            "themes/mini/components/course.mustache": "<h3>{{title}}</h3>\n<time datetime=\"{{updated.isoo}}\">{{updated}}</time>",
            "content/index.md": "---\ncomponents:\n  - { component: course, title: A, progress: 0.5, updated: 2026-11-20 }\n---\n",
        ])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.count == 1)
        let text = diagnostics.first ?? ""
        #expect(text.hasPrefix("themes/mini/components/course.mustache:2:17: error: 'isoo' is not a part of 'updated' in component 'course'"), "\(text)")
        #expect(text.contains("did you mean 'iso'?"), "\(text)")
        #expect(text.contains("its parts are: text, iso, relative"), "\(text)")
    }

    @Test func aMisspeltPartOfANumberOrOfThePageIsAnErrorToo() throws {
        let site = try TemporarySite([
            "themes/mini/components/course.mustache": "<progress value=\"{{progress.valeu}}\"></progress>",
            "content/index.md": "---\ncomponents:\n  - { component: course, title: A, progress: 0.5 }\n---\n",
        ])
        let text = site.diagnostics().joined(separator: "\n")
        #expect(text.contains("'valeu' is not a part of 'progress' in component 'course'") && text.contains("did you mean 'value'?"), "\(text)")
        let layout = try TemporarySite(["themes/mini/layouts/page.mustache": "<title>{{page.titel}}</title><main>{{{sections}}}</main>\n"])
        let layoutText = layout.diagnostics().joined(separator: "\n")
        #expect(layoutText.contains("layouts/page.mustache:1:8: error: 'titel' is not a part of 'page' in layout 'page'") && layoutText.contains("did you mean 'title'?"), "\(layoutText)")
    }

    /// Free-form data may lack a key; a name inside a section still looks through the stack; an
    /// absent optional value has no parts to check.
    @Test func openDataSectionsAndAbsentValuesStayLenient() throws {
        let site = try TemporarySite([
            "themes/mini/layouts/page.mustache": "<title>{{page.params.kicker}}{{site.params.nothing}}{{page.menus.footer}}</title><main>{{#page.date}}{{page.title}}{{/page.date}}{{{sections}}}</main>\n",
            "themes/mini/components/course.mustache": "<h3>{{title}}</h3>{{updated.iso}}{{#updated}}{{title}}{{/updated}}",
            "content/index.md": "---\ntitle: Home\ndate: 2026-11-01\ncomponents:\n  - { component: course, title: A, progress: 0.5 }\n---\n",
        ])
        try site.build()
        #expect(try site.read("index.html").contains("<h3>A</h3>"))
    }

    /// Sub-keys are known from the parsed name, so other delimiters and sections check them too;
    /// printing a list or an object, which has no text, is an error at the tag.
    @Test func subKeysAreCheckedWhateverTheDelimitersAndListsDoNotPrint() throws {
        let delimiters = try TemporarySite(["themes/mini/layouts/page.mustache": "{{=<% %>=}}<title><%page.titel%></title><main><%#page.date%>x<%/page.date%><%&sections%></main>\n"])
        let text = delimiters.diagnostics().joined(separator: "\n")
        #expect(text.contains("'titel' is not a part of 'page' in layout 'page'"), "\(text)")
        let list = try TemporarySite([
            "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title>\n<p>{{page.tags}}</p><main>{{{sections}}}</main>\n",
            "content/index.md": "---\ntitle: Home\ntags: [a, b]\n---\n",
        ])
        let listText = list.diagnostics().joined(separator: "\n")
        #expect(listText.contains("layouts/page.mustache:2:4: error: 'page.tags' is a list and has no text to print in layout 'page'"), "\(listText)")
        #expect(listText.contains("{{#page.tags}}{{.}}{{/page.tags}}"), "\(listText)")
    }

    /// A partial named by a value can include itself, which no check before rendering sees: the
    /// render stops at a depth and says so, instead of recursing until the stack overflows.
    @Test func aDynamicPartialThatIncludesItselfIsAnError() throws {
        let site = try TemporarySite([
            "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title><main>{{>*page.params.which}}{{{sections}}}</main>\n",
            "themes/mini/partials/self.mustache": "x{{>*page.params.which}}",
            "content/index.md": "---\ntitle: Home\nwhich: self\n---\n",
        ])
        let text = site.diagnostics().joined(separator: "\n")
        #expect(text.contains("partials nested more than 100 deep through 'self' in layout 'page'"), "\(text)")
    }

    // MARK: Page metadata

    @Test func pagesHaveADescriptionAWordCountAndAReadingTime() throws {
        let words = Array(repeating: "word", count: 460).joined(separator: " ")
        let site = try TemporarySite([
            "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title><meta name=\"description\" content=\"{{page.description}}\"><p>{{page.wordCount}} {{#page.readingTime}}{{page.readingTime}} min{{/page.readingTime}}</p><main>{{{content}}}</main>\n",
            "content/index.md": "---\ntitle: Home\n---\n# Heading\n\nThe *first* paragraph, with [a link](/a/) and `code`.\n\nSecond.\n",
            "content/a.md": "---\ntitle: A\nsummary: The summary wins.\n---\n\(words)\n",
            "content/b.md": "---\ntitle: B\ndescription: Written by hand.\nsummary: Not this.\n---\nBody.\n",
        ])
        try site.build()
        let home = try site.read("index.html")
        #expect(home.contains("content=\"The first paragraph, with a link and code.\""), "\(home)")
        #expect(home.contains("<p>11 1 min</p>"), "\(home)")
        let a = try site.read("a/index.html")
        #expect(a.contains("content=\"The summary wins.\"") && a.contains("<p>460 2 min</p>"), "\(a)")
        #expect(try site.read("b/index.html").contains("content=\"Written by hand.\""))
    }

    @Test func aLongFirstParagraphIsCutAtAWord() {
        func summary(_ text: String) -> String? { MarkdownSummary.summary(of: text, length: 160, renderer: MarkdownRenderer()) }
        let text = String(repeating: "lorem ipsum ", count: 40)
        let cut = summary(text)!
        #expect(cut.count <= 161 && cut.hasSuffix("…") && !cut.contains("  "))
        #expect(summary("# Only a heading\n\n- a list\n") == nil)
        #expect(summary("```\ncode\n```\n\nAfter ![img](x.png) the **fence**.\n") == "After the fence.")
        #expect(MarkdownText.wordCount("Don't stop — well-known 2026 東京") == 6)
    }

    /// The word count's rule, over Unicode scalars.
    static func referenceWordCount(_ text: String) -> Int {
        var count = 0, inWord = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            if (0x3040...0x30FF).contains(value) || (0x3400...0x9FFF).contains(value) || (0xAC00...0xD7AF).contains(value) {
                count += 1
                inWord = false
            } else if scalar.properties.isAlphabetic || (0x30...0x39).contains(value) {
                if !inWord { count += 1 }
                inWord = true
            } else if value == 0x27 || value == 0x2019 || value == 0x2D {
                continue
            } else {
                inWord = false
            }
        }
        return count
    }

    /// The byte-wise count agrees with the rule written over Unicode scalars, on every script
    /// and punctuation the rule names, at every split of a sample text.
    @Test func theWordCountFollowsItsRuleInEveryScript() {
        let reference = Self.referenceWordCount
        let sample = "Héllo wörld, don’t-stop 2026 — Привет мир! مرحبا بالعالم 東京タワー 한국어 😀 emoji x\u{301}y Ω≈ç √ done.\n\n## Next\tpara_graph"
        for cut in sample.indices {
            let text = String(sample[..<cut]) + " " + String(sample[cut...])
            #expect(MarkdownText.wordCount(text) == reference(text), "\(text)")
        }
        #expect(MarkdownText.wordCount("") == 0)
    }

    /// Counted eight ASCII bytes at a time, and byte by byte around `'`, `-` and characters
    /// beyond ASCII: generated texts of every ASCII byte next to words, digits, apostrophes,
    /// hyphens and other scripts, at lengths around the eight-byte steps, count as the rule does.
    @Test func theWordCountEightBytesAtATimeFollowsItsRule() {
        let ascii = (0..<128).map { String(UnicodeScalar(UInt8($0))) }
        let pieces = ["word", "Words", "ABCDEFGH", "don't", "well-known", "2026", "x9", " ", "  ", "\n", "-", "'", "’", "—", "東京", "Привет", "é", "x\u{301}y", "--", "''", "a-", "-a"]
        var generator = SeededGenerator(seed: 8)
        for round in 0..<20_000 {
            let text = (0..<Int(generator.next() % 16)).map { _ in
                generator.next() % 3 == 0 ? ascii[Int(generator.next() % 128)] : pieces[Int(generator.next() % UInt64(pieces.count))]
            }.joined()
            #expect(MarkdownText.wordCount(text) == Self.referenceWordCount(text), "round \(round): \(text.debugDescription)")
        }
    }

    // MARK: Image sizes

    @Test func imageSizesAreReadFromFileHeaders() {
        var png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + Data("IHDR".utf8)
        png += Data([0, 0, 0x02, 0x80, 0, 0, 0x01, 0x68, 8, 6, 0, 0, 0])
        #expect(ImageSize.parse(png) == ImageSize(width: 640, height: 360))
        let gif = Data("GIF89a".utf8) + Data([0x20, 0x03, 0x58, 0x02, 0, 0, 0])
        #expect(ImageSize.parse(gif) == ImageSize(width: 800, height: 600))
        // SOI, an APP0 segment, then a baseline frame header: height 480, width 1024.
        let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x06, 0x4A, 0x46, 0x49, 0x46, 0xFF, 0xC0, 0x00, 0x11, 0x08, 0x01, 0xE0, 0x04, 0x00, 0x03, 0, 0, 0, 0, 0, 0])
        #expect(ImageSize.parse(jpeg) == ImageSize(width: 1024, height: 480))
        #expect(ImageSize.parse(Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"64px\" height=\"32\">".utf8)) == ImageSize(width: 64, height: 32))
        #expect(ImageSize.parse(Data("<?xml version=\"1.0\"?>\n<svg viewBox=\"0 0 640 360\" xmlns=\"http://www.w3.org/2000/svg\">".utf8)) == ImageSize(width: 640, height: 360))
        var webp = Data("RIFF".utf8) + Data([0, 0, 0, 0]) + Data("WEBPVP8X".utf8) + Data(repeating: 0, count: 8)
        webp += Data([0x7F, 0x02, 0x00, 0x67, 0x01, 0x00])
        #expect(ImageSize.parse(webp) == ImageSize(width: 640, height: 360))
        #expect(ImageSize.parse(Data("not an image".utf8)) == nil)
    }

    @Test func imageValuesCarryTheirFilesSize() throws {
        let site = try TemporarySite([
            "themes/mini/components/figure.yml": "fields:\n  image: { type: image, required: true }\n  remote: { type: image }\n",
            "themes/mini/components/figure.mustache": "<img src=\"{{image}}\" width=\"{{image.width}}\" height=\"{{image.height}}\">{{#remote}}<img src=\"{{remote}}\"{{#remote.width}} width=\"{{remote.width}}\"{{/remote.width}}>{{/remote}}",
            "static/pic.svg": "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 120 80\"></svg>\n",
            "content/index.md": "---\ncomponents:\n  - { component: figure, image: /pic.svg, remote: \"https://example.com/x.png\" }\n---\n",
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<img src=\"/pic.svg\" width=\"120\" height=\"80\">"), "\(html)")
        #expect(html.contains("<img src=\"https://example.com/x.png\">"), "an external image has no known size")
    }

    // MARK: Relative dates

    /// The unit is chosen by elapsed time and calendar days, never by where a locale's week
    /// starts: the same date reads alike in every language.
    @Test func relativeDatesUseTheSameUnitInEveryLanguage() throws {
        let build = Date(timeIntervalSince1970: 1_795_176_000) // 2026-11-22 (a Sunday) 12:00 UTC
        let date = build.addingTimeInterval(-9 * 86400) // 2026-11-13: nine days before
        var texts: [String: String] = [:]
        for language in ["en", "fr", "de"] {
            let context = TransformContext(locale: Locale(identifier: language), timeZone: TimeZone(identifier: "UTC")!, buildDate: build, markdown: MarkdownRenderer(), links: LinkResolver())
            texts[language] = DateTransformer.relative(date, context: context, hasTime: false)
        }
        #expect(texts == ["en": "last week", "fr": "la semaine dernière", "de": "letzte Woche"])
        #expect(DateTransformer.relativeUnit(seconds: -2 * 3600, days: 0, hasTime: true) == (.hour, -2))
        #expect(DateTransformer.relativeUnit(seconds: -2 * 3600, days: 0, hasTime: false) == (.day, 0))
        #expect(DateTransformer.relativeUnit(seconds: -20 * 86400, days: -20, hasTime: true) == (.week, -3))
        #expect(DateTransformer.relativeUnit(seconds: 0, days: 45, hasTime: false) == (.month, 1))
        #expect(DateTransformer.relativeUnit(seconds: 0, days: -800, hasTime: false) == (.year, -2))
    }

    // MARK: Languages

    /// `page.languages` links this page's version in each language, else that language's home,
    /// and leaves out a language that has neither.
    @Test func theLanguageSwitcherLinksOnlyPagesThatExist() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nlanguages:\n  en: {}\n  fr: {}\n  de: {}\n",
            "themes/mini/layouts/page.mustache": "<main>{{#page.languages}}[{{lang}} {{url}}{{#hasPage}} same{{/hasPage}}]{{/page.languages}}</main>\n",
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/index.fr.md": "---\ntitle: Accueil\n---\n",
            "content/about.md": "---\ntitle: About\n---\n",
        ])
        try site.build()
        #expect(try site.read("about/index.html").contains("<main>[en /about/ same][fr /fr/]</main>"))
        #expect(try site.read("index.html").contains("<main>[en / same][fr /fr/ same]</main>"))
        let coverage = PageCoverage(pages: try SiteBuilder(options: site.options(write: false)).run().site.pages, languages: [
            SiteLanguage(code: "en", isDefault: true), SiteLanguage(code: "fr", isDefault: false), SiteLanguage(code: "de", isDefault: false),
        ])
        #expect(coverage.lines == ["en: 2 of 2 pages", "fr: 1 of 2 pages, missing: about.md", "de: 0 of 2 pages, missing: about.md, index.md"])
    }
}
