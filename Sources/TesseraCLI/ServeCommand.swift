import ArgumentParser
import Foundation
import Logging
import ServiceLifecycle
import TesseraKit

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Build the site, serve it locally, rebuild on every change and reload the browser.",
        discussion: """
            The preview is built into a private temporary folder (public/ is left alone) and served \
            with a live-reload script added to each page. A failed rebuild keeps the last good pages \
            and shows its errors over every open page until they are fixed.
            """)

    @OptionGroup var site: SiteOptions

    @Option(name: [.short, .long], help: "The port to listen on; 0 picks a free one.")
    var port: Int = 8000

    @Flag(help: "Open the site in the default browser once it is served.")
    var open = false

    @Option(help: "The address to listen on; loopback unless you say otherwise.")
    var host: String = "127.0.0.1"

    @Flag(help: "Print how long each step of every build took.")
    var timings = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port \(port) is not a port; use 1 to 65535, or 0 for any free port") }
    }

    func run() async throws {
        guard port == 0 || PortFinder.isFree(host: host, port: port) else {
            let next = PortFinder.nextFree(host: host, after: port).map { "; try --port \($0), or --port 0 for any free port" } ?? "; --port 0 picks any free port"
            throw DiagnosticPrinter.fail(TesseraError("port \(port) on \(host) is in use\(next)"), doing: "serve")
        }
        let options: BuildOptions
        // A folder of its own around the preview's output: each rebuild looks beside the output
        // for staging folders of interrupted builds, which must not mean listing all of /tmp.
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-serve-\(UUID().uuidString)").path
        let output = folder + "/site"
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        do { options = try site.buildOptions(output: output) } catch let error as TesseraError {
            throw site.printer.fail(error, doing: "serve")
        }
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let session = PreviewSession(options: options)
        let hub = PreviewHub()
        let base = FileManager.default.currentDirectoryPath
        let say: @Sendable (String) -> Void = { line in
            // Unbuffered: the serve log must appear as it happens, also when piped.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        // Watching starts before the first build reads anything: a file saved while it runs is
        // in the first batch (later builds trust the watcher for the files it does not report).
        let watcher: SiteWatcher
        do { watcher = try SiteWatcher(siteDirectory: session.options.sourceDirectory) } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "serve")
        }
        switch session.build() {
        case .built(let report, _):
            site.printer.print(report.warnings)
            if timings { StepTimings.lines(report).forEach(say) }
            say(report.summary(relativeTo: base).replacingOccurrences(of: " → \(output)", with: ""))
        case .failed(let diagnostics):
            site.printer.print(diagnostics)
            say("The first build failed; serving the errors until they are fixed.")
            await hub.publish(.failed(diagnostics))
        }
        var logger = Logger(label: "tessera.serve")
        logger.logLevel = .warning
        let host = self.host
        let server = PreviewServer(outputDirectory: output, hub: hub, host: host, port: port, logger: logger)
        let open = self.open
        let application = server.makeApplication { port in
            let url = "http://\(host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host.contains(":") ? "[\(host)]" : host):\(port)/"
            say("Serving at \(url) — watching for changes; Ctrl-C stops.")
            if open { Browser.open(url, report: say) }
        }
        let rebuilder = RebuildService(watcher: watcher, session: session, hub: hub, timings: timings, report: say)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: application), .init(service: rebuilder)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
        say("Stopped.")
    }
}

/// `serve --open`: the system's way of opening a URL (`open` on macOS, `xdg-open` elsewhere).
enum Browser {
    static func open(_ url: String, report: @Sendable (String) -> Void) {
        #if os(macOS)
        let candidates = ["/usr/bin/open"]
        #else
        let candidates = ["xdg-open", "sensible-browser", "x-www-browser"].compactMap(executable)
        #endif
        guard let program = candidates.first else {
            report("Could not open a browser (no xdg-open here); open \(url) yourself.")
            return
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = [url]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch { report("Could not open a browser (\(error)); open \(url) yourself.") }
    }

    /// The full path of a program on PATH.
    static func executable(_ name: String) -> String? {
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(folder)/\(name)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        return nil
    }
}
