#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One long-lived Python process that lexes code with Pygments: started once, fed one block at
/// a time over a pipe, never one process per block (Hugo's old Pygments path spent 15 s where
/// Chroma took 1 s on the same site). The protocol is Tessera's own, small and byte-exact:
///
/// - The worker first writes one JSON line: Pygments' version, where it and Python are, the
///   CSS class of each standard token type, and every lexer alias (for "did you mean").
/// - A request is `<language> <byte count>\n` and the code's UTF-8 bytes.
/// - The answer is one line: `=<lexer name>\t<type>:<length> …` (adjacent tokens of one type
///   merged; lengths in Unicode scalars, which are Python's string indexes; a type is a number
///   the worker gives each token type it meets, announced once by an item `#<Type name>` before
///   its first use), `?` for a language Pygments does not know, or `!<message>` when lexing failed.
///
/// Not thread-safe: `PygmentsPool` gives each worker to one thread at a time.
final class PygmentsWorker {
    /// What the worker said when it started.
    struct Hello: Decodable, Sendable {
        var version: String
        /// Pygments' `__init__.py`, Python's executable, and the module search path: the files
        /// whose `stat` tells a later build that the engine is still the same.
        var file: String
        var executable: String
        var path: [String]
        /// Token type (`Keyword.Declaration`) → its CSS class (`kd`), as Pygments' HTML writer names them.
        var classes: [String: String]
        var aliases: [String]
    }

    /// A block's tokens, or why there are none.
    enum Answer: Sendable, Equatable {
        case code(HighlightedCode)
        case unknownLanguage
        case failed(String)
    }

    /// The token types this worker announced, by number, with their CSS classes.
    private var types: [HighlightedCode.TokenType] = []

    /// An answer that does not follow the protocol.
    struct Malformed: Error {}

    enum StartError: Error, Sendable, Equatable {
        /// No Python at that path (or it cannot run).
        case noPython(String)
        /// Python runs but cannot import Pygments.
        case noPygments(String)
    }

    private let process: Process
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    let hello: Hello

    /// Starts `python` (a path, or a name looked up in `PATH`) with the worker's script and reads
    /// its greeting.
    init(python: String) throws {
        let process = Process()
        if python.contains("/") {
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", Self.script]
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [python, "-c", Self.script]
        }
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw StartError.noPython("\(python): \(error.localizedDescription)")
        }
        self.process = process
        input = stdin.fileHandleForWriting.fileDescriptor
        output = stdout.fileHandleForReading.fileDescriptor
        // The descriptors stay open as long as the pipes do: the worker keeps them.
        pipes = (stdin, stdout)
        var buffer: [UInt8] = []
        guard let line = Self.readLine(from: output, buffer: &buffer) else {
            process.waitUntilExit()
            throw StartError.noPython("\(python) exited with status \(process.terminationStatus) before it answered")
        }
        if line.first == UInt8(ascii: "!") {
            throw StartError.noPygments(String(decoding: line.dropFirst(), as: UTF8.self))
        }
        do {
            hello = try JSONDecoder().decode(Hello.self, from: Data(line))
        } catch {
            throw StartError.noPygments("the worker's greeting could not be read: \(error)")
        }
        self.buffer = buffer
    }

    private let pipes: (Pipe, Pipe)

    deinit {
        // Closing its input ends the worker: it reads the end of the file and returns.
        try? pipes.0.fileHandleForWriting.close()
        if process.isRunning { process.waitUntilExit() }
    }

    /// The tokens of `code` lexed as `language` (a name checked by `CodeFenceInfo.isPlausibleLanguage`).
    /// Throws when the worker is gone.
    func tokens(language: String, code: String) throws -> Answer {
        var request = Array("\(language) \(code.utf8.count)\n".utf8)
        request.append(contentsOf: code.utf8)
        try write(request)
        guard let line = readLine() else { throw StartError.noPython("the highlighting worker stopped") }
        switch line.first {
        case UInt8(ascii: "?"):
            return .unknownLanguage
        case UInt8(ascii: "="):
            guard let tab = line.firstIndex(of: 0x09) else { throw Malformed() }
            let lexer = String(decoding: line[1..<tab], as: UTF8.self)
            var runs: [HighlightedCode.Run] = []
            runs.reserveCapacity(line.count / 6)
            for field in line[(tab + 1)...].split(separator: 0x20) {
                if field.first == UInt8(ascii: "#") {
                    let name = String(decoding: field.dropFirst(), as: UTF8.self)
                    types.append(.init(name: name, cssClass: HighlightedCode.cssClass(of: name, standard: hello.classes)))
                    continue
                }
                var type = 0, length = 0, afterColon = false
                for byte in field {
                    if byte == UInt8(ascii: ":") { afterColon = true } else if afterColon { length = length &* 10 &+ Int(byte &- 0x30) } else { type = type &* 10 &+ Int(byte &- 0x30) }
                }
                // Out of step with the worker: it is let go (`PygmentsPool`), and the block lexed by another.
                guard afterColon, types.indices.contains(type) else { throw Malformed() }
                runs.append(.init(type: types[type], length: length))
            }
            return .code(HighlightedCode(lexer: lexer, runs: runs))
        default:
            return .failed(String(decoding: line.dropFirst(), as: UTF8.self))
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.write(input, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                throw StartError.noPython("the highlighting worker stopped")
            }
            offset += written
        }
    }

    private func readLine() -> [UInt8]? { Self.readLine(from: output, buffer: &buffer) }

    /// The next line written to `output`, without its line break; nil at the end of its output.
    /// `buffer` holds what was read past the line.
    private static func readLine(from output: Int32, buffer: inout [UInt8]) -> [UInt8]? {
        var searched = 0
        while true {
            if let end = buffer[searched...].firstIndex(of: 0x0A) {
                let line = Array(buffer[..<end])
                buffer.removeSubrange(...end)
                return line
            }
            searched = buffer.count
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
