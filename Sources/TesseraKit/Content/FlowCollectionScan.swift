import Foundation

/// Finds whether a YAML flow collection (`[…]`, `{…}`) is closed, reading from its opener as
/// libyaml's scanner does in flow context: brackets nest, quoted scalars and comments hide what
/// they hold, and a quote inside plain text (`it's`) is only a character.
///
/// Used after libyaml has given up inside the collection, to tell an unclosed opener from another
/// mistake inside a closed one (`{a: b c: d}`).
enum FlowCollectionScan {
    static func isClosed(from opener: String.UnicodeScalarView.Index, in text: String) -> Bool {
        closer(of: opener, in: text) != nil
    }

    /// The index of the `]` or `}` that closes the collection opened at `opener`, nil if none does.
    static func closer(of opener: String.UnicodeScalarView.Index, in text: String) -> String.UnicodeScalarView.Index? {
        let scalars = Array(text.unicodeScalars[opener...])
        var depth = 0, index = 0
        // Inside a plain scalar, which runs over spaces and lines up to an indicator.
        var inPlain = false
        func isBreak(_ offset: Int) -> Bool {
            offset >= scalars.count || ["\n", "\r", "\u{85}", "\u{2028}", "\u{2029}"].contains(scalars[offset])
        }
        func isBlank(_ offset: Int) -> Bool {
            isBreak(offset) || scalars[offset] == " " || scalars[offset] == "\t"
        }
        while index < scalars.count {
            let scalar = scalars[index]
            switch scalar {
            case "[", "{":
                depth += 1
                inPlain = false
            case "]", "}":
                depth -= 1
                if depth == 0 { return text.unicodeScalars.index(opener, offsetBy: index) }
                inPlain = false
            case ",":
                inPlain = false
            case ":" where isBlank(index + 1) || ",[]{}".unicodeScalars.contains(scalars[index + 1]):
                inPlain = false
            case "#" where index > 0 && isBlank(index - 1):
                while !isBreak(index + 1) { index += 1 }
                inPlain = false
            case "\"" where !inPlain, "'" where !inPlain:
                index += 1
                while index < scalars.count {
                    if scalar == "\"", scalars[index] == "\\" {
                        index += 2
                        continue
                    }
                    if scalars[index] == scalar {
                        // `''` is a quote inside a single-quoted scalar.
                        guard scalar == "'", index + 1 < scalars.count, scalars[index + 1] == "'" else { break }
                        index += 1
                    }
                    index += 1
                }
                if index >= scalars.count { return nil }
            case " ", "\t", "\n", "\r", "\u{85}", "\u{2028}", "\u{2029}":
                break
            default:
                inPlain = true
            }
            index += 1
        }
        return nil
    }
}
