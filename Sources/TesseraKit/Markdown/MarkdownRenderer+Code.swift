import Foundation

/// A code block as a page's body holds it: the block, and its HTML as the page shows it (the
/// `codeblock` hook's, else `CodeBlock.html()`).
public struct RenderedCode: Sendable, Equatable {
    public var block: CodeBlock
    public var html: String
}

extension MarkdownRenderer {
    /// The block of `code` under the fence's `info`: lexed when it names a language and the
    /// site highlights. Problems of the fence and an unknown language are warnings at its
    /// line (`column`: where the info string starts).
    func highlight(_ code: String, info: CodeFenceInfo, line: Int, column findColumn: () -> Int, into result: inout Rendering) -> CodeBlock {
        for problem in info.problems {
            result.warnings.append(LinkProblem(url: "", line: line, column: findColumn() + problem.offset, message: problem.message, hint: problem.hint))
        }
        var highlighted: HighlightedCode?
        if let highlighter, let language = info.engineLanguage {
            switch highlighter.highlight(language: language, code: code) {
            case .code(let code):
                highlighted = code
            case .unknownLanguage(let suggestion):
                result.warnings.append(LinkProblem(
                    url: "", line: line, column: findColumn(), message: "unknown language `\(info.language ?? language)`: the block is shown as plain text",
                    hint: suggestion ?? "name a language Pygments knows (`python3 -m pygments -L lexers` lists them), or write `text` for plain text"))
            case .unavailable:
                result.unhighlighted = true
            case .failed(let message):
                result.warnings.append(LinkProblem(
                    url: "", line: line, column: findColumn(), message: "the highlighter failed on this block (\(message)): it is shown as plain text",
                    hint: "report the block to Pygments, or write `text` as its language"))
            }
        }
        return CodeBlock(code: code, info: info, highlighted: highlighted)
    }
}

/// The `codeblock` hook's view data.
enum CodeBlockHook {
    /// `lines` and `tokens` are made only when the hook reads them (`MarkdownHooks.reads`):
    /// a view object per token costs more than the rest of the block.
    static func values(of block: CodeBlock, info: String, html: String, codeHTML: String, lines wantsLines: Bool, tokens wantsTokens: Bool) -> [(String, ViewValue)] {
        func optional(_ text: String?) -> ViewValue { text.map { $0.isEmpty ? .null : .string($0) } ?? .null }
        let lines = !wantsLines ? [] : block.lines().map { line in
            ViewValue.object(ViewObject([
                ("number", .number(Double(line.number))), ("html", .string(line.html)), ("marked", .bool(line.marked)),
                ("inserted", .bool(line.inserted)), ("deleted", .bool(line.deleted)),
            ]))
        }
        let tokens = !wantsTokens ? [] : (block.highlighted?.pieces(of: block.code) ?? []).map { piece in
            ViewValue.object(ViewObject([("type", .string(piece.type.name)), ("class", .string(piece.type.cssClass)), ("text", .string(String(piece.text)))]))
        }
        return [
            ("language", optional(block.language)), ("languageName", optional(block.languageName)), ("info", optional(info)),
            ("title", optional(block.title)), ("code", .string(block.code)), ("html", .string(html)), ("highlighted", .string(codeHTML)),
            ("isHighlighted", .bool(block.highlighted != nil)), ("lineNumbers", .bool(block.lineNumbers)), ("lines", .list(lines)), ("tokens", .list(tokens)),
        ]
    }
}
