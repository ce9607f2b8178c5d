import Foundation

/// Places in a YAML text counted as libyaml counts them, so that a mark Yams reports can be found
/// in the text and a character found in the text gets the line and column Yams would give it:
/// lines end at LF, CR, CR LF, NEL, LS and PS; columns count Unicode scalars from 1.
enum YAMLTextPosition {
    /// Calls `body` with each scalar's index, line and column until it answers false.
    static func walk(_ text: String, from start: String.UnicodeScalarView.Index? = nil, _ body: (String.UnicodeScalarView.Index, _ line: Int, _ column: Int) -> Bool) {
        let scalars = text.unicodeScalars
        var index = scalars.startIndex, line = 1, column = 1
        while index < scalars.endIndex {
            guard body(index, line, column) else { return }
            let scalar = scalars[index]
            index = scalars.index(after: index)
            switch scalar {
            case "\r" where index < scalars.endIndex && scalars[index] == "\n":
                column += 1  // CR LF is one line end: its LF ends the line
            case "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                line += 1
                column = 1
            default:
                column += 1
            }
        }
    }

    /// The index of the scalar at `line` and `column`, nil when the text has none there.
    static func index(line: Int, column: Int, in text: String) -> String.UnicodeScalarView.Index? {
        var found: String.UnicodeScalarView.Index?
        walk(text) { index, atLine, atColumn in
            if atLine == line && atColumn == column { found = index }
            return found == nil && atLine <= line
        }
        return found
    }

    /// The line and column of the scalar at `target`.
    static func place(of target: String.UnicodeScalarView.Index, in text: String) -> (line: Int, column: Int) {
        var place = (line: 1, column: 1)
        walk(text) { index, line, column in
            place = (line, column)
            return index < target
        }
        return place
    }
}
