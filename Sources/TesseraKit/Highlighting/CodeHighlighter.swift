#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Build-time highlighting of one build: Pygments (and tree-sitter, for the languages whose
/// grammars are installed) through long-lived workers (`PygmentsPool`), and the answers of
/// earlier builds kept in the build cache.
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
    let pool: PygmentsPool
    let cacheFolder: String?
    private let stampFile: String?
    /// Guards what follows; signalled when a block lexed ahead is answered (`inFlight`).
    let lock = NSCondition()

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

    /// What the engine is: `pygments 2.21.0 worker 6.3f2a… with tree-sitter 0.25.2, …, swift
    /// 0.7.4, …`, or `unavailable` when Python or Pygments cannot be started. Read from the
    /// stamp while it holds, else from a worker's greeting.
    public var identity: String {
        lock.withLock { known?.identity } ?? resolve().identity
    }

    /// Why code is not highlighted in this build, once a block found it; nil while it is.
    public var unavailable: String? {
        lock.withLock { known.flatMap { $0.engine == nil ? $0.reason : nil } }
    }

    /// Blocks this build had lexed (the others came from the cache).
    public var lexedBlocks: Int { lock.withLock { lexed } }
    private var lexed = 0

    struct Engine {
        var version: String
        var classes: [String: String]
        var aliases: [String]
        /// tree-sitter's version and its grammars' (`swift 0.7.4`), when installed.
        var grammars: [String]
    }

    struct Known {
        var engine: Engine?
        var reason: String = ""
        var identity: String {
            engine.map { engine in
                let grammars = engine.grammars.isEmpty ? "" : " with " + engine.grammars.joined(separator: ", ")
                return "pygments \(engine.version) worker \(PygmentsWorker.scriptVersion)\(grammars)"
            } ?? "unavailable"
        }
    }
    var known: Known?

    /// Whether this build asked what the engine is: to highlight a block, or to compare with a
    /// last build whose code it highlighted. A build that did not wrote nothing that depends on it.
    var isResolved: Bool { lock.withLock { known != nil } }

    func resolve() -> Known {
        if let known = lock.withLock({ known }) { return known }
        var result: Known
        if let stampFile, let stamp = EngineStamp.read(stampFile, python: python) {
            result = Known(engine: Engine(version: stamp.version, classes: stamp.classes, aliases: stamp.aliases, grammars: stamp.grammars))
        } else {
            do {
                let hello = try pool.hello()
                result = Known(engine: Engine(version: hello.version, classes: hello.classes, aliases: hello.aliases, grammars: hello.grammars ?? []))
                if let stampFile { EngineStamp(hello, python: python).write(to: stampFile) }
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

    /// The tokens of `code` in `language`: from the cache, else from a worker (waiting for the
    /// one that lexes it ahead, `lexAhead`, if one does).
    func highlight(language: String, code: String) -> Outcome {
        let state = resolve()
        guard let engine = state.engine else { return .unavailable }
        let key = CacheKey(language: language, code: code)
        if let answer = cached(key) ?? lock.withLock({ answerOnceLexed((key, language, code)) }) {
            return outcome(of: answer, language: language, engine: engine)
        }
        switch lex(key, language: language, code: code) {
        case .answer(let answer): return outcome(of: answer, language: language, engine: engine)
        case .failed(let message): return .failed(message)
        case .unavailable: return .unavailable
        }
    }

    /// The answer to `block` once no other thread lexes it (nil: this thread is to lex it, and
    /// others now wait for it). A block still waiting to be lexed ahead goes next, and this
    /// thread waits for it rather than start a worker of its own. Called with `lock` held.
    private func answerOnceLexed(_ block: Block) -> HighlightAnswer? {
        var hurried = false
        while true {
            if let bytes = made[block.key] { return HighlightAnswer(decoding: bytes) }
            if inFlight.contains(block.key) {
                lock.wait()
            } else if feeders > 0, queued.contains(block.key) {
                if !hurried { ahead.append(block) }
                hurried = true
                lock.wait()
            } else if preparingAhead > 0 {
                // The blocks are being found and the first worker started (`lexAhead`): this
                // one is most likely among them, and a worker of this thread's own would be a
                // second start of Python and of its grammars.
                lock.wait()
            } else {
                inFlight.insert(block.key)
                return nil
            }
        }
    }

    enum Lexed {
        case answer(HighlightAnswer)
        case failed(String)
        case unavailable
    }

    /// Lexes `key` (which this thread put in `inFlight`) with a worker, keeps the answer in
    /// `made`, and wakes the threads waiting for it.
    func lex(_ key: CacheKey, language: String, code: String) -> Lexed {
        lex([(key, language, code)])[0]
    }

    /// Lexes `blocks` (which this thread put in `inFlight`) with one worker, in one request
    /// (`PygmentsWorker.tokens(of:)`), keeps their answers in `made`, and wakes the threads
    /// waiting for them.
    func lex(_ blocks: [Block]) -> [Lexed] {
        defer {
            lock.withLock {
                for block in blocks { inFlight.remove(block.key) }
                lock.broadcast()
            }
        }
        let asked = blocks.map { (language: $0.language, code: $0.code) }
        let replies: [PygmentsWorker.Answer]
        do {
            do {
                replies = try pool.withWorker { try $0.tokens(of: asked) }
            } catch is PygmentsWorker.Malformed {
                // That worker is gone; another lexes the blocks.
                replies = try pool.withWorker { try $0.tokens(of: asked) }
            }
        } catch is PygmentsWorker.Malformed {
            return blocks.map { _ in .failed("the worker's answer did not follow the protocol") }
        } catch {
            // The stamp said Pygments was there; it is not (or its worker died): plain from here on.
            lock.withLock { known = Known(engine: nil, reason: "\(error)") }
            return blocks.map { _ in .unavailable }
        }
        let results = replies.map { reply -> (lexed: Lexed, kept: [UInt8]?) in
            switch reply {
            case .failed(let message): return (.failed(message), nil)
            case .unknownLanguage: return (.answer(.unknownLanguage), HighlightAnswer.unknownLanguage.encoded)
            case .code(let code):
                let answer = HighlightAnswer.code(code)
                return (.answer(answer), answer.encoded)
            }
        }
        lock.withLock {
            for (block, result) in zip(blocks, results) {
                guard let kept = result.kept else { continue }
                made[block.key] = kept
                lexed += 1
            }
        }
        return results.map(\.lexed)
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
    var made: [CacheKey: [UInt8]] = [:]
    /// Blocks a thread is lexing now: another thread asking for one waits for its answer.
    var inFlight: Set<CacheKey> = []
    /// A block to lex: its cache key, and what the worker is asked.
    typealias Block = (key: CacheKey, language: String, code: String)
    /// Blocks waiting to be lexed ahead of the renderers (`lexAhead`), the next last.
    var ahead: [Block] = []
    /// The keys of the blocks in `ahead` that no thread has taken yet, and the size of their
    /// requests (`PygmentsWorker.requestBytes`).
    var queued: Set<CacheKey> = []
    var queuedBytes = 0
    /// Threads lexing blocks ahead (`feedAhead`).
    var feeders = 0
    /// Whether this build's blocks are lexed ahead (`lexAhead` was asked).
    var lexesAhead = false
    /// The `lexAhead` threads still finding their blocks and starting the engine: renderers wait
    /// for them to queue the blocks.
    var preparingAhead = 0
    /// Whether the pages are rendered (`endLexingAhead`): nothing more is lexed ahead.
    var renderingEnded = false
    private var used: Set<CacheKey> = []
    /// The build cache's answers, for this engine; nil without a cache folder.
    var stored: HighlightCache?

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
        endLexingAhead()
        lock.withLock {
            guard let cacheFolder, let identity = known?.identity, known?.engine != nil else { return }
            if stored == nil { stored = HighlightCache(folder: cacheFolder, identity: identity) }
            stored?.save(made: made, used: used, complete: complete)
            made = [:]
        }
    }
}
