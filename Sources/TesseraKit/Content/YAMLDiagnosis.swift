import Foundation
import Yams

/// Turns Yams's (libyaml's) errors into diagnostics that point where the author must look.
///
/// libyaml notices an unclosed `[`, `{` or quote only where the document ends or a token cannot
/// continue it, often lines below; its error names the opener as context (or, for a node missing
/// in a flow collection, names the node). The diagnostic then points at the opener and says it
/// is unclosed, once `FlowCollectionScan` confirms no `]` or `}` closes it. A control character
/// is placed where it is, with libyaml's lines and columns (`YAMLTextPosition`).
enum YAMLDiagnosis {
    static let hint = "check the indentation and that values containing ': ' or starting with '{', '[', '*', '&', '@' or '`' are quoted"

    static func error(for error: YamlError, in text: String, file: String, lineOffset: Int) -> TesseraError {
        switch error {
        case let .scanner(context, problem, mark, _), let .parser(context, problem, mark, _), let .composer(context, problem, mark, _):
            if let context, let unclosed = unclosed(context: context.text, problem: problem, at: context.mark, in: text) {
                return TesseraError(unclosed.message, at: location(line: context.mark.line, column: context.mark.column, file: file, lineOffset: lineOffset), hint: unclosed.hint)
            }
            // A node missing inside a flow collection (`[` then block lines, or the end): libyaml
            // names the place of the node, not the collection.
            if context?.text == "while parsing a flow node", let opener = unclosedOpener(before: mark, in: text),
               let unclosed = flowMessage(text.unicodeScalars[opener]) {
                let place = YAMLTextPosition.place(of: opener, in: text)
                return TesseraError(unclosed.message, at: location(line: place.line, column: place.column, file: file, lineOffset: lineOffset), hint: unclosed.hint)
            }
            var message = "invalid YAML: \(problem)"
            if let context { message += " (\(context.text) at line \(context.mark.line + lineOffset))" }
            return TesseraError(message, at: location(line: mark.line, column: mark.column, file: file, lineOffset: lineOffset), hint: hint)
        case let .reader(problem, offset, value, _):
            // libyaml refuses control characters, DEL and U+FFFE/U+FFFF ("control characters are
            // not allowed"); the offset counts characters.
            guard let offset, let index = text.index(text.startIndex, offsetBy: offset, limitedBy: text.endIndex), value >= 0 else {
                return TesseraError("unreadable YAML: \(problem)", at: SourceLocation(file: file, line: lineOffset + 1), hint: "save the file as UTF-8")
            }
            let place = YAMLTextPosition.place(of: index.samePosition(in: text.unicodeScalars) ?? text.unicodeScalars.startIndex, in: text)
            let code = String(value, radix: 16, uppercase: true)
            let escape = "\\u" + String(repeating: "0", count: max(0, 4 - code.count)) + code
            return TesseraError(
                "invalid YAML: control character U+\(escape.dropFirst(2)) is not allowed", at: location(line: place.line, column: place.column, file: file, lineOffset: lineOffset),
                // A control character is refused as an escape too (`ControlCharacters`).
                hint: Unicode.Scalar(UInt32(value)).map(ControlCharacters.isControl) == true
                    ? "delete it" : "delete it, or write it as the escape \"\(escape)\" inside double quotes")
        default:
            return TesseraError("invalid YAML: \(error)", at: SourceLocation(file: file, line: lineOffset + 1), hint: hint)
        }
    }

    private static func location(line: Int, column: Int, file: String, lineOffset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line + lineOffset, column: column)
    }

    /// The message and hint for an opener libyaml's error context names and that is never
    /// closed; nil for any other error.
    static func unclosed(context: String, problem: String, at mark: Mark, in text: String) -> (message: String, hint: String)? {
        guard let index = YAMLTextPosition.index(line: mark.line, column: mark.column, in: text) else { return nil }
        let opener = text.unicodeScalars[index]
        switch (context, opener) {
        case ("while scanning a quoted scalar", "\""), ("while scanning a quoted scalar", "'"):
            // Other problems of a quoted scalar (an unknown escape) are where libyaml says.
            guard problem == "found unexpected end of stream" || problem == "found unexpected document indicator" else { return nil }
            let quote = opener == "\"" ? "'\"'" : "\"'\""
            let inside = opener == "\"" ? "'\\\"'" : "\"''\""
            return ("invalid YAML: unclosed quote \(quote): no \(quote) ends the text it opens",
                    "add \(quote) where the text ends; a \(quote) inside the text is written \(inside)")
        case ("while parsing a flow sequence", "["), ("while parsing a flow mapping", "{"):
            guard !FlowCollectionScan.isClosed(from: index, in: text) else { return nil }
            return flowMessage(opener)
        default:
            return nil
        }
    }

    static func flowMessage(_ opener: Unicode.Scalar) -> (message: String, hint: String)? {
        switch opener {
        case "[": return ("invalid YAML: unclosed '[': no ']' ends the list it opens", "add ']' after the list's last item")
        case "{": return ("invalid YAML: unclosed '{': no '}' ends the mapping it opens", "add '}' after the mapping's last entry")
        default: return nil
        }
    }

    /// The `[` or `{` before `mark` that is never closed, unless a closed one holds `mark` first
    /// (then the node is missing from a closed collection: `[a, , b]`).
    static func unclosedOpener(before mark: Mark, in text: String) -> String.UnicodeScalarView.Index? {
        let scalars = text.unicodeScalars
        // At the end of the text the mark is past its last character.
        let place = YAMLTextPosition.index(line: mark.line, column: mark.column, in: text) ?? scalars.endIndex
        var index = place
        while index > scalars.startIndex {
            index = scalars.index(before: index)
            guard scalars[index] == "[" || scalars[index] == "{" else { continue }
            guard let closer = FlowCollectionScan.closer(of: index, in: text) else { return index }
            if closer >= place { return nil }
        }
        return nil
    }
}
