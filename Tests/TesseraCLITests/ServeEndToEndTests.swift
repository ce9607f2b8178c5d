#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
import TesseraCLI

/// `tessera serve` as a user runs it: the real binary, a real socket, real file edits.
@Suite(.serialized) struct ServeEndToEndTests {
    /// A running `tessera serve`, its output collected line by line.
    final class Server: @unchecked Sendable {
        let process = Process()
        let port: Int
        private let lock = NSLock()
        private var output = ""

        init(site: String, extra: [String] = []) throws {
            port = PortFinder.nextFree(host: "127.0.0.1", after: 18_000 + Int.random(in: 0..<2000)) ?? 18_123
            process.executableURL = URL(fileURLWithPath: EndToEndTests.binary)
            process.arguments = ["serve", "--source", site, "--port", String(port)] + extra
            let pipe = Pipe()
            process.standardOutput = pipe
            process.standardError = pipe
            pipe.fileHandleForReading.readabilityHandler = { [weak self] handle in
                let text = String(decoding: handle.availableData, as: UTF8.self)
                self?.lock.withLock { self?.output += text }
            }
            try process.run()
        }

        var log: String { lock.withLock { output } }

        func waitFor(_ text: String, timeout: Double = 60) -> Bool {
            let deadline = Date().addingTimeInterval(timeout)
            while Date() < deadline {
                if log.contains(text) { return true }
                usleep(20_000)
            }
            return false
        }

        func stop() -> Double {
            let start = Date()
            process.terminate() // SIGTERM
            process.waitUntilExit()
            return Date().timeIntervalSince(start)
        }
    }

    /// A minimal HTTP client over a socket: enough for GET and an event stream.
    final class Connection {
        let socket: Int32
        private var buffer = ""

        init(port: Int, path: String) throws {
            socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(socket, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            guard connected == 0 else { throw TesseraCLIError.connection }
            var timeout = timeval(tv_sec: 0, tv_usec: 100_000)
            setsockopt(socket, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n"
            _ = request.withCString { send(socket, $0, strlen($0), 0) }
        }

        deinit { close(socket) }

        /// Reads until `text` arrives; returns everything read so far, or nil on timeout.
        func read(until text: String, timeout: Double = 30) -> String? {
            let deadline = Date().addingTimeInterval(timeout)
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while Date() < deadline {
                if buffer.contains(text) { return buffer }
                let count = recv(socket, &chunk, chunk.count, 0)
                if count > 0 { buffer += String(decoding: chunk[0..<count], as: UTF8.self) } else if count == 0 { break }
            }
            return buffer.contains(text) ? buffer : nil
        }

        /// Forgets what was read, so the next `read(until:)` waits for new text.
        func drain() { buffer = "" }
    }

    enum TesseraCLIError: Error { case connection }

    static func page(port: Int, path: String = "/") throws -> String {
        try Connection(port: port, path: path).read(until: "</html>") ?? ""
    }

    @Test func editReloadsBrokenEditShowsErrorsFixRecoversAndSIGTERMStops() throws {
        let dir = try EndToEndTests.temporaryDirectory()
        try EndToEndTests.tessera(["new", "site"], in: dir)
        let site = dir + "/site"
        let server = try Server(site: site)
        defer { if server.process.isRunning { _ = server.stop() } }
        #expect(server.waitFor("Serving at http://127.0.0.1:\(server.port)/"), "\(server.log)")

        let home = try Self.page(port: server.port)
        #expect(home.contains("This page is a <strong>feed</strong>"))
        #expect(home.contains("<script src=\"/__tessera/live.js\"></script>"), "the live-reload script is added to served pages")

        let events = try Connection(port: server.port, path: "/__tessera/events")
        #expect(events.read(until: "event: connected") != nil)
        events.drain()

        let page = site + "/content/index.md"
        let original = try String(contentsOfFile: page, encoding: .utf8)
        try original.replacingOccurrences(of: "This page is a **feed**", with: "This page was **edited**").write(toFile: page, atomically: true, encoding: .utf8)
        #expect(events.read(until: "event: reload") != nil, "\(server.log)")
        #expect(try Self.page(port: server.port).contains("This page was <strong>edited</strong>"))
        #expect(!(try String(contentsOfFile: site + "/content/index.md", encoding: .utf8)).isEmpty)

        events.drain()
        try original.replacingOccurrences(of: "component: notice", with: "component: notise").write(toFile: page, atomically: true, encoding: .utf8)
        let failure = events.read(until: "\n\n", timeout: 30).flatMap { $0.contains("event: errors") ? $0 : events.read(until: "event: errors") }
        #expect(failure?.contains("unknown component 'notise'") == true, "\(failure ?? server.log)")
        #expect(failure?.contains("\"line\":7") == true)
        #expect(try Self.page(port: server.port).contains("This page was <strong>edited</strong>"), "the last good page is still served")
        #expect(server.waitFor("rebuild failed with 1 error; still serving the last good build"))

        events.drain()
        try original.write(toFile: page, atomically: true, encoding: .utf8)
        #expect(events.read(until: "event: reload") != nil, "fixing the error reloads the page, which clears the overlay")
        #expect(try Self.page(port: server.port).contains("This page is a <strong>feed</strong>"))

        let seconds = server.stop()
        #expect(seconds < 2, "stops within 2 seconds with a browser connected (took \(seconds) s)")
        #expect(!FileManager.default.fileExists(atPath: site + "/public"), "serve never writes public/")
    }

    @Test func aPortInUseGivesAClearMessageWithTheNextFreePort() throws {
        let dir = try EndToEndTests.temporaryDirectory()
        try EndToEndTests.tessera(["new", "site"], in: dir)
        let first = try Server(site: dir + "/site")
        defer { _ = first.stop() }
        #expect(first.waitFor("Serving at"))
        let second = try EndToEndTests.tessera(["serve", "--source", dir + "/site", "--port", String(first.port)])
        #expect(second.status != 0)
        #expect(second.stderr.contains("error: port \(first.port) on 127.0.0.1 is in use; try --port "))
    }
}
