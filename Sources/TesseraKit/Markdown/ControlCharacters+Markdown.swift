import CCmarkGFM
import Foundation

extension ControlCharacters {
    /// A control character that cmark decoded from a numeric character reference into `node`'s
    /// text, link URL or title, or code fence's info string, placed at the first reference of `markdown` to that character
    /// (looked for in the source: a URL or title carries no position of its own); nil when there is none.
    static func decodedReference(in node: OpaquePointer, markdown: String) -> (line: Int, column: Int, message: String)? {
        let texts = [cmark_node_get_literal(node), cmark_node_get_url(node), cmark_node_get_title(node), cmark_node_get_fence_info(node)]
        guard let found = texts.lazy.compactMap({ $0.flatMap { String(cString: $0).unicodeScalars.first(where: isControl) } }).first else { return nil }
        for (number, line) in markdown.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var rest = line[...]
            while let start = rest.range(of: "&#") {
                let after = rest[start.upperBound...]
                let hex = after.first == "x" || after.first == "X"
                let digits = (hex ? after.dropFirst() : after).prefix { hex ? $0.isHexDigit : $0.isNumber }
                rest = after
                guard !digits.isEmpty, digits.count <= 7, (hex ? after.dropFirst() : after).dropFirst(digits.count).first == ";",
                      // The reference that makes this character (one in a code span is text).
                      let value = UInt32(digits, radix: hex ? 16 : 10), value == found.value else { continue }
                let reference = "&#" + (hex ? String(after.first!) : "") + digits + ";"
                let column = line[..<start.lowerBound].count + 1
                let name = Self.name(found)
                return (number + 1, column, "the character reference \(reference) in %@ makes the control character \(name), which HTML, feeds and JSON cannot carry")
            }
        }
        return nil
    }
}
