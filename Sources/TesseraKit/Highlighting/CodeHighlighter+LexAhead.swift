import Foundation

extension CodeHighlighter {
    /// Lexes the fenced blocks of `texts` (read as plainly fenced lines) that the cache lacks,
    /// on one worker or more (`feedAhead`), while the build loads, maps and renders: a renderer
    /// then finds its blocks answered. Asked one page at a time by the renderers, the workers
    /// waited for them half the time (a highlighted build of 10,000 posts kept two cores 60% busy). A block read
    /// otherwise than the renderer reads it is lexed for nothing, and never kept in the cache
    /// of a complete build.
    ///
    /// Until the blocks are queued, a renderer that needs one waits (`preparingAhead`) rather
    /// than start a worker of its own: on a small site the renderers reach the pages with code
    /// while the first worker starts, and one then started a second, which started Python and
    /// compiled the Swift grammar's query again (0.3 s of CPU; a first build of 100 posts, a
    /// third with a Swift block, took 0.55 s and takes 0.41 s).
    func lexAhead(_ texts: [String]) {
        lock.withLock {
            lexesAhead = true
            preparingAhead += 1
        }
        Self.onOwnThread { [self] in
            // However this ends, renderers waiting for the blocks to be queued go on.
            defer {
                lock.withLock {
                    preparingAhead -= 1
                    lock.broadcast()
                }
            }
            // A thread that started after the pages were rendered has nothing left to do.
            guard !lock.withLock({ renderingEnded }) else { return }
            // A site without code starts no Python, not even to know the engine.
            let fenced = texts.flatMap(Self.fencedBlocks)
            guard !fenced.isEmpty, resolve().engine != nil else { return }
            var seen = Set<CacheKey>()
            let blocks = fenced.compactMap { block -> Block? in
                let key = CacheKey(language: block.language, code: block.code)
                guard seen.insert(key).inserted, !isCached(key) else { return nil }
                return (key, block.language, block.code)
            }
            guard !blocks.isEmpty else { return }
            // Queued with their feeder counted, at once: a renderer then waits for the feeder.
            let feeding = lock.withLock { () -> Bool in
                // Rendered meanwhile (this thread was late, on a busy machine): the renderers
                // lexed these blocks themselves, and the answers may be saved and let go already.
                guard !renderingEnded else { return false }
                ahead = blocks.reversed()
                queued = Set(blocks.map(\.key))
                queuedBytes = blocks.reduce(0) { $0 + PygmentsWorker.requestBytes(language: $1.language, code: $1.code) }
                return reserveFeeder()
            }
            // One feeder, waiting on its worker's pipe; another starts when the blocks left would
            // keep one busy long enough to pay for a second worker (`feedAhead`). None runs
            // here: this closure holds every page's Markdown, which the build lets go as pages
            // are made, and lexing can last as long as rendering.
            if feeding { Self.onOwnThread { [self] in feedAhead() } }
        }
    }

    /// Ends lexing ahead, once the pages are rendered: blocks still waiting were never asked for
    /// (read otherwise than the renderer read them), and a thread that starts late queues none.
    /// A batch being lexed is finished.
    func endLexingAhead() {
        lock.withLock {
            renderingEnded = true
            ahead = []
            queued = []
            queuedBytes = 0
            lock.broadcast()
        }
    }

    /// Starts a thread lexing blocks ahead, unless every worker the pool may start has one.
    private func startFeeder() {
        guard lock.withLock({ reserveFeeder() }) else { return }
        Self.onOwnThread { [self] in feedAhead() }
    }

    /// Counts one more feeder, unless every worker the pool may start has one. Called with
    /// `lock` held.
    private func reserveFeeder() -> Bool {
        guard feeders < pool.limit else { return false }
        feeders += 1
        return true
    }

    /// Runs `body` on a thread of its own. Not on Dispatch's threads: the renderers hold them
    /// (`concurrentPerform`), so work sent there started only once renderers waited for its
    /// blocks and Dispatch noticed, after up to a second with every core idle.
    private static func onOwnThread(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "tessera-lex-ahead"
        thread.start()
    }

    /// The order to render `texts` in: while blocks are lexed ahead, those without three
    /// backticks or three tildes in a row (no fenced code) first, then the others, each part in
    /// its order, so that no renderer waits for the workers to start; nil otherwise.
    func renderingOrder(_ texts: [String]) -> [Int]? {
        lock.withLock { lexesAhead } ? Self.codeLast(texts) : nil
    }

    /// The indexes of `texts`: first those without three backticks or three tildes in a row,
    /// then the others, each part in its order.
    static func codeLast(_ texts: [String]) -> [Int] {
        let hasCode = texts.map { ByteSearch.contains("```", in: $0) || ByteSearch.contains("~~~", in: $0) }
        return texts.indices.filter { !hasCode[$0] } + texts.indices.filter { hasCode[$0] }
    }

    /// The most blocks lexed ahead in one request: a renderer waiting for one of them waits
    /// for them all.
    static let aheadBatch = 32

    /// Lexes the blocks in `ahead` that no thread has lexed or is lexing, a batch at a time
    /// (`PygmentsWorker.tokens(of:)`), until none is left or the engine is gone.
    ///
    /// A worker costs a tenth of a second of CPU to start, and each tree-sitter grammar it
    /// loads more (0.4 s for Swift's highlight query), on the cores the renderers use: the
    /// blocks of 10,000 posts with a three-line block each keep one worker busy for less than
    /// that. So a second feeder, and its worker, starts only when the blocks left would take
    /// this one more than `secondWorkerSeconds`, at the rate of its batches after its first
    /// (which paid for starting).
    private func feedAhead() {
        defer {
            lock.withLock {
                feeders -= 1
                lock.broadcast()
            }
        }
        var batches = 0
        while true {
            let (batch, bytes) = lock.withLock { takeBatch() }
            guard !batch.isEmpty else { return }
            let started = ContinuousClock.now
            for lexed in lex(batch) {
                if case .unavailable = lexed { return }
            }
            batches += 1
            guard batches > 1 else { continue }
            let seconds = (ContinuousClock.now - started) / .seconds(1)
            let left = lock.withLock { queuedBytes }
            if Double(left) * seconds / Double(max(bytes, 1)) > Self.secondWorkerSeconds { startFeeder() }
        }
    }

    /// How long the blocks left must keep one worker busy for a second to start.
    static let secondWorkerSeconds = 1.0

    /// The next blocks of `ahead` that no thread has lexed or is lexing, now in `inFlight`:
    /// up to `aheadBatch` of them and `PygmentsWorker.batchBytes` of requests, or one larger
    /// block; and the size of their requests. Called with `lock` held.
    private func takeBatch() -> (blocks: [Block], bytes: Int) {
        var batch: [Block] = []
        var bytes = 0
        while let next = ahead.last {
            let size = PygmentsWorker.requestBytes(language: next.language, code: next.code)
            // Lexed or being lexed already (by a renderer that got there first): no longer queued.
            guard made[next.key] == nil, !inFlight.contains(next.key) else {
                ahead.removeLast()
                if queued.remove(next.key) != nil { queuedBytes -= size }
                continue
            }
            if !batch.isEmpty, batch.count == Self.aheadBatch || bytes + size > PygmentsWorker.batchBytes { break }
            ahead.removeLast()
            if queued.remove(next.key) != nil { queuedBytes -= size }
            inFlight.insert(next.key)
            batch.append(next)
            bytes += size
        }
        return (batch, bytes)
    }

    /// Whether the cache has an answer for `key` (without marking it used).
    func isCached(_ key: CacheKey) -> Bool {
        lock.withLock {
            if made[key] != nil { return true }
            if stored == nil, let cacheFolder, let identity = known?.identity { stored = HighlightCache(folder: cacheFolder, identity: identity) }
            return stored?.contains(key) ?? false
        }
    }

    /// The blocks of `text` between fence lines at the start of a line, with the language the
    /// engine would be asked for; a line's `\r\n` ends it as `\n` does, as in cmark.
    ///
    /// Read as UTF-8 bytes: split into `Character`s, the bodies of 10,000 posts took a tenth of
    /// the build's CPU before the first block was sent.
    static func fencedBlocks(in text: String) -> [(language: String, code: String)] {
        var text = text
        return text.withUTF8 { bytes in
            let newline = UInt8(ascii: "\n"), space = UInt8(ascii: " ")
            var blocks: [(language: String, code: String)] = []
            var open: (mark: UInt8, length: Int, language: String?)?
            var code: [UInt8] = []
            var start = 0
            while start <= bytes.count {
                let end = bytes[start...].firstIndex(of: newline) ?? bytes.count
                defer { start = end + 1 }
                let line = bytes[start..<(end > start && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end)]
                if let fence = open {
                    if line.count >= fence.length, line.prefix(fence.length).allSatisfy({ $0 == fence.mark }),
                       line.allSatisfy({ $0 == fence.mark || $0 == space }) {
                        if let language = fence.language { blocks.append((language, String(decoding: code, as: UTF8.self))) }
                        open = nil
                    } else {
                        code.append(contentsOf: line)
                        code.append(newline)
                    }
                } else if let mark = line.first, mark == UInt8(ascii: "`") || mark == UInt8(ascii: "~"),
                          line.prefix(3).elementsEqual(repeatElement(mark, count: 3)) {
                    let length = line.prefix { $0 == mark }.count
                    open = (mark, length, CodeFenceInfo(String(decoding: line.dropFirst(length), as: UTF8.self)).engineLanguage)
                    code.removeAll(keepingCapacity: true)
                }
            }
            return blocks
        }
    }
}
