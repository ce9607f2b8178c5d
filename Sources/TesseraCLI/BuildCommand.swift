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

    @Flag(help: "Replace the output folder even if it holds files Tessera did not write.")
    var force = false

    @Flag(name: .customLong("no-cache"), help: "Build everything, without reading or writing the build cache (.tessera/cache in the site).")
    var noCache = false

    func run() async throws {
        let printer = site.printer
        do {
            var options = try site.buildOptions(output: output)
            options.force = force
            if !noCache { options.cacheDirectory = options.sourceDirectory + "/.tessera/cache" }
            // The highlighting workers stay a few minutes for the next build, unless this one
            // reuses nothing of earlier builds.
            PygmentsPool.keepsWorkers = !noCache && ProcessInfo.processInfo.environment["TESSERA_KEEP_WORKERS"] != "0"
            // A live line on a terminal while a long build runs; cleared before anything else is printed.
            let line = ProgressLine.wanted(format: self.site.format) ? ProgressLine() : nil
            options.progress = line?.progress
            let result = Result { try SiteBuilder(options: options).run() }
            line?.finish()
            let (site, report) = try result.get()
            // The process ends with this command: its memory goes back to the system at exit,
            // instead of being freed object by object first (a tenth of a 1,000-page build).
            KeptUntilExit.keep(site)
            printer.print(report.warnings)
            if timings { StepTimings.lines(report).forEach(printer.say) }
            printer.say(report.summary(relativeTo: FileManager.default.currentDirectoryPath))
        } catch let error as TesseraError {
            throw printer.fail(error, doing: "build")
        }
    }
}

/// `--timings`: one line per step of a build, in milliseconds.
enum StepTimings {
    static func lines(_ report: BuildReport) -> [String] {
        // Names in a column as wide as the longest, never cut.
        let width = report.stepTimings.map(\.step.count).max() ?? 0
        return report.stepTimings.map { step, seconds in
            "  \(step.padding(toLength: width, withPad: " ", startingAt: 0)) \(String(format: "%7.1f", seconds * 1000)) ms"
        }
    }
}

/// What a one-shot command leaves for the process's exit to reclaim.
enum KeptUntilExit {
    nonisolated(unsafe) private static var objects: [AnyObject] = []
    static func keep(_ object: AnyObject) { objects.append(object) }
}
