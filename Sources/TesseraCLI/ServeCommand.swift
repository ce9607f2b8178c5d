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

    @Option(name: [.short, .long], help: "The port to listen on.")
    var port: Int = 8000

    @Option(help: "The address to listen on; loopback unless you say otherwise.")
    var host: String = "127.0.0.1"

    func run() async throws {
        guard PortFinder.isFree(host: host, port: port) else {
            let next = PortFinder.nextFree(host: host, after: port).map { "; try --port \($0)" } ?? ""
            throw DiagnosticPrinter.fail(TesseraError("port \(port) on \(host) is in use\(next)"), doing: "serve")
        }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-serve-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let session = PreviewSession(options: try site.buildOptions(output: output))
        let hub = PreviewHub()
        let base = FileManager.default.currentDirectoryPath
        let say: @Sendable (String) -> Void = { line in
            // Unbuffered: the serve log must appear as it happens, also when piped.
            FileHandle.standardOutput.write(Data((line + "\n").utf8))
        }
        switch session.build() {
        case .built(let report, _):
            site.printer.print(report.warnings)
            say(report.summary(relativeTo: base).replacingOccurrences(of: " → \(output)", with: ""))
        case .failed(let diagnostics):
            site.printer.print(diagnostics)
            say("The first build failed; serving the errors until they are fixed.")
            await hub.publish(.failed(diagnostics))
        }
        let watcher: SiteWatcher
        do { watcher = try SiteWatcher(siteDirectory: session.options.sourceDirectory) } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "serve")
        }
        var logger = Logger(label: "tessera.serve")
        logger.logLevel = .warning
        let host = self.host
        let server = PreviewServer(outputDirectory: output, hub: hub, host: host, port: port, logger: logger)
        let application = server.makeApplication { port in
            say("Serving at http://\(host == "0.0.0.0" ? "127.0.0.1" : host):\(port)/ — watching for changes; Ctrl-C stops.")
        }
        let rebuilder = RebuildService(watcher: watcher, session: session, hub: hub, report: say)
        let group = ServiceGroup(configuration: .init(
            services: [.init(service: application), .init(service: rebuilder)],
            gracefulShutdownSignals: [.sigterm, .sigint],
            logger: logger))
        try await group.run()
        say("Stopped.")
    }
}
