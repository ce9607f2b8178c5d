import Foundation

extension CodeHighlighter {
    /// Lexes the fenced blocks of `texts` (read as plainly fenced lines) that the cache lacks,
    /// on every worker, while the build loads, maps and renders: a renderer then finds its
    /// blocks answered. Asked one page at a time by the renderers, the workers waited for them
    /// half the time (a highlighted build of 10,000 posts kept two cores 60% busy). A block read
    /// otherwise than the renderer reads it is lexed for nothing, and never kept in the cache
    /// of a complete build.
    func lexAhead(_ texts: [String]) {
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
            // One feeder per worker the pool may start; each waits on its worker's pipe.
            for _ in 1..<min(pool.limit, blocks.count) {
                DispatchQueue.global().async { [self] in feedAhead() }
            }
            feedAhead()
        }
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
}
