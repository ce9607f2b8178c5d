import Hummingbird
import Logging

/// The HTTP side of `tessera serve`: serves the built site with live reload, on 127.0.0.1 by default.
///
/// Pages are read from disk on every request, because the site is rebuilt underneath the server;
/// HTML gets the live-reload script injected on the way out, never on disk. The browser learns about
/// rebuilds from `/__tessera/events`, a Server-Sent Events stream fed by the ``PreviewHub``.
///
/// ```swift
/// let server = PreviewServer(outputDirectory: "public", hub: hub, logger: logger)
/// let group = ServiceGroup(configuration: .init(
///     services: [server.makeApplication()], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger))
/// try await group.run()
/// ```
public struct PreviewServer: Sendable {
    /// The folder the site is built into.
    public let outputDirectory: String
    /// Where rebuilds announce themselves to the open pages.
    public let hub: PreviewHub
    public let host: String
    public let port: Int
    public let logger: Logger
    /// How often an idle event stream sends a comment, so proxies and browsers keep it open.
    var keepAliveInterval: Duration = .seconds(15)

    public init(outputDirectory: String, hub: PreviewHub, host: String = "127.0.0.1", port: Int = 8000, logger: Logger) {
        self.outputDirectory = outputDirectory
        self.hub = hub
        self.host = host
        self.port = port
        self.logger = logger
    }

    /// The Hummingbird application to run inside a `ServiceGroup` (or to test with HummingbirdTesting).
    ///
    /// - Parameter onServerRunning: called with the bound port once the server accepts connections,
    ///   so the command can print the address (the port may differ from ``port`` when it is 0).
    public func makeApplication(onServerRunning: @escaping @Sendable (Int) async -> Void = { _ in }) -> some ApplicationProtocol {
        let responder = PreviewResponder(
            site: OutputFolder(path: outputDirectory),
            events: PreviewEventStream(hub: hub, keepAliveInterval: keepAliveInterval),
            logger: logger)
        return Application(
            responder: responder,
            configuration: ApplicationConfiguration(address: .hostname(host, port: port)),
            onServerRunning: { channel in await onServerRunning(channel.localAddress?.port ?? port) },
            logger: logger)
    }
}
