import ArgumentParser
import Foundation
import TesseraKit

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the site (schemas, fields, links, templates, translations) without writing anything.",
        discussion: "With several languages, also prints which pages each language lacks and how complete each language's translation table is.")

    @OptionGroup var site: SiteOptions

    func run() async throws {
        let printer = site.printer
        do {
            let (built, report) = try SiteBuilder(options: try site.buildOptions(writesOutput: false)).run()
            printer.print(report.warnings)
            if built.configuration.languages.count > 1 {
                printer.say("Pages:")
                PageCoverage(pages: built.pages, languages: built.configuration.languages).lines.forEach { printer.say("  " + $0) }
            }
            let untranslated = built.menus.untranslatedEntries
            if !untranslated.isEmpty {
                printer.say("Menu entries leading to a page in another language (shown marked with that language):")
                untranslated.forEach { printer.say("  " + $0) }
            }
            let coverage = TranslationCoverage(tables: built.translations, languages: built.configuration.languages)
            if coverage.languages.contains(where: { $0.total > 0 }) {
                printer.say("Translations:")
                coverage.lines.forEach { printer.say("  " + $0) }
            }
            let warnings = report.warnings.isEmpty ? "" : ", \(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")"
            printer.say("Checked \(report.pages) page\(report.pages == 1 ? "" : "s") and \(report.staticFiles) static file\(report.staticFiles == 1 ? "" : "s"): no errors\(warnings)")
        } catch let error as TesseraError {
            throw printer.fail(error, doing: "check")
        }
    }
}
