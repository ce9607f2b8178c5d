#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// One long-lived Python process that lexes code with Pygments, or tree-sitter where its grammar
/// is installed (see `script`): started once, fed blocks over a pipe, never one process per
/// block (Hugo's old Pygments path spent 15 s where Chroma took 1 s on the same site). The
/// protocol is Tessera's own, small and byte-exact:
///
/// - The worker first writes one JSON line: Pygments' version, where it and Python are, the
///   CSS class of each standard token type, and every lexer alias (for "did you mean").
/// - A request is `<language> <byte count>\n` and the code's UTF-8 bytes; `<language> <byte
///   count> +\n` when more requests follow at once (`tokens(of:)`), whose answers the worker
///   then writes together, when it has answered the last.
/// - The answer is one line: `=<lexer name>\t<type>:<length> …` (adjacent tokens of one type
///   merged; lengths in Unicode scalars, which are Python's string indexes; a type is a number
///   the worker gives each token type it meets, announced once by an item `#<Type name>` before
///   its first use), `?` for a language Pygments does not know, or `!<message>` when lexing failed.
///   Code that tree-sitter parsed is answered with its highlight query's captures instead,
///   `~<lexer name>\t<type>:<pattern>:<count> …` (each capture's token type, the number of its
///   pattern and of its nodes), and after the line break the nodes' UTF-8 byte ranges, each a
///   pair of 32-bit offsets in this machine's byte order, of which `TreeSitterRuns` makes the
///   runs.
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
        /// tree-sitter's version and its installed grammars' (`swift 0.7.4`); empty without it.
        var grammars: [String]?
    }

    /// A block's tokens, or why there are none.
    enum Answer: Sendable, Equatable {
        case code(HighlightedCode)
        case unknownLanguage
        case failed(String)
    }

    /// The token types this worker announced, by number, with their CSS classes.
    private var types: [HighlightedCode.TokenType] = []
    /// Their places in Pygments' order of them (`TreeSitterRuns.ranks`), made again when a type
    /// is announced.
    private var typeRanks: [Int] = []

    /// An answer that does not follow the protocol.
    struct Malformed: Error {}

    enum StartError: Error, Sendable, Equatable {
        /// No Python at that path (or it cannot run).
        case noPython(String)
        /// Python runs but cannot import Pygments.
        case noPygments(String)
    }

    /// How this worker is reached: the pipes of a Python process of this build's own, or a
    /// socket to one kept for later builds (`PygmentsDaemon`).
    private enum Link {
        case pipes(Process, Pipe, Pipe)
        case socket(Int32)
    }

    private let link: Link
    private let input: Int32
    private let output: Int32
    private var buffer: [UInt8] = []
    let hello: Hello

    /// A process started with `arguments` after the script: `python` (a path, or a name looked up
    /// in `PATH`) running the worker's script.
    static func process(python: String, arguments: [String] = []) -> Process {
        // A worker that ends while it is written to gives an error here, not a signal that ends the build.
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        if python.contains("/") {
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = ["-c", Self.script] + arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = [python, "-c", Self.script] + arguments
        }
        return process
    }

    /// Starts `python` with the worker's script and reads its greeting.
    init(python: String) throws {
        let process = Self.process(python: python)
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw StartError.noPython("\(python): \(error.localizedDescription)")
        }
        // The descriptors stay open as long as the pipes do: the worker keeps them.
        link = .pipes(process, stdin, stdout)
        input = stdin.fileHandleForWriting.fileDescriptor
        output = stdout.fileHandleForReading.fileDescriptor
        var buffer: [UInt8] = []
        guard let line = Self.readLine(from: output, buffer: &buffer) else {
            process.waitUntilExit()
            throw StartError.noPython("\(python) exited with status \(process.terminationStatus) before it answered")
        }
        hello = try Self.greeting(line)
        self.buffer = buffer
    }

    /// Talks to the worker on the connected socket `descriptor` (which it takes over), when it
    /// greets within `seconds` (a kept worker busy with another build does not: this build then
    /// starts its own).
    init(socket descriptor: Int32, within seconds: Double) throws {
        link = .socket(descriptor)
        input = descriptor
        output = descriptor
        var limit = timeval(tv_sec: Int(seconds), tv_usec: Int((seconds - seconds.rounded(.down)) * 1e6))
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        var buffer: [UInt8] = []
        var none = timeval()
        guard let line = Self.readLine(from: output, buffer: &buffer), let greeting = try? Self.greeting(line),
              setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &none, socklen_t(MemoryLayout<timeval>.size)) == 0 else {
            close(descriptor)
            throw StartError.noPython("the kept worker did not answer")
        }
        hello = greeting
        self.buffer = buffer
    }

    private static func greeting(_ line: [UInt8]) throws -> Hello {
        if line.first == UInt8(ascii: "!") {
            throw StartError.noPygments(String(decoding: line.dropFirst(), as: UTF8.self))
        }
        do {
            return try JSONDecoder().decode(Hello.self, from: Data(line))
        } catch {
            throw StartError.noPygments("the worker's greeting could not be read: \(error)")
        }
    }

    deinit {
        switch link {
        case .pipes(let process, let stdin, _):
            // Closing its input ends the worker: it reads the end of the file and returns.
            try? stdin.fileHandleForWriting.close()
            if process.isRunning { process.waitUntilExit() }
        case .socket(let descriptor):
            // A kept worker waits for the next build.
            close(descriptor)
        }
    }

    /// The most request bytes `tokens(of:)` writes before it reads: less than a pipe holds
    /// (64 KiB), so the worker never waits to write answers while this thread waits to write
    /// requests.
    static let batchBytes = 48 * 1024

    /// The size of `code`'s request in `language`.
    static func requestBytes(language: String, code: String) -> Int { language.utf8.count + code.utf8.count + 24 }

    /// The answers to `blocks` (each a language, a name checked by
    /// `CodeFenceInfo.isPlausibleLanguage`, and its code), in their order, asked for in one write
    /// and read together: a block at a time, the worker and this thread woke each other twice a
    /// block, and the worker spent half its time on the pipe. `blocks` are at most `batchBytes` of requests
    /// (`requestBytes`), or one block. Throws when the worker is gone.
    func tokens(of blocks: [(language: String, code: String)]) throws -> [Answer] {
        var request: [UInt8] = []
        for (index, block) in blocks.enumerated() {
            request.append(contentsOf: "\(block.language) \(block.code.utf8.count)\(index < blocks.count - 1 ? " +" : "")\n".utf8)
            request.append(contentsOf: block.code.utf8)
        }
        try write(request)
        return try blocks.map { block in
            guard let line = readLine() else { throw StartError.noPython("the highlighting worker stopped") }
            return try answer(line[...], code: block.code)
        }
    }

    /// The answer `line` says to `code`.
    private func answer(_ line: ArraySlice<UInt8>, code: String) throws -> Answer {
        switch line.first {
        case UInt8(ascii: "?"):
            return .unknownLanguage
        case UInt8(ascii: "~"):
            guard let tab = line.firstIndex(of: 0x09) else { throw Malformed() }
            let lexer = String(decoding: line[(line.startIndex + 1)..<tab], as: UTF8.self)
            // `<type>:<pattern>:<count>` for each capture; then, after the line, each one's
            // `count` nodes as pairs of 32-bit byte offsets (the worker's byte order, this
            // machine's).
            var groups: [(type: Int, pattern: Int, count: Int)] = []
            var nodes = 0
            for field in line[(tab + 1)...].split(separator: 0x20) {
                if field.first == UInt8(ascii: "#") {
                    announce(String(decoding: field.dropFirst(), as: UTF8.self))
                    continue
                }
                let parts = field.split(separator: UInt8(ascii: ":"), maxSplits: 2, omittingEmptySubsequences: false)
                guard parts.count == 3, let type = Self.number(parts[0]), types.indices.contains(type), let pattern = Self.number(parts[1]),
                      let count = Self.number(parts[2]) else { throw Malformed() }
                groups.append((type, pattern, count))
                nodes += count
            }
            guard let offsets = read(bytes: nodes * 8) else { throw StartError.noPython("the highlighting worker stopped") }
            var captures: [TreeSitterRuns.Capture] = []
            captures.reserveCapacity(nodes)
            try offsets.withUnsafeBytes { raw in
                var at = 0
                for group in groups {
                    for _ in 0..<group.count {
                        let start = Int(raw.loadUnaligned(fromByteOffset: at, as: UInt32.self))
                        let end = Int(raw.loadUnaligned(fromByteOffset: at + 4, as: UInt32.self))
                        guard start <= end else { throw Malformed() }
                        captures.append(.init(start: start, end: end, pattern: group.pattern, type: group.type))
                        at += 8
                    }
                }
            }
            if typeRanks.count != types.count { typeRanks = TreeSitterRuns.ranks(of: types) }
            guard let runs = TreeSitterRuns.runs(of: captures, in: code, types: types, text: textType, ranks: typeRanks) else { throw Malformed() }
            return .code(HighlightedCode(lexer: lexer, runs: runs))
        case UInt8(ascii: "="):
            guard let tab = line.firstIndex(of: 0x09) else { throw Malformed() }
            let lexer = String(decoding: line[(line.startIndex + 1)..<tab], as: UTF8.self)
            var runs: [HighlightedCode.Run] = []
            runs.reserveCapacity(line.count / 6)
            for field in line[(tab + 1)...].split(separator: 0x20) {
                if field.first == UInt8(ascii: "#") {
                    announce(String(decoding: field.dropFirst(), as: UTF8.self))
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

    /// The next token type the worker numbered: `name`.
    private func announce(_ name: String) {
        types.append(.init(name: name, cssClass: HighlightedCode.cssClass(of: name, standard: hello.classes)))
    }

    /// Text no capture caught (Pygments' `Text`).
    private lazy var textType = HighlightedCode.TokenType(name: "Text", cssClass: HighlightedCode.cssClass(of: "Text", standard: hello.classes))

    /// The decimal number `digits` writes; nil for anything else.
    private static func number(_ digits: ArraySlice<UInt8>) -> Int? {
        guard !digits.isEmpty, digits.count < 19 else { return nil }
        var value = 0
        for byte in digits {
            guard byte >= 0x30, byte <= 0x39 else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        return value
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

    /// The next `count` bytes the worker wrote; nil when its output ends first.
    private func read(bytes count: Int) -> [UInt8]? {
        while buffer.count < count {
            guard Self.readMore(from: output, into: &buffer) else { return nil }
        }
        let bytes = Array(buffer[..<count])
        buffer.removeSubrange(..<count)
        return bytes
    }

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
            guard readMore(from: output, into: &buffer) else { return nil }
        }
    }

    /// Appends what `output` has to `buffer`, waiting for it; false at the end of its output.
    private static func readMore(from output: Int32, into buffer: inout [UInt8]) -> Bool {
        let had = buffer.count
        while true {
            buffer.append(contentsOf: repeatElement(0, count: 65_536))
            let count = buffer.withUnsafeMutableBytes { Glibc.read(output, $0.baseAddress! + had, 65_536) }
            buffer.removeSubrange((had + max(count, 0))...)
            if count < 0 && errno == EINTR { continue }
            return count > 0
        }
    }
}
