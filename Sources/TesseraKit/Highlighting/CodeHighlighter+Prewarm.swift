import Foundation

extension CodeHighlighter {
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
