import ArgumentParser
import Foundation
import TesseraKit

struct BuildCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "build",
        abstract: "Build the site into its output folder (public/ by default).",
        discussion: "The site is built into a temporary folder that replaces the output only when the whole build succeeded; a failed build leaves the previous output as it was.")

    @OptionGroup var site: SiteOptions

    @Option(name: [.short, .long], help: "The output folder (default: site.yml's output, else public/).")
    var output: String?

    @Flag(help: "Print how long each step of the build took.")
    var timings = false

    func run() async throws {
        do {
            let report = try SiteBuilder(options: try site.buildOptions(output: output)).build()
            DiagnosticPrinter.print(report.warnings)
            if timings {
                for (step, seconds) in report.stepTimings {
                    Swift.print("  \(step.padding(toLength: 22, withPad: " ", startingAt: 0)) \(String(format: "%7.1f", seconds * 1000)) ms")
                }
            }
            Swift.print(report.summary(relativeTo: FileManager.default.currentDirectoryPath))
        } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "build")
        }
    }
}
