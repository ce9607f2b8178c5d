import Foundation
import Testing
@testable import TesseraKit

/// Languages through the real pipeline: URLs per language, translations of a page, formats and
/// strings of the page's language, plural forms, right-to-left, missing translations.
@Suite struct MultilingualSiteTests {
    static let files: [String: String] = [
        "site.yml": """
            theme: mini
            buildDate: 2026-11-22T12:00:00Z
            language: en
            languages:
              en: { title: Courses }
              fr: { title: Cours }
              de: {}
              ar: {}
            """,
        "themes/mini/layouts/page.mustache": """
            <html lang="{{page.lang}}" dir="{{page.dir}}"><title>{{site.title}}</title>
            {{#page.translations}}<link rel="alternate" hreflang="{{lang}}" href="{{url}}">{{/page.translations}}
            <nav>{{#page.translations}}{{^current}}<a href="{{url}}">{{name}}</a>{{/current}}{{/page.translations}}</nav>
            {{{sections}}}<footer>{{#t}}footer.made{{/t}}</footer></html>
            """,
        "themes/mini/components/lessons.yml": """
            shell: none
            fields:
              left: { type: number, required: true }
              share: { type: percent }
              price: { type: currency, currency: EUR }
              updated: { type: date, format: relative }
              cta: { type: text, default: { t: seeAll } }
            """,
        "themes/mini/components/lessons.mustache": """
            <p>{{#t}}lessonsLeft count=left{{/t}} · {{share}} · {{price}} · {{updated}} · {{cta}}</p>
            """,
        "themes/mini/i18n/en.yml": """
            seeAll: See all
            footer: { made: "Made with {site.title}" }
            lessonsLeft: { one: "{count} lesson left", other: "{count} lessons left" }
            """,
        "themes/mini/i18n/fr.yml": """
            seeAll: Tout voir
            footer: { made: "Fait avec {site.title}" }
            lessonsLeft: { one: "{count} leçon restante", other: "{count} leçons restantes" }
            """,
        "themes/mini/i18n/de.yml": """
            seeAll: Alle ansehen
            footer: { made: "Gemacht mit {site.title}" }
            lessonsLeft: { one: "{count} Lektion übrig", other: "{count} Lektionen übrig" }
            """,
        "themes/mini/i18n/ar.yml": """
            seeAll: عرض الكل
            footer: { made: "صنع باستخدام {site.title}" }
            lessonsLeft: { zero: "لا دروس", one: "درس واحد", two: "درسان", few: "{count} دروس", many: "{count} درسًا", other: "{count} درس" }
            """,
        "i18n/fr.yml": "seeAll: Voir tout\n",
        "content/index.md": "---\ncomponents:\n  - { component: lessons, left: 1, share: 0.42, price: 1234.5, updated: 2026-11-19T12:00:00Z }\n---\n",
        "content/index.fr.md": "---\ncomponents:\n  - { component: lessons, left: 1.5, share: 0.42, price: 1234.5, updated: 2026-11-19T12:00:00Z }\n---\n",
        "content/index.de.md": "---\ncomponents:\n  - { component: lessons, left: 3, share: 0.42, price: 1234.5, updated: 2026-11-19T12:00:00Z }\n---\n",
        "content/about.md": "---\nlang: ar\ncomponents:\n  - { component: lessons, left: 3, share: 0.42, updated: 2026-11-19T12:00:00Z }\n---\n",
    ]

    @Test func eachLanguageUnderItsPrefixWithItsFormatsStringsAndPlurals() throws {
        let site = try TemporarySite(Self.files)
        try site.build()
        let en = try site.read("index.html")
        #expect(en.contains("<html lang=\"en\" dir=\"ltr\"><title>Courses</title>"))
        #expect(en.contains("<p>1 lesson left · 42% · €1,234.50 · 3 days ago · See all</p>"))
        #expect(en.contains("<footer>Made with Courses</footer>"))
        #expect(en.contains("<link rel=\"alternate\" hreflang=\"fr\" href=\"/fr/\">"))
        #expect(en.contains("<nav><a href=\"/fr/\">Français</a><a href=\"/de/\">Deutsch</a></nav>"))

        let fr = try site.read("fr/index.html")
        #expect(fr.contains("<title>Cours</title>"))
        #expect(fr.contains("<p>1,5 leçon restante · 42\u{A0}% · 1\u{202F}234,50\u{A0}€ · il y a 3 jours · Voir tout</p>"), "French 1.5 is 'one'; the site's i18n/fr.yml overrides the theme's seeAll")
        #expect(fr.contains("<footer>Fait avec Cours</footer>"))

        let de = try site.read("de/index.html")
        #expect(de.contains("<p>3 Lektionen übrig · 42\u{A0}% · 1.234,50\u{A0}€ · vor 3 Tagen · Alle ansehen</p>"))

        let ar = try site.read("ar/about/index.html")
        #expect(ar.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(ar.contains("<p>3 دروس · "), "Arabic 3 is 'few'")
        #expect(ar.contains("عرض الكل"))
    }

    @Test func sameBuildDateSameBytesOtherBuildDateOnlyRelativeDatesChange() throws {
        let site = try TemporarySite(Self.files)
        try site.build()
        let first = try ["index.html", "fr/index.html", "de/index.html", "ar/about/index.html"].map(site.read)
        try site.build()
        #expect(try ["index.html", "fr/index.html", "de/index.html", "ar/about/index.html"].map(site.read) == first)
        var options = site.options()
        options.buildDate = DateParsing.parse("2026-11-23T12:00:00Z", timeZone: .gmt)
        try SiteBuilder(options: options).build()
        let later = try site.read("fr/index.html")
        #expect(later == first[1].replacingOccurrences(of: "il y a 3 jours", with: "il y a 4 jours"))
    }

    @Test func missingTranslationIsAnErrorNamingKeyLanguageAndTemplate() throws {
        var files = Self.files
        files["themes/mini/i18n/de.yml"] = "seeAll: Alle ansehen\nlessonsLeft: { one: \"{count} Lektion\", other: \"{count} Lektionen\" }\n"
        let site = try TemporarySite(files)
        #expect(site.diagnostics() == [
            "themes/mini/layouts/page.mustache:4:23: error: missing translation 'footer.made' for language 'de' in layout 'page'\n    hint: add `footer.made: …` to i18n/de.yml",
        ])
    }

    @Test func missingTranslationsCanBeWarningsFallingBackToTheDefaultLanguage() throws {
        var files = Self.files
        files["themes/mini/i18n/de.yml"] = "seeAll: Alle ansehen\nlessonsLeft: { one: \"{count} Lektion\", other: \"{count} Lektionen\" }\n"
        files["site.yml"] = files["site.yml"]! + "\ni18n: { missingTranslations: warning }\n"
        let site = try TemporarySite(files)
        let report = try site.build()
        #expect(report.warnings.map(\.message) == ["missing translation 'footer.made' for language 'de' in layout 'page'"])
        #expect(try site.read("de/index.html").contains("<footer>Made with Courses</footer>"))
    }

    @Test func pageInALanguageTheSiteDoesNotHaveIsAnError() throws {
        var files = Self.files
        files["content/extra.it.md"] = "---\ntitle: Ciao\n---\n"
        let site = try TemporarySite(files)
        #expect(site.diagnostics() == [
            "content/extra.it.md:1:1: error: 'it' is not a language of this site\n    hint: add it to `languages:` in site.yml (now: en, fr, de, ar)",
        ])
    }

    @Test func translationCoverageCountsKeysPerLanguage() throws {
        var files = Self.files
        files["themes/mini/i18n/de.yml"] = "seeAll: Alle ansehen\n"
        files["site.yml"] = files["site.yml"]! + "\ni18n: { missingTranslations: warning }\n"
        let site = try TemporarySite(files)
        let (state, _) = try SiteBuilder(options: site.options(write: false)).run()
        let coverage = TranslationCoverage(tables: state.translations, languages: state.configuration.languages)
        #expect(coverage.lines == [
            "en: 3 of 3 keys (100%)",
            "fr: 3 of 3 keys (100%)",
            "de: 1 of 3 keys (33%), missing: footer.made, lessonsLeft",
            "ar: 3 of 3 keys (100%)",
        ])
    }
}
