import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
@testable import TesseraCLI

/// A throwaway output folder with a preview server over it, one per test.
///
/// The folder sits in a parent that also holds `outside/`, a folder that is not part of the site,
/// so tests can point symbolic links out of the output and check that the server never follows them.
final class PreviewFixture: Sendable {
    let root: String
    let output: String
    let outside: String
    let hub = PreviewHub()

    init(files: [String: String] = [:]) throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-serve-\(UUID().uuidString)").path
        output = root + "/public"
        outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        try Data("secret outside the site".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
        for (path, contents) in files { try write(path, contents) }
    }

    deinit { try? FileManager.default.removeItem(atPath: root) }

    func write(_ relativePath: String, _ contents: String) throws {
        let url = URL(fileURLWithPath: output + "/" + relativePath)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(contents.utf8).write(to: url)
    }

    func contents(of relativePath: String) throws -> String {
        String(decoding: try Data(contentsOf: URL(fileURLWithPath: output + "/" + relativePath)), as: UTF8.self)
    }

    func link(_ relativePath: String, to destination: String) throws {
        try FileManager.default.createSymbolicLink(atPath: output + "/" + relativePath, withDestinationPath: destination)
    }

    func server(keepAliveInterval: Duration = .seconds(15)) -> PreviewServer {
        var server = PreviewServer(outputDirectory: output, hub: hub, port: 0, logger: Logger(label: "tessera.preview.test"))
        server.keepAliveInterval = keepAliveInterval
        return server
    }

    /// Runs `body` against the server, by default straight through the responder (no sockets).
    func test<Value>(
        _ setup: TestingSetup = .router, keepAliveInterval: Duration = .seconds(15),
        _ body: @Sendable (any TestClientProtocol) async throws -> Value
    ) async throws -> Value {
        try await server(keepAliveInterval: keepAliveInterval).makeApplication().test(setup, body)
    }
}

extension TestResponse {
    var text: String { String(buffer: body) }
    var contentType: String? { headers[.contentType] }
}
