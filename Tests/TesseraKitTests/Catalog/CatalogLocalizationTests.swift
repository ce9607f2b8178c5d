import Foundation
import Testing
@testable import TesseraKit

/// The example site in its four languages (en, fr, de, ar) with the default theme's strings:
/// each language's numbers, currencies, dates and plural forms, the language switcher, hreflang
/// alternates, right-to-left Arabic, and translation tables that cover every key the theme uses.
@Suite struct CatalogLocalizationTests {
    @Test func frenchHomeFormatsPercentPluralAndRelativeDateInFrench() throws {
        let state = try ExampleSite.built()
        let fr = try ExampleSite.html("fr/index.html", in: state)
        #expect(fr.contains("<html lang=\"fr\" dir=\"ltr\">"))
        #expect(fr.contains("<title>Votre fil d’apprentissage · Tessera Formation</title>"))
        #expect(fr.contains("Terminé à 42\u{A0}% · 7 leçons restantes · <time datetime=\"2026-11-19T08:00:00Z\" title=\"19 novembre 2026\" data-relative>il y a 3 jours</time>"))
        #expect(fr.contains("Terminé à 80\u{A0}% · 1 leçon restante · "), "French 1 is 'one'")
        #expect(fr.contains(">Terminé</p>") || fr.contains("</span>Terminé"), "a finished course says so in French")
        #expect(fr.contains("<span class=\"visually-hidden\">En hausse </span>+25\u{A0}%"))
        #expect(fr.contains("<a class=\"skip-link\" href=\"#main\">Aller au contenu</a>"))
        #expect(fr.contains("Tout voir<span class=\"visually-hidden\">: En cours</span>"), "section-header's default link text is the page language's")
        #expect(fr.contains("Tessera Formation · Réalisé avec Tessera"))
        #expect(!fr.contains("See all") && !fr.contains("Skip to content") && !fr.contains(" complete"), "no English left on the French page")
    }

    @Test func frenchAndGermanBillingFormatCurrencyAndDates() throws {
        let state = try ExampleSite.built()
        let fr = try ExampleSite.html("fr/billing/index.html", in: state)
        #expect(fr.contains("<span class=\"visually-hidden\">Débit: </span>−1\u{202F}240,00\u{A0}€"))
        #expect(fr.contains("<span class=\"visually-hidden\">Crédit: </span>+12,50\u{A0}€"))
        #expect(fr.contains("<time datetime=\"2026-11-01\">1 nov. 2026</time>"))
        #expect(!fr.contains("error-state"), "a static page does not bake in an error")

        let de = try ExampleSite.html("de/billing/index.html", in: state)
        #expect(de.contains("<span class=\"visually-hidden\">Belastung: </span>−1.240,00\u{A0}€"))
        #expect(de.contains("<span class=\"visually-hidden\">Gutschrift: </span>+12,50\u{A0}€"))

        // The error state's default title and action, in each page's language.
        let site = try TemporarySite([
            "site.yml": "title: T\nlanguages: [en, fr, de]\n",
            "content/index.md": "---\ntitle: Home\n---\n",
            "content/index.fr.md": "---\ntitle: Accueil\nsections:\n  - items:\n      - { component: error-state, message: Le service n’a pas répondu., link: /fr/ }\n---\n",
            "content/index.de.md": "---\ntitle: Start\nsections:\n  - items:\n      - { component: error-state, message: Der Dienst antwortete nicht., link: /de/ }\n---\n",
        ], base: [:], theme: nil)
        try site.build()
        let french = try site.read("fr/index.html"), german = try site.read("de/index.html")
        #expect(french.contains("Une erreur s’est produite"), "error-state's default title in French")
        #expect(french.contains(">Réessayer</a>"))
        #expect(german.contains("Etwas ist schiefgelaufen"))
    }

    @Test func germanHomeFormatsPercentPluralAndRelativeDateInGerman() throws {
        let state = try ExampleSite.built()
        let de = try ExampleSite.html("de/index.html", in: state)
        #expect(de.contains("<html lang=\"de\" dir=\"ltr\">"))
        #expect(de.contains("42\u{A0}% abgeschlossen · Noch 7 Lektionen · <time datetime=\"2026-11-19T08:00:00Z\" title=\"19. November 2026\" data-relative>vor 3 Tagen</time>"))
        #expect(de.contains("80\u{A0}% abgeschlossen · Noch 1 Lektion · "), "German 1 is 'one'")
        #expect(de.contains("1.214"))
        #expect(de.contains("Alle ansehen<span class=\"visually-hidden\">"))
        #expect(de.contains("<p class=\"activity-type\">Kurs abgeschlossen</p>"), "the activity model's label in German")
    }

    @Test func arabicHomeIsRightToLeftWithArabicPluralForms() throws {
        let state = try ExampleSite.built()
        let ar = try ExampleSite.html("ar/index.html", in: state)
        #expect(ar.contains("<html lang=\"ar\" dir=\"rtl\">"))
        #expect(ar.contains("<title>موجز تعلّمك · تيسيرا للتعلّم</title>"))
        #expect(ar.contains("تبقّت 3 دروس"), "Arabic 3 is 'few'")
        #expect(ar.contains("تبقّى درسان"), "Arabic 2 is 'two'")
        #expect(ar.contains("تبقّى 11 درسًا"), "Arabic 11 is 'many'")
        #expect(ar.contains("<time datetime=\"2026-11-19T08:00:00Z\" title=\"19 نوفمبر، 2026\" data-relative>قبل 3 أيام</time>"))
        #expect(ar.contains("اكتمل 42"))
        #expect(ar.contains("<span class=\"visually-hidden\">خصم: </span>"))
        #expect(ar.contains("<a class=\"skip-link\" href=\"#main\">انتقل إلى المحتوى</a>"))
        #expect(ar.contains(">عرض الكل<span class=\"visually-hidden\">"))
    }

    @Test func switcherAndAlternatesListEveryTranslationOfThePage() throws {
        let state = try ExampleSite.built()
        let fr = try ExampleSite.html("fr/index.html", in: state)
        for (lang, url) in [("en", "/"), ("fr", "/fr/"), ("de", "/de/"), ("ar", "/ar/")] {
            #expect(fr.contains("<link rel=\"alternate\" hreflang=\"\(lang)\" href=\"https://example.com\(url)\">"), "absolute alternate \(lang)")
        }
        #expect(fr.contains("<link rel=\"alternate\" hreflang=\"x-default\" href=\"https://example.com/\">"))
        #expect(fr.contains("<link rel=\"canonical\" href=\"https://example.com/fr/\">"))
        #expect(fr.contains("<nav class=\"language-switcher\" aria-label=\"Langue\">"))
        #expect(fr.contains("<a href=\"/fr/\" hreflang=\"fr\" lang=\"fr\" aria-current=\"true\">Français</a>"))
        #expect(fr.contains("<a href=\"/ar/\" hreflang=\"ar\" lang=\"ar\">العربية</a>"))
        #expect(fr.components(separatedBy: "aria-current=\"true\"").count == 2, "one current language")

        let billing = try ExampleSite.html("fr/billing/index.html", in: state)
        #expect(billing.contains("<link rel=\"alternate\" hreflang=\"de\" href=\"https://example.com/de/billing/\">"))
        #expect(billing.contains("<a href=\"/billing/\" hreflang=\"en\" lang=\"en\">English</a>"))
        #expect(!billing.contains("hreflang=\"ar\" href"), "billing has no Arabic version")

        let ar = try ExampleSite.html("ar/index.html", in: state)
        #expect(ar.contains("<a href=\"/ar/\" hreflang=\"ar\" lang=\"ar\" aria-current=\"true\">العربية</a>"))
        #expect(ar.contains("<nav class=\"language-switcher\" aria-label=\"اللغة\">"))

        // A page with no translations links to each language's home and has no alternates.
        let components = try ExampleSite.html("components/index.html", in: state)
        #expect(!components.contains("<link rel=\"alternate\" hreflang"))
        #expect(components.contains("<a href=\"/de/\" hreflang=\"de\" lang=\"de\" class=\"language-home\">Deutsch<span class=\"visually-hidden\"> (home page: this page is not translated)</span>"), "a language without the page leads home, and says so")
        #expect(components.contains("<a href=\"/components/\" hreflang=\"en\" lang=\"en\" aria-current=\"true\">English</a>"), "the page's own language links the page itself")
    }

    @Test func everyLanguageHasEveryKeyTheThemeUses() throws {
        let state = try ExampleSite.built()
        let coverage = TranslationCoverage(tables: state.translations, languages: state.configuration.languages)
        #expect(coverage.languages.map(\.code) == ["en", "fr", "de", "ar"])
        for language in coverage.languages {
            #expect(language.missing.isEmpty, "\(language.code) misses \(language.missing)")
            #expect(language.present == language.total, "\(coverage.lines)")
        }

        // Every key the theme's templates, schemas and Swift models name is in the tables.
        var used = Set<String>()
        let theme = CatalogFixture.themeDirectory
        for relative in FileManager.default.subpaths(atPath: theme) ?? [] where relative.hasSuffix(".mustache") || relative.hasSuffix(".yml") {
            let text = try String(contentsOfFile: theme + "/" + relative, encoding: .utf8)
            for pattern in [#"\{\{#t\}\}([A-Za-z0-9_.]+)"#, #"\{ t: ([A-Za-z0-9_.]+) \}"#] {
                let regex = try NSRegularExpression(pattern: pattern)
                for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                    used.insert(String(text[Range(match.range(at: 1), in: text)!]))
                }
            }
        }
        used.formUnion(ActivityModel.kinds.values.map(\.label))
        used.formUnion(["courseProgress.completed", "courseProgress.notStarted", "courseProgress.percentComplete",
                        "payment.debit", "payment.credit", "payment.amount", "stat.up", "stat.down", "stat.noChange"])
        #expect(used.count > 25, "found \(used.sorted())")
        for language in state.configuration.languages {
            let keys = try #require(state.translations[language.code]).keys
            #expect(used.subtracting(keys).isEmpty, "\(language.code) lacks \(used.subtracting(keys).sorted())")
        }
    }

    @Test func arabicPluralTableHasEveryCategory() throws {
        let state = try ExampleSite.built()
        guard case .plural(let forms) = try #require(state.translations["ar"]?["courseProgress.lessonsLeft"]) else {
            Issue.record("courseProgress.lessonsLeft is not a plural entry"); return
        }
        #expect(Set(forms.keys) == Set(PluralCategory.allCases))
    }
}
