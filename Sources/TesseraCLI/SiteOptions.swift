import ArgumentParser
import Foundation
import TesseraKit

/// The options every command that reads a site shares.
struct SiteOptions: ParsableArguments {
    @Option(name: [.short, .long], help: "The site folder (the one holding site.yml and content/).")
    var source: String = "."

    @Flag(help: "Include pages marked `draft: true`.")
    var drafts = false

    @Flag(help: "Include pages dated after the build date.")
    var future = false

    @Option(help: ArgumentHelp("The date relative dates are computed against, ISO 8601 (default: site.yml's buildDate, else SOURCE_DATE_EPOCH, else now).", valueName: "date"))
    var buildDate: String?

    @Option(help: "How to print errors and warnings: text, or json (one object a line on standard output, for editors and CI).")
    var format: DiagnosticFormat = .text

    var printer: DiagnosticPrinter { DiagnosticPrinter(format: format) }

    var sourceDirectory: String {
        let url = URL(fileURLWithPath: source, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath))
        return url.standardizedFileURL.path
    }

    func buildOptions(output: String? = nil, writesOutput: Bool = true) throws -> BuildOptions {
        var date: Date?
        if let buildDate {
            guard let parsed = DateParsing.parse(buildDate, timeZone: TimeZone(identifier: "UTC")!) else {
                throw ValidationError("--build-date '\(buildDate)' is not a date; write an ISO 8601 date such as 2026-11-01 or 2026-11-01T09:30:00Z")
            }
            date = parsed
        }
        let outputDirectory = output.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path }
        var options = BuildOptions(
            sourceDirectory: sourceDirectory, outputDirectory: outputDirectory, includeDrafts: drafts,
            buildDate: date, fallbackBuildDate: BuildOptions.environmentBuildDate(), writesOutput: writesOutput)
        options.includeFuture = future
        return options
    }
}
