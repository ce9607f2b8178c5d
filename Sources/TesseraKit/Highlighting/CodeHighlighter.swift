#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Build-time highlighting of one build: Pygments through long-lived workers (`PygmentsPool`),
/// and the answers of earlier builds kept in the build cache.
///
/// - The cache (`HighlightCache`) holds each block's tokens by (language, code), for one
///   engine: Pygments' version and the worker script's. An edit lexes only the blocks it
///   changed; a build that maps every page keeps only the blocks it used, so the cache does not
///   grow without end.
/// - The engine's identity is part of the build's environment (`identity`): a build that finds
///   Pygments upgraded, removed or installed builds every page again. It is read from a small
///   stamp (`highlight.stamp`) while the `stat` of Python, Pygments and Python's search path are
///   as recorded, so a cached build starts no Python at all.
/// - Without Python or Pygments the build goes on, code is written plain, and the build says so
///   once (`unavailable`), with the command that installs it.
public final class CodeHighlighter: @unchecked Sendable {
    /// `python3`, or `TESSERA_PYTHON`: the Python whose Pygments lexes.
    public let python: String
    private let pool: PygmentsPool
    private let cacheFolder: String?
    private let stampFile: String?
    private let lock = NSLock()

    /// The Python to use: `TESSERA_PYTHON`, else `python3` from `PATH`.
    public static func defaultPython(_ environment: [String: String] = ProcessInfo.processInfo.environment) -> String {
        environment["TESSERA_PYTHON"].flatMap { $0.isEmpty ? nil : $0 } ?? "python3"
    }

    /// The command that installs the engine, for messages.
    public static let installCommand = "python3 -m pip install pygments==2.21.0"

    public init(python: String = CodeHighlighter.defaultPython(), cacheDirectory: String? = nil) {
        self.python = python
        pool = PygmentsPool.shared(python: python)
        cacheFolder = cacheDirectory
        stampFile = cacheDirectory.map { $0 + "/highlight.stamp" }
    }

    // MARK: The engine

    /// What the engine is: `pygments 2.21.0 worker 1`, or `unavailable` when Python or Pygments
    /// cannot be started. Read from the stamp while it holds, else from a worker's greeting.
    public var identity: String {
        lock.withLock { known?.identity } ?? resolve().identity
    }

    /// Why code is not highlighted in this build, once a block found it; nil while it is.
    public var unavailable: String? {
        lock.withLock { known.flatMap { $0.engine == nil ? $0.reason : nil } }
    }

    /// Whether a block of this build asked for the engine and it was missing: the build says so once.
    public var missedEngine: Bool { lock.withLock { missed } }
    private var missed = false

    /// Blocks this build had lexed (the others came from the cache).
    public var lexedBlocks: Int { lock.withLock { lexed } }
    private var lexed = 0

    private struct Engine {
        var version: String
        var classes: [String: String]
        var aliases: [String]
    }

    private struct Known {
        var engine: Engine?
        var reason: String = ""
        var identity: String {
            engine.map { "pygments \($0.version) worker \(PygmentsWorker.scriptVersion)" } ?? "unavailable"
        }
    }
    private var known: Known?

    /// Finds out what the engine is on another core.
    func prepare() {
        DispatchQueue.global().async { [self] in _ = resolve() }
    }

    /// Starts a worker on another core when a fenced block of `texts` (read as plainly fenced
    /// lines) is not in the cache, and the engine is there: the block finds it ready. A block
    /// read otherwise than the renderer reads it only starts a worker for nothing.
    func prewarm(ifLexing texts: [String]) {
        DispatchQueue.global().async { [self] in
            guard resolve().engine != nil else { return }
            let blocks = texts.flatMap(Self.fencedBlocks)
            guard blocks.contains(where: { !isCached(CacheKey(language: $0.language, code: $0.code)) }) else { return }
            _ = try? pool.withWorker { _ in }
        }
    }

    /// Whether the cache has an answer for `key` (without marking it used).
    private func isCached(_ key: CacheKey) -> Bool {
        lock.withLock {
            if made[key] != nil { return true }
            if stored == nil, let cacheFolder, let identity = known?.identity { stored = HighlightCache(folder: cacheFolder, identity: identity) }
            return stored?.contains(key) ?? false
        }
    }

    /// The blocks of `text` between fence lines at the start of a line, with the language the
    /// engine would be asked for.
    static func fencedBlocks(in text: String) -> [(language: String, code: String)] {
        var blocks: [(language: String, code: String)] = []
        var open: (fence: Substring, language: String?)?
        var code = ""
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if let current = open {
                if line.hasPrefix(current.fence), line.allSatisfy({ $0 == current.fence.first || $0 == " " }) {
                    if let language = current.language { blocks.append((language, code)) }
                    open = nil
                } else {
                    code += line + "\n"
                }
            } else if line.hasPrefix("```") || line.hasPrefix("~~~") {
                let fence = line.prefix { $0 == line.first }
                open = (fence, CodeFenceInfo(String(line.dropFirst(fence.count))).engineLanguage)
                code = ""
            }
        }
        return blocks
    }

    private func resolve() -> Known {
        if let known = lock.withLock({ known }) { return known }
        var result: Known
        if let stamped = readStamp() {
            result = Known(engine: stamped)
        } else {
            do {
                let hello = try pool.hello()
                result = Known(engine: Engine(version: hello.version, classes: hello.classes, aliases: hello.aliases))
                writeStamp(hello)
            } catch let error as PygmentsWorker.StartError {
                switch error {
                case .noPython(let message): result = Known(engine: nil, reason: "Python could not be started (\(message))")
                case .noPygments(let message): result = Known(engine: nil, reason: message)
                }
            } catch {
                result = Known(engine: nil, reason: "\(error)")
            }
        }
        return lock.withLock {
            if known == nil { known = result }
            return known ?? result
        }
    }

    // MARK: Highlighting

    /// What became of a block.
    enum Outcome: Equatable {
        case code(HighlightedCode)
        /// The engine knows no such language; the nearest name it knows, if one is near.
        case unknownLanguage(suggestion: String?)
        /// No engine: the block stays plain (the build says so once).
        case unavailable
        /// The engine failed on this block.
        case failed(String)
    }

    /// The tokens of `code` in `language`: from the cache, else from a worker.
    func highlight(language: String, code: String) -> Outcome {
        let state = resolve()
        guard let engine = state.engine else {
            lock.withLock { missed = true }
            return .unavailable
        }
        let key = CacheKey(language: language, code: code)
        if let answer = cached(key) { return outcome(of: answer, language: language, engine: engine) }
        let reply: PygmentsWorker.Answer
        do {
            do {
                reply = try pool.withWorker { try $0.tokens(language: language, code: code) }
            } catch is PygmentsWorker.Malformed {
                // That worker is gone; another lexes the block.
                reply = try pool.withWorker { try $0.tokens(language: language, code: code) }
            }
        } catch is PygmentsWorker.Malformed {
            return .failed("the worker's answer did not follow the protocol")
        } catch {
            // The stamp said Pygments was there; it is not (or its worker died): plain from here on.
            lock.withLock {
                known = Known(engine: nil, reason: "\(error)")
                missed = true
            }
            return .unavailable
        }
        let answer: HighlightAnswer
        switch reply {
        case .failed(let message): return .failed(message)
        case .unknownLanguage: answer = .unknownLanguage
        case .code(let code): answer = .code(code)
        }
        lock.withLock {
            made[key] = answer.encoded
            lexed += 1
        }
        return outcome(of: answer, language: language, engine: engine)
    }

    private func outcome(of answer: HighlightAnswer, language: String, engine: Engine) -> Outcome {
        switch answer {
        case .code(let code): return .code(code)
        case .unknownLanguage: return .unknownLanguage(suggestion: Suggestions.didYouMean(language, in: engine.aliases + CodeFenceInfo.aliases.keys))
        }
    }

    // MARK: The cache

    typealias CacheKey = HighlightCache.Key

    /// The answers of this build not in the cache, and the keys this build used.
    private var made: [CacheKey: [UInt8]] = [:]
    private var used: Set<CacheKey> = []
    /// The build cache's answers, for this engine; nil without a cache folder.
    private var stored: HighlightCache?

    private func cached(_ key: CacheKey) -> HighlightAnswer? {
        lock.withLock {
            used.insert(key)
            if let bytes = made[key] { return HighlightAnswer(decoding: bytes) }
            if stored == nil, let cacheFolder, let identity = known?.identity { stored = HighlightCache(folder: cacheFolder, identity: identity) }
            return stored?.answer(for: key).flatMap { HighlightAnswer(decoding: $0) }
        }
    }

    /// Keeps this build's new answers in the cache folder; a build that mapped every page
    /// (`complete`) keeps only the answers it used. Failing to write costs only speed.
    func save(complete: Bool) {
        lock.withLock {
            guard let cacheFolder, let identity = known?.identity, known?.engine != nil else { return }
            if stored == nil { stored = HighlightCache(folder: cacheFolder, identity: identity) }
            stored?.save(made: made, used: used, complete: complete)
            made = [:]
        }
    }

    // MARK: The stamp

    /// What the stamp records: the engine, and the `stat` of the files that make it.
    private struct Stamp: Codable {
        var python: String
        var version: String
        var scriptVersion: Int
        var classes: [String: String]
        var aliases: [String]
        var files: [String: String]
    }

    /// The engine the stamp records, when every file it names has the `stat` it recorded.
    private func readStamp() -> Engine? {
        guard let stampFile, let data = FileManager.default.contents(atPath: stampFile),
              let stamp = try? JSONDecoder().decode(Stamp.self, from: data),
              stamp.python == python, stamp.scriptVersion == PygmentsWorker.scriptVersion,
              !stamp.files.isEmpty, stamp.files.allSatisfy({ Self.signature(of: $0.key) == $0.value }) else { return nil }
        return Engine(version: stamp.version, classes: stamp.classes, aliases: stamp.aliases)
    }

    private func writeStamp(_ hello: PygmentsWorker.Hello) {
        guard let stampFile else { return }
        // Python (the name's target in PATH too), Pygments' package, and each folder Python
        // searches for modules: a package installed, upgraded or removed changes one of them.
        var paths = [hello.executable, hello.file, (hello.file as NSString).deletingLastPathComponent] + hello.path
        if let found = Self.lookUp(python) { paths.append(found) }
        var files: [String: String] = [:]
        for path in paths { files[path] = Self.signature(of: path) }
        let stamp = Stamp(python: python, version: hello.version, scriptVersion: PygmentsWorker.scriptVersion, classes: hello.classes, aliases: hello.aliases, files: files)
        guard let data = try? JSONEncoder().encode(stamp) else { return }
        try? FileManager.default.createDirectory(atPath: (stampFile as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temporary = stampFile + ".\(getpid()).tmp"
        if (try? data.write(to: URL(fileURLWithPath: temporary))) != nil, rename(temporary, stampFile) != 0 { unlink(temporary) }
    }

    /// A file's device, inode, size and change times, or `missing`.
    static func signature(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }

    /// Where `PATH` finds `name` (a path is itself).
    static func lookUp(_ name: String) -> String? {
        if name.contains("/") { return name }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = folder + "/" + name
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}
