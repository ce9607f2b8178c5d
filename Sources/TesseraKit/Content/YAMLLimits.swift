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
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let bytes = Array(line.utf8)
            let indent = bytes.prefix { $0 == 32 }.count
            let isBlank = indent == bytes.count || bytes[indent] == 35 /* # */
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
            var index = indent
            while index < bytes.count {
                let byte = bytes[index]
                if let open = quote {
                    if byte == open { quote = nil }
                } else {
                    switch byte {
                    case 34, 39: // " '
                        quote = byte
                    case 35 where index == 0 || bytes[index - 1] == 32 || bytes[index - 1] == 9: // # comment
                        index = bytes.count
                        continue
                    case 91, 123: // [ {
                        flowDepth += 1
                        depth += 1
                    case 93, 125: // ] }
                        flowDepth = max(0, flowDepth - 1)
                    case 45 where flowDepth == 0 && index + 1 < bytes.count && bytes[index + 1] == 32
                        && bytes[indent..<index].allSatisfy({ $0 == 32 || $0 == 45 }): // `- ` entries
                        depth += 1
                    default:
                        break
                    }
                }
                if depth > maxDepth {
                    return (lineNumber, String(decoding: bytes[..<index], as: UTF8.self).count + 1)
                }
                index += 1
            }
            // `key: |` or `- >-`: the lines below, indented deeper, are text, not structure.
            let trimmed = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            if quote == nil, flowDepth == 0, let marker = trimmed.split(separator: " ").last,
               marker.first == "|" || marker.first == ">",
               marker.dropFirst().allSatisfy({ $0 == "-" || $0 == "+" || $0.isNumber }),
               trimmed.count > marker.count || trimmed == String(marker) {
                blockScalarIndent = indent
            }
        }
        return nil
    }
}
