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
        var pieces: [(type: TokenType, text: Substring)] = []
        pieces.reserveCapacity(runs.count)
        let scalars = code.unicodeScalars
        var start = scalars.startIndex
        for run in runs {
            guard let end = scalars.index(start, offsetBy: run.length, limitedBy: scalars.endIndex) else { return nil }
            pieces.append((run.type, Substring(scalars[start..<end])))
            start = end
        }
        return start == scalars.endIndex ? pieces : nil
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
