import Foundation

/// A block of code as the highlighter lexed it: runs of text, each of one token type.
public struct HighlightedCode: Sendable, Equatable {
    /// A token type: Pygments' name (`Keyword.Declaration`), the page JSON's `type`, and its CSS
    /// class (`kd`), the class names Pygments' and Chroma's (so Hugo's) style sheets use.
    public struct TokenType: Sendable, Hashable {
        public var name: String
        public var cssClass: String
    }

    public struct Run: Sendable, Equatable {
        public var type: TokenType
        /// In Unicode scalars of the code.
        public var length: Int
    }

    /// The language's name as people write it (`Swift`, `TypeScript`): Pygments' lexer name.
    public var lexer: String
    public var runs: [Run]

    /// The runs with their text: `code` cut at the runs' lengths. Nil when they do not add up
    /// to the code (never for what the worker answers: it checks that the tokens are the code).
    func pieces(of code: String) -> [(type: TokenType, text: Substring)]? {
        var code = code
        guard let ranges = code.withUTF8({ byteRanges(in: $0) }) else { return nil }
        let utf8 = code.utf8
        return ranges.map { run in
            (run.type, code[utf8.index(utf8.startIndex, offsetBy: run.bytes.lowerBound)..<utf8.index(utf8.startIndex, offsetBy: run.bytes.upperBound)])
        }
    }

    /// The runs as ranges of the code's UTF-8 `bytes` (the lengths count Unicode scalars, each
    /// starting at a byte that does not continue another); nil when they do not add up to it.
    func byteRanges(in bytes: UnsafeBufferPointer<UInt8>) -> [(type: TokenType, bytes: Range<Int>)]? {
        var ranges: [(type: TokenType, bytes: Range<Int>)] = []
        ranges.reserveCapacity(runs.count)
        let count = bytes.count
        var start = 0
        for run in runs {
            var end = start, left = run.length
            while left > 0 {
                guard end < count else { return nil }
                end &+= 1
                while end < count, bytes[end] & 0xC0 == 0x80 { end &+= 1 }
                left &-= 1
            }
            ranges.append((run.type, start..<end))
            start = end
        }
        return start == count ? ranges : nil
    }

    /// The CSS class of `name`: Pygments' own for a standard type, else its nearest standard
    /// parent's followed by the rest of the name (`Name.Custom` → `nCustom`), as Pygments makes it.
    static func cssClass(of name: String, standard: [String: String]) -> String {
        if let known = standard[name] { return known }
        var parts = name.split(separator: ".")
        var suffix = ""
        while let last = parts.popLast() {
            suffix = last + suffix
            if let known = standard[parts.joined(separator: ".")] { return known + suffix }
        }
        return suffix
    }
}
