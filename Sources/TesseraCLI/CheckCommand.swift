import ArgumentParser
import Foundation
import TesseraKit

struct CheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Validate the site (schemas, fields, links, templates) without writing anything.")

    @OptionGroup var site: SiteOptions

    func run() async throws {
        do {
            let report = try SiteBuilder(options: try site.buildOptions(writesOutput: false)).build()
            DiagnosticPrinter.print(report.warnings)
            let warnings = report.warnings.isEmpty ? "" : ", \(report.warnings.count) warning\(report.warnings.count == 1 ? "" : "s")"
            Swift.print("Checked \(report.pages) page\(report.pages == 1 ? "" : "s") and \(report.staticFiles) static file\(report.staticFiles == 1 ? "" : "s"): no errors\(warnings)")
        } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "check")
        }
    }
}
