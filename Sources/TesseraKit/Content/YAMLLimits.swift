import Foundation

/// Limits that keep a YAML document from crashing or stalling a build.
///
/// libyaml's parser is iterative, but Yams and Tessera build their trees by recursion, one stack
/// frame per nesting level, and aliases (`*name`) share one subtree that every later stage walks
/// again. So nesting is measured on the text before anything recursive sees it, and the values a
/// document expands to are counted as it is converted.
enum YAMLLimits {
    /// Deeper than any real front matter, feed or schema (a page with containers nests ~15).
    static let maxDepth = 100

    /// Values a document may expand to: far more than its text can hold without aliases.
    static func maxValues(forLength length: Int) -> Int { 100_000 + 2 * length }

    /// Where the nesting of `text` first goes deeper than `maxDepth`, as a 1-based line and
    /// column; nil when it never does. Counts indentation levels, `- ` entries and open flow
    /// brackets; it may count a level too many (a wrapped plain scalar), never one too few.
    static func firstTooDeep(_ text: String) -> (line: Int, column: Int)? {
        var indents: [Int] = []
        var flowDepth = 0
        var blockScalarIndent: Int?
        var lineNumber = 0
        // One pass over the bytes: no String per line (this runs on every file of a build).
        let all = Array(text.utf8)
        var lineStart = 0
        while lineStart <= all.count {
            let lineEnd = all[lineStart...].firstIndex(of: 10) ?? all.count
            defer { lineStart = lineEnd + 1 }
            lineNumber += 1
            let bytes = all[lineStart..<lineEnd]
            let first = bytes.startIndex
            let indent = bytes.prefix { $0 == 32 }.count
            let isBlank = indent == bytes.count || bytes[first + indent] == 35 /* # */
            if let scalarIndent = blockScalarIndent {
                if isBlank || indent > scalarIndent { continue }
                blockScalarIndent = nil
            }
            if isBlank { continue }
            if flowDepth == 0 {
                while let last = indents.last, last > indent { indents.removeLast() }
                if indents.last != indent { indents.append(indent) }
            }
            var depth = indents.count + flowDepth
            var quote: UInt8?
            var index = first + indent
            while index < bytes.endIndex {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else {
                    switch byte {
                    case 34, 39: // " '
                        quote = byte
                    case 35 where index == first || bytes[index - 1] == 32 || bytes[index - 1] == 9: // # comment
                        index = bytes.endIndex
                        continue
                    case 91, 123: // [ {
                        flowDepth += 1
                        depth += 1
                    case 93, 125: // ] }
                        flowDepth = max(0, flowDepth - 1)
                    case 45 where flowDepth == 0 && index + 1 < bytes.endIndex && bytes[index + 1] == 32
                        && bytes[(first + indent)..<index].allSatisfy({ $0 == 32 || $0 == 45 }): // `- ` entries
                        depth += 1
                    default:
                        break
                    }
                }
                if depth > maxDepth {
                    return (lineNumber, String(decoding: bytes[first..<index], as: UTF8.self).count + 1)
                }
                index += 1
            }
            // `key: |` or `- >-`: the lines below, indented deeper, are text, not structure.
            if quote == nil, flowDepth == 0, let marker = lastToken(bytes), let head = marker.first, head == 124 || head == 62, // | >
               marker.dropFirst().allSatisfy({ $0 == 45 || $0 == 43 || (48...57).contains($0) }) { // - + digits
                blockScalarIndent = indent
            }
        }
        return nil
    }

    /// The last space-separated token of a line, ignoring trailing spaces, tabs and a CR.
    private static func lastToken(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        guard let last = bytes.lastIndex(where: { $0 != 32 && $0 != 9 && $0 != 13 }) else { return nil }
        let start = bytes[..<last].lastIndex(where: { $0 == 32 || $0 == 9 }).map { $0 + 1 } ?? bytes.startIndex
        return bytes[start...last]
    }
}
