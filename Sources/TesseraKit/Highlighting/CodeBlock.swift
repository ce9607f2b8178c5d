import Foundation

/// A fenced or indented block of Markdown code, highlighted or plain: what its HTML, its
/// `codeblock` hook and its page JSON block are made of.
public struct CodeBlock: Sendable, Equatable {
    /// The fence's first word as written (`Swift`, `ts`); nil for a block without one.
    public var language: String?
    /// The fence's `title=` (a file name, shown as the block's caption).
    public var title: String?
    /// The code, with its last line break.
    public var code: String
    /// The tokens; nil for plain code (no language, an unknown one, or no engine).
    public var highlighted: HighlightedCode?
    public var lineNumbers = false
    public var firstLineNumber = 1
    public var markedLines: Set<Int> = []

    init(code: String, info: CodeFenceInfo, highlighted: HighlightedCode?) {
        self.code = code
        language = info.language
        title = info.title
        self.highlighted = highlighted
        lineNumbers = info.lineNumbers
        firstLineNumber = info.firstLineNumber
        markedLines = info.markedLines
    }

    /// A diff: each added and removed line is marked as a whole.
    var isDiff: Bool {
        guard let language = language?.lowercased() else { return false }
        return language == "diff" || language == "patch" || language == "udiff"
    }

    /// Each line in its own element: for numbers, marked lines and diffs.
    var wrapsLines: Bool { lineNumbers || !markedLines.isEmpty || isDiff }

    /// The language's name for people: the lexer's (`TypeScript`), else the fence's word.
    public var languageName: String? { highlighted?.lexer ?? language }

    /// One line of the block, as its hook gets it.
    struct Line {
        var number: Int
        /// The line's highlighted HTML, without its line break.
        var html: String
        var marked: Bool
        /// In a diff: the line adds (`+`) or removes (`-`) text.
        var inserted: Bool
        var deleted: Bool
    }

    /// The block's lines, each one's tokens closed at its end and opened again on the next.
    func lines() -> [Line] {
        var lines: [Line] = []
        var current: [UInt8] = []
        var text = ""
        func finish() {
            let number = lines.count + 1
            let first = text.utf8.first
            let isHeader = text.hasPrefix("+++") || text.hasPrefix("---")
            lines.append(Line(
                number: firstLineNumber + number - 1, html: String(decoding: current, as: UTF8.self), marked: markedLines.contains(number),
                inserted: isDiff && !isHeader && first == UInt8(ascii: "+"), deleted: isDiff && !isHeader && first == UInt8(ascii: "-")))
            current.removeAll(keepingCapacity: true)
            text = ""
        }
        for (type, piece) in pieces {
            var parts = piece.split(separator: "\n", omittingEmptySubsequences: false)[...]
            while let part = parts.popFirst() {
                if !part.isEmpty {
                    Self.append(part, type: type, to: &current)
                    text += part
                }
                if !parts.isEmpty { finish() }
            }
        }
        if !current.isEmpty || !text.isEmpty { finish() }
        return lines
    }

    /// The runs of the code with their types (one untyped run for plain code).
    var pieces: [(type: HighlightedCode.TokenType?, text: Substring)] {
        if let pieces = highlighted?.pieces(of: code) { return pieces.map { ($0.type, $0.text) } }
        return [(nil, code[...])]
    }

    /// What goes inside `<code>`: the tokens as spans of Pygments' classes (whitespace and plain
    /// text unwrapped), or with `wrapsLines` each line a `<span class="line">` (numbered, marked,
    /// added or removed) ending in its line break.
    func codeHTML() -> String {
        guard wrapsLines else {
            var out: [UInt8] = []
            out.reserveCapacity(code.utf8.count * 2)
            for (type, text) in pieces { Self.append(text, type: type, to: &out) }
            return String(decoding: out, as: UTF8.self)
        }
        let all = lines()
        let width = String(all.last?.number ?? 1).count
        var out = ""
        for line in all {
            out += "<span class=\"line"
            if line.marked { out += " hl" }
            if line.inserted { out += " gi" }
            if line.deleted { out += " gd" }
            out += "\">"
            if lineNumbers {
                let number = String(line.number)
                out += "<span class=\"ln\" aria-hidden=\"true\">" + String(repeating: " ", count: width - number.count) + number + "</span>"
            }
            out += line.html + "</span>\n"
        }
        return out
    }

    /// The block as written without a `codeblock` hook: libcmark's `<pre><code class="language-…">`
    /// with the highlighted code, the `pre` focusable (a wide block scrolls by keyboard), in a
    /// `<figure>` under its title when it has one.
    /// `code`: `codeHTML()`, when the caller has it already.
    func html(code: String? = nil) -> String {
        var pre = "<pre class=\"highlight\" tabindex=\"0\"><code"
        if let language, !language.isEmpty { pre += " class=\"language-" + HTMLEscape.escaped(language) + "\"" }
        pre += ">" + (code ?? codeHTML()) + "</code></pre>\n"
        guard let title else { return pre }
        return "<figure class=\"code-block\"><figcaption>" + HTMLEscape.escaped(title) + "</figcaption>\n" + pre + "</figure>\n"
    }

    /// `text` HTML-escaped (`&`, `<`, `>`, `"`, as libcmark escapes code), in a span of its
    /// type's class unless it has none or is whitespace.
    static func append(_ text: Substring, type: HighlightedCode.TokenType?, to out: inout [UInt8]) {
        let cssClass = type?.cssClass ?? ""
        let wrapped = !cssClass.isEmpty && cssClass != "w"
        if wrapped {
            out.append(contentsOf: "<span class=\"".utf8)
            out.append(contentsOf: cssClass.utf8)
            out.append(contentsOf: "\">".utf8)
        }
        for byte in text.utf8 {
            switch byte {
            case 0x3C: out.append(contentsOf: "&lt;".utf8)
            case 0x3E: out.append(contentsOf: "&gt;".utf8)
            case 0x26: out.append(contentsOf: "&amp;".utf8)
            case 0x22: out.append(contentsOf: "&quot;".utf8)
            default: out.append(byte)
            }
        }
        if wrapped { out.append(contentsOf: "</span>".utf8) }
    }
}
