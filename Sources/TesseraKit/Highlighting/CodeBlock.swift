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
    struct Line: Equatable {
        var number: Int
        /// The line's highlighted HTML, without its line break.
        var html: String
        var marked: Bool
        /// In a diff: the line adds (`+`) or removes (`-`) text.
        var inserted: Bool
        var deleted: Bool
    }

    /// The block's lines, each one's tokens closed at its end and opened again on the next.
    /// A line ends at each `\n` that does not follow a `\r` of the same token (read as
    /// `Character`s, as this was, `\r\n` is one, and not a line break).
    func lines() -> [Line] {
        var code = code
        return code.withUTF8 { bytes in
            var lines: [Line] = []
            var current: [UInt8] = []
            var lineStart = 0
            func finish(at end: Int) {
                let number = lines.count + 1
                var inserted = false, deleted = false
                if isDiff, end > lineStart {
                    let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<end]), as: UTF8.self)
                    if !(text.hasPrefix("+++") || text.hasPrefix("---")) {
                        inserted = bytes[lineStart] == UInt8(ascii: "+")
                        deleted = bytes[lineStart] == UInt8(ascii: "-")
                    }
                }
                lines.append(Line(number: firstLineNumber + number - 1, html: String(decoding: current, as: UTF8.self), marked: markedLines.contains(number),
                                  inserted: inserted, deleted: deleted))
                current.removeAll(keepingCapacity: true)
            }
            forEachRun(in: bytes) { type, range in
                var start = range.lowerBound
                var search = start
                while let newline = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: search), newline < range.upperBound {
                    search = newline + 1
                    if newline > range.lowerBound, bytes[newline - 1] == 0x0D { continue }
                    if newline > start { Self.append(UnsafeBufferPointer(rebasing: bytes[start..<newline]), type: type, to: &current) }
                    finish(at: newline)
                    start = newline + 1
                    lineStart = start
                }
                if range.upperBound > start { Self.append(UnsafeBufferPointer(rebasing: bytes[start..<range.upperBound]), type: type, to: &current) }
            }
            if lineStart < bytes.count { finish(at: bytes.count) }
            return lines
        }
    }

    /// Calls `body` with each run of `bytes` (the code's) and its type: one untyped run for plain
    /// code, or for code whose tokens do not add up to it.
    private func forEachRun(in bytes: UnsafeBufferPointer<UInt8>, _ body: (HighlightedCode.TokenType?, Range<Int>) -> Void) {
        if let ranges = highlighted?.byteRanges(in: bytes) {
            for run in ranges { body(run.type, run.bytes) }
        } else {
            body(nil, 0..<bytes.count)
        }
    }

    /// What goes inside `<code>`: the tokens as spans of Pygments' classes (whitespace and plain
    /// text unwrapped), or with `wrapsLines` each line a `<span class="line">` (numbered, marked,
    /// added or removed) ending in its line break.
    func codeHTML() -> String {
        guard wrapsLines else {
            var code = code
            return code.withUTF8 { bytes in
                var out: [UInt8] = []
                out.reserveCapacity(bytes.count * 2)
                forEachRun(in: bytes) { type, range in Self.append(UnsafeBufferPointer(rebasing: bytes[range]), type: type, to: &out) }
                return String(decoding: out, as: UTF8.self)
            }
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
    static func append(_ text: UnsafeBufferPointer<UInt8>, type: HighlightedCode.TokenType?, to out: inout [UInt8]) {
        let cssClass = type?.cssClass ?? ""
        let wrapped = !cssClass.isEmpty && cssClass != "w"
        if wrapped {
            out.append(contentsOf: "<span class=\"".utf8)
            out.append(contentsOf: cssClass.utf8)
            out.append(contentsOf: "\">".utf8)
        }
        // The bytes between those to escape go in at once.
        var plain = 0
        for (index, byte) in text.enumerated() where byte <= 0x3E {
            let escape: StaticString
            switch byte {
            case 0x3C: escape = "&lt;"
            case 0x3E: escape = "&gt;"
            case 0x26: escape = "&amp;"
            case 0x22: escape = "&quot;"
            default: continue
            }
            if index > plain { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[plain..<index])) }
            out.append(contentsOf: UnsafeBufferPointer(start: escape.utf8Start, count: escape.utf8CodeUnitCount))
            plain = index + 1
        }
        if text.count > plain { out.append(contentsOf: UnsafeBufferPointer(rebasing: text[plain...])) }
        if wrapped { out.append(contentsOf: "</span>".utf8) }
    }
}
