import Foundation

/// Links or images of a Markdown text that cannot be written; callers place them in their file.
public struct MarkdownURLError: Error, Sendable {
    public var problems: [MarkdownRenderer.LinkProblem]

    /// One diagnostic per link, with lines counted from `start` (the Markdown's first line in its
    /// file) and columns from the line's start (from `start`'s column on the first line).
    func diagnostics(from start: SourceLocation, what: String) -> TesseraError {
        diagnostics(what: what) { line, column in
            var location = start.offset(lines: line - 1)
            location.column = line == 1 ? start.column + column - 1 : column
            return location
        }
    }

    /// The same for Markdown held in a YAML value: placed inside its quotes or block.
    func diagnostics(in node: ContentNode, what: String) -> TesseraError {
        diagnostics(what: what) { node.place(ofTextLine: $0, column: $1) }
    }

    private func diagnostics(what: String, place: (Int, Int) -> SourceLocation) -> TesseraError {
        TesseraError(diagnostics: problems.map { problem in
            Diagnostic(.error, problem.message.replacingOccurrences(of: "%@", with: what), at: place(problem.line, problem.column), hint: problem.hint)
        })
    }
}
