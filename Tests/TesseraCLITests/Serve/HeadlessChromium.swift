import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A headless Chromium driven over the DevTools protocol through a pipe, for testing real pages.
///
/// `--remote-debugging-pipe` rather than a WebSocket: Foundation's `URLSessionWebSocketTask` is
/// not supported on Linux (libcurl is built without WebSockets), and a pipe needs nothing else.
/// Chromium reads commands on descriptor 3 and answers on 4, NUL-terminated JSON; the shell maps
/// our stdin and stdout pipes onto them. The browser runs in a process group of its own, so
/// ``stop()`` ends it with every renderer and helper, and a watchdog kills it if a test forgets to
/// (or hangs): no test can leave a browser behind or wait on one forever.
final class HeadlessChromium {
    /// `chromium` from PATH, or nil when the machine has none (the browser tests are then skipped).
    static let executable: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    static var isAvailable: Bool { executable != nil }

    private let process = Process()
    private let commands = Pipe()
    private let answers = Pipe()
    private let profile: String
    private let watchdog: Task<Void, Never>
    /// The browser's messages, one complete JSON document each, until it closes the pipe.
    let messages: AsyncStream<Data>

    init(lifetime: Duration = .seconds(90)) throws {
        guard let executable = Self.executable else { throw BrowserError("chromium is not on PATH") }
        // A write to a browser that has died must fail, not kill the test process.
        signal(SIGPIPE, SIG_IGN)
        profile = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-chromium-\(UUID().uuidString)").path
        let flags = [
            "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(profile)", "--remote-debugging-pipe",
            "--no-first-run", "--no-default-browser-check", "--disable-extensions", "--disable-background-networking",
            "--disable-crash-reporter", "about:blank",
        ]
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" \"$@\" 3<&0 4>&1 </dev/null >/dev/null 2>/dev/null", executable] + flags
        process.standardInput = commands
        process.standardOutput = answers
        try process.run()
        let pid = process.processIdentifier
        _ = setpgid(pid, pid)  // Foundation already does this on Linux; elsewhere it may not
        let (stream, continuation) = AsyncStream<Data>.makeStream()
        messages = stream
        // The stream ends when the watchdog fires too: a helper process of the browser that keeps
        // the pipe open must not leave a test waiting for an answer forever.
        watchdog = Task.detached {
            try? await Task.sleep(for: lifetime)
            if !Task.isCancelled {
                kill(-pid, SIGKILL)
                continuation.finish()
            }
        }
        Self.readMessages(from: answers.fileHandleForReading, into: continuation)
    }

    /// Sends one command (a JSON object) to the browser.
    func send(_ command: Data) throws {
        try commands.fileHandleForWriting.write(contentsOf: command + [0])
    }

    /// Ends the browser's whole process group, politely first, and removes its profile.
    func stop() {
        watchdog.cancel()
        let group = -process.processIdentifier
        kill(group, SIGTERM)
        let deadline = Date().addingTimeInterval(5)
        while process.isRunning && Date() < deadline { usleep(50_000) }
        kill(group, SIGKILL)
        process.waitUntilExit()
        try? commands.fileHandleForWriting.close()
        try? FileManager.default.removeItem(atPath: profile)
    }

    /// Splits the answer pipe on NUL on a thread of its own (the reads block); the stream ends
    /// when the browser exits.
    private static func readMessages(from handle: FileHandle, into continuation: AsyncStream<Data>.Continuation) {
        Thread.detachNewThread {
            // Only the new bytes are searched for the NUL that ends a message: an accessibility
            // tree is megabytes long, and rescanning from the start made reading it quadratic.
            var pending = [UInt8]()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                var start = pending.count
                pending.append(contentsOf: chunk)
                var messageStart = 0
                while let end = pending[start...].firstIndex(of: 0) {
                    continuation.yield(Data(pending[messageStart..<end]))
                    messageStart = end + 1
                    start = end + 1
                }
                if messageStart > 0 { pending.removeFirst(messageStart) }
            }
            continuation.finish()
        }
    }
}

/// A failure while driving the browser, with what went wrong.
struct BrowserError: Error, CustomStringConvertible {
    let description: String
    /// The browser answered the command with an error (as opposed to not answering at all).
    let answeredByBrowser: Bool

    init(_ description: String, answeredByBrowser: Bool = false) {
        self.description = description
        self.answeredByBrowser = answeredByBrowser
    }
}
