import Foundation

extension CodeHighlighter {
    /// Lexes the fenced blocks of `texts` (read as plainly fenced lines) that the cache lacks,
    /// on every worker, while the build loads, maps and renders: a renderer then finds its
    /// blocks answered. Asked one page at a time by the renderers, the workers waited for them
    /// half the time (a highlighted build of 10,000 posts kept two cores 60% busy). A block read
    /// otherwise than the renderer reads it is lexed for nothing, and never kept in the cache
    /// of a complete build.
    func lexAhead(_ texts: [String]) {
        lock.withLock { lexesAhead = true }
        DispatchQueue.global().async { [self] in
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
            lock.withLock { ahead = blocks.reversed() }
            // One feeder per worker the pool may start; each waits on its worker's pipe. None
            // runs here: this closure holds every page's Markdown, which the build lets go as
            // pages are made, and lexing can last as long as rendering.
            for _ in 0..<min(pool.limit, blocks.count) {
                DispatchQueue.global().async { [self] in feedAhead() }
            }
        }
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

    /// Lexes the blocks in `ahead` that no thread has lexed or is lexing, until none is left or
    /// the engine is gone.
    private func feedAhead() {
        while let block = lock.withLock({ () -> Block? in
            while let next = ahead.popLast() {
                if made[next.key] == nil, !inFlight.contains(next.key) {
                    inFlight.insert(next.key)
                    return next
                }
            }
            return nil
        }) {
            if case .unavailable = lex(block.key, language: block.language, code: block.code) { return }
        }
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
