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

    var sourceDirectory: String { Self.absolute(source) }

    static func absolute(_ path: String) -> String {
        URL(fileURLWithPath: path, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path
    }

    /// Every command that reads a site starts here: outside a site, it says so rather than
    /// failing on the first thing a site would have had.
    static func requireSite(_ directory: String) throws {
        guard !FileManager.default.fileExists(atPath: directory + "/site.yml") else { return }
        let shown = directory == FileManager.default.currentDirectoryPath ? "this folder (\(directory))" : directory
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory, isDirectory: &isFolder), isFolder.boolValue else {
            throw TesseraError("there is no folder \(directory)", hint: "pass the folder that holds site.yml with --source, or create a site with `tessera new DIR`")
        }
        throw TesseraError("no site.yml in \(shown): this is not a Tessera site", hint: "run the command in the folder that holds site.yml, pass it with --source, or create a site with `tessera new DIR`")
    }

    func buildOptions(output: String? = nil, writesOutput: Bool = true) throws -> BuildOptions {
        try Self.requireSite(sourceDirectory)
        var date: Date?
        if let buildDate {
            switch DateParsing.read(buildDate, timeZone: TimeZone(identifier: "UTC")!) {
            case .success(let parsed): date = parsed
            case .failure(let problem):
                throw ValidationError("--build-date '\(buildDate)' is not a date" + (problem.reason.map { ": " + $0 } ?? "") + "; " + problem.hint)
            }
        }
        let outputDirectory = output.map { URL(fileURLWithPath: $0, relativeTo: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).standardizedFileURL.path }
        var options = BuildOptions(
            sourceDirectory: sourceDirectory, outputDirectory: outputDirectory, includeDrafts: drafts,
            buildDate: date, fallbackBuildDate: BuildOptions.environmentBuildDate(), writesOutput: writesOutput)
        options.includeFuture = future
        return options
    }
}
