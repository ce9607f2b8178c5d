import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import TesseraClient

/// `python3 -m http.server` serving fixture files from a temporary folder.
final class PythonServer {
    let process = Process()
    let directory: URL
    let baseURL: URL

    /// `python3` from `PATH`, if any.
    static var python: URL? {
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/usr/local/bin").split(separator: ":")
            .map { URL(fileURLWithPath: String($0)).appendingPathComponent("python3") }
            .first { FileManager.default.isExecutableFile(atPath: $0.path) }
    }

    /// Whether `stop()` removes the folder: only one this server made.
    private let ownsDirectory: Bool

    convenience init(files: [String: String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-client-\(UUID().uuidString)")
        for (path, contents) in files {
            let file = directory.appendingPathComponent(String(path.dropFirst()))
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(contents.utf8).write(to: file)
        }
        try self.init(serving: directory, owned: true)
    }

    /// Serves `directory` as it is (a built site); `owned`: remove it when stopped.
    init(serving directory: URL, owned: Bool = false) throws {
        self.directory = directory
        ownsDirectory = owned
        guard let python = Self.python else { throw CocoaError(.fileNoSuchFile) }
        // Port 0: the system picks a free port, which the server prints ("Serving HTTP on … port N").
        // `-u` so that line is not stuck in a pipe buffer.
        process.executableURL = python
        process.arguments = ["-u", "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", directory.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        var printed = ""
        while !printed.contains("\n") {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { break } // the server exited
            printed += String(decoding: chunk, as: UTF8.self)
        }
        guard let match = printed.firstMatch(of: /port (\d+)/), let url = URL(string: "http://127.0.0.1:\(match.1)/") else {
            process.terminate()
            throw CocoaError(.fileReadUnknown, userInfo: [NSLocalizedDescriptionKey: "server did not start: \(printed)"])
        }
        baseURL = url
    }

    func stop() {
        process.terminate()
        // On Linux the child inherits the signal mask of the dispatch thread that spawned it,
        // where SIGTERM is blocked; SIGKILL cannot be blocked.
        for _ in 0..<20 where process.isRunning { usleep(50_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
        if ownsDirectory { try? FileManager.default.removeItem(at: directory) }
    }
}

/// The real URLSession transport, noting each request's conditional headers and status.
private actor RecordingTransport: TesseraTransport {
    let inner = URLSessionTransport()
    private(set) var log: [(ifModifiedSince: String?, ifNoneMatch: String?, status: Int)] = []

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await inner.send(request)
        log.append((request.value(forHTTPHeaderField: "If-Modified-Since"), request.value(forHTTPHeaderField: "If-None-Match"), response.statusCode))
        return (data, response)
    }
}

@Suite struct HTTPServerTests {
    @Test(.enabled(if: PythonServer.python != nil, "python3 is needed to serve files"))
    func secondFetchRevalidatesWithIfModifiedSince() async throws {
        let server = try PythonServer(files: Fixtures.files)
        defer { server.stop() }
        let transport = RecordingTransport()
        let client = TesseraClient(baseURL: server.baseURL, clientVersion: TesseraVersion(2), transport: transport)

        let first = try await client.page("/blog/")
        #expect(first.page.pagination?.next == "/blog/page/2/index.json")
        #expect(await client.statistics == .init(requests: 1, notModified: 0, downloaded: 1))

        let second = try await client.page("/blog/")
        #expect(second == first)
        // Python's server sends Last-Modified but no ETag, so this 304 came through If-Modified-Since.
        #expect(await client.statistics == .init(requests: 2, notModified: 1, downloaded: 1))
        let log = await transport.log
        #expect(log.map(\.status) == [200, 304])
        #expect(log[0].ifModifiedSince == nil && log[1].ifModifiedSince?.hasSuffix(" GMT") == true && log[1].ifNoneMatch == nil)

        var pages = 0
        for try await _ in client.allPages(startingAt: "/blog/") { pages += 1 }
        #expect(pages == 3)

        await #expect {
            try await client.page("/missing.html")
        } throws: { error in
            guard case TesseraClientError.http(404, let url) = error else { return false }
            return url.path == "/missing.json"
        }
    }
}
