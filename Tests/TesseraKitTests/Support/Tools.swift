import Foundation

/// The outside tools some tests use (compilers, checkers, Python modules), which `make test`
/// installs. On CI (`CI=true`) a test that needs one always runs, so a failed install fails it
/// instead of skipping it.
enum Tools {
    static let onCI = ProcessInfo.processInfo.environment["CI"] == "true"

    /// The executable `tool` on PATH, or nil.
    static func which(_ tool: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(tool)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether a test needing `tool` should run: it is on PATH, or this is CI.
    static func available(_ tool: String) -> Bool { onCI || which(tool) != nil }

    /// Runs `tool` (found in PATH) in `folder`; its exit status and what it printed, both streams.
    ///
    /// The wait happens on a thread of its own: the test pool has one thread per core, and a
    /// browser check that held one for minutes starved every test awaiting a timer (the preview
    /// server's keep-alives among them) on a two-core machine.
    static func run(_ tool: String, _ arguments: [String], in folder: String? = nil) async throws -> (status: Int32, output: String) {
        try await offThePool { try runBlocking(tool, arguments, in: folder) }
    }

    /// Runs `body` on a new thread and awaits it, leaving the test pool's threads free meanwhile.
    static func offThePool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    private static func runBlocking(_ tool: String, _ arguments: [String], in folder: String?) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [tool] + arguments
        if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = out
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text)
    }

    /// Whether `python3 -c "import <module>"` works, or this is CI.
    static func hasPythonModule(_ module: String) -> Bool {
        if onCI { return true }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import \(module)"]
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }
}
