import Foundation

/// What a page's Markdown says in plain words, read from the source without rendering it: a word
/// count for `page.readingTime`, and the first paragraph for `page.description`.
enum MarkdownText {
    /// Words a reader reads: runs of letters or digits, each CJK character counting as a word
    /// (those scripts do not separate words with spaces).
    static func wordCount(_ markdown: String) -> Int {
        var markdown = markdown
        // Byte by byte: every page's body is counted, and almost all of it is ASCII.
        return markdown.withUTF8 { bytes -> Int in
            guard let base = bytes.baseAddress else { return 0 }
            let end = bytes.count
            return Self.asciiKinds.withUnsafeBufferPointer { table -> Int in
                // Local to this closure, so that they stay in registers.
                let kinds = table.baseAddress!
                var count = 0
                // 1 inside a word, else 0.
                var inWord = 0
                var index = 0
                while index < end {
                    // Eight ASCII bytes at a time where none is `'` or `-`: a word starts at a
                    // letter or digit after a byte that is neither (or where the last ended). A
                    // page's body was 20 instructions a byte one at a time.
                    while index &+ 8 <= end {
                        let lanes = UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self).littleEndian
                        guard lanes & ByteLanes.highs == 0, ByteLanes.within(lanes, 0x27, 0x27) | ByteLanes.within(lanes, 0x2D, 0x2D) == 0 else { break }
                        let words = ByteLanes.within(lanes | 0x20 &* ByteLanes.ones, 0x61, 0x7A) | ByteLanes.within(lanes, 0x30, 0x39)
                        let before = words << 8 | UInt64(inWord) << 7
                        count &+= (words & ~before).nonzeroBitCount
                        inWord = Int(words >> 63)
                        index &+= 8
                    }
                    guard index < end else { break }
                    let byte = base[index]
                    if byte < 0x80 {
                        index &+= 1
                        // Without branches on the text: a word starts where a letter or digit
                        // follows anything else; `'` and `-` ("don't", "well-known") keep the state.
                        let kind = Int(kinds[Int(byte)])
                        let next = (kind & 1) | (kind >> 1 & inWord)
                        count &+= next & (inWord ^ 1)
                        inWord = next
                        continue
                    }
                    // A scalar of two to four bytes (a String's bytes are valid UTF-8).
                    let (value, length) = ByteLanes.scalar(in: bytes, at: index)
                    index += length
                    if (0x3040...0x30FF).contains(value) || (0x3400...0x9FFF).contains(value) || (0xAC00...0xD7AF).contains(value) {
                        // CJK: each character is a word.
                        count += 1
                        inWord = 0
                    } else if Unicode.Scalar(value)?.properties.isAlphabetic == true {
                        count += inWord ^ 1
                        inWord = 1
                    } else if value != 0x2019 {
                        inWord = 0
                    }
                }
                return count
            }
        }
    }

    /// Per ASCII byte: 1 for a letter or digit, 2 for `'` and `-`, 0 for the rest.
    private static let asciiKinds: [UInt8] = (0..<128).map { byte in
        (48...57).contains(byte) || (65...90).contains(byte) || (97...122).contains(byte) ? 1 : byte == 0x27 || byte == 0x2D ? 2 : 0
    }

    /// Minutes at 230 words a minute, at least one; nil for a page without words.
    static func readingMinutes(words: Int) -> Int? {
        words == 0 ? nil : max(1, Int((Double(words) / 230).rounded()))
    }

    /// A line of Markdown as `forEachLine` hands it on: text outside code, or a code block.
    enum Line {
        /// The line without its line break (`line`) and without its indentation (`trimmed`).
        case text(line: Substring, trimmed: Substring)
        /// A fenced code block, its fences and lines together.
        case code
    }

    /// Each line of `markdown` from the top, a fenced code block as one `.code`, until `body`
    /// returns false: bodies can be long, and most callers want their start.
    static func forEachLine(_ markdown: Substring, _ body: (Line) -> Bool) {
        var inFence: Substring?
        var rest = markdown
        while !rest.isEmpty {
            let line: Substring
            if let end = rest.utf8.firstIndex(of: 0x0A) {
                line = rest[..<end]
                rest = rest[rest.utf8.index(after: end)...]
            } else {
                line = rest
                rest = rest[rest.endIndex...]
            }
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if let fence = inFence {
                if trimmed.hasPrefix(fence) { inFence = nil }
                continue
            }
            if trimmed.hasPrefix("```") || trimmed.hasPrefix("~~~") {
                inFence = trimmed.prefix(3)
                if !body(.code) { return }
                continue
            }
            if !body(.text(line: line, trimmed: trimmed)) { return }
        }
    }

    /// The lines of the first paragraph, as written (without their indentation): not a heading,
    /// quote, list, table, raw HTML, image or code.
    static func firstParagraphLines(_ markdown: String) -> [Substring] {
        var lines: [Substring] = []
        forEachLine(markdown[...]) { line in
            guard case .text(_, let trimmed) = line, !trimmed.isEmpty, !(trimmed.hasSuffix("\r") && trimmed.count == 1) else {
                // A code block or a blank line ends the paragraph, or comes before it.
                return lines.isEmpty
            }
            // Headings, quotes, lists, tables, raw HTML and images are not a paragraph.
            if lines.isEmpty, let first = trimmed.first, "#>|<-*+!=".contains(first) || first.isNumber && trimmed.contains(". ") {
                return true
            }
            lines.append(trimmed)
            return true
        }
        return lines
    }

    /// Plain text as Markdown that reads as the same text: the punctuation Markdown acts on
    /// (emphasis, code, links, HTML, entities, headings, tables) escaped with a backslash.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count + 8)
        for character in text {
            if "\\`*_[]<>!#~|&".contains(character) { out.append("\\") }
            out.append(character)
        }
        return out
    }
}
