import Foundation
import Yams

/// A fast reader for the front matter most posts have: one `key: value` per line, each value a
/// plain scalar or a flow list of plain scalars (`tags: [swift, web]`), blank lines and comment
/// lines between them.
///
/// It gives exactly the `ContentNode`s Yams gives, locations included (the tests compare both on
/// a corpus of documents), and answers nil for anything else — quotes, nesting, block scalars,
/// anchors, comments after a value, a duplicate key — which then goes through Yams. Composing a
/// small document with Yams costs more than everything else about a post's front matter.
enum FlatYAML {
    static func parse(_ text: String, file: String, lineOffset: Int) -> ContentNode? {
        var text = text
        return text.withUTF8 { bytes -> ContentNode? in
            var entries: [ContentNode.Entry] = []
            var keys = Set<String>()
            var lineStart = 0
            var line = 1
            var root: SourceLocation?
            while lineStart < bytes.count {
                var lineEnd = lineStart
                while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
                defer {
                    lineStart = lineEnd + 1
                    line += 1
                }
                let content = lineStart..<lineEnd
                if content.allSatisfy({ bytes[$0] == UInt8(ascii: " ") }) { continue }
                if bytes[lineStart] == UInt8(ascii: "#") {
                    // A comment line; a tab or CR anywhere is left to Yams.
                    if content.contains(where: { bytes[$0] == 0x09 || bytes[$0] == 0x0D }) { return nil }
                    continue
                }
                guard let entry = Self.entry(bytes, content, line: line + lineOffset, file: file), keys.insert(entry.key).inserted else { return nil }
                if root == nil { root = entry.keyLocation }
                entries.append(entry)
            }
            guard let root else { return nil }
            return ContentNode(.map(entries), at: root)
        }
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// `key: value` at column 1, or nil when the line is anything else.
    private static func entry(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, line: Int, file: String) -> ContentNode.Entry? {
        var index = range.lowerBound
        guard bytes[index] | 0x20 >= UInt8(ascii: "a"), bytes[index] | 0x20 <= UInt8(ascii: "z") else { return nil }
        while index < range.upperBound, isKeyByte(bytes[index]) { index += 1 }
        let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[range.lowerBound..<index]), as: UTF8.self)
        // ": " and a value on the same line; `key:` alone opens a nested block.
        guard index + 2 < range.upperBound, bytes[index] == UInt8(ascii: ":"), bytes[index + 1] == UInt8(ascii: " ") else { return nil }
        index += 2
        while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 }
        var end = range.upperBound
        while end > index, bytes[end - 1] == UInt8(ascii: " ") { end -= 1 }
        guard index < end else { return nil }
        let keyLocation = SourceLocation(file: file, line: line, column: 1)
        // Keys are ASCII, so the value's column is its byte offset.
        let valueLocation = SourceLocation(file: file, line: line, column: index - range.lowerBound + 1)
        let value: ContentNode
        if bytes[index] == UInt8(ascii: "[") {
            guard bytes[end - 1] == UInt8(ascii: "]"), let list = flowList(bytes, (index + 1)..<(end - 1), at: valueLocation, lineStart: range.lowerBound) else { return nil }
            value = list
        } else {
            guard let scalar = plainScalar(bytes, index..<end, inFlow: false, at: valueLocation) else { return nil }
            value = scalar
        }
        return ContentNode.Entry(key: key, keyLocation: keyLocation, value: value)
    }

    /// `a, b, c` between the brackets of a flow list, each a plain scalar.
    private static func flowList(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, at location: SourceLocation, lineStart: Int) -> ContentNode? {
        var items: [ContentNode] = []
        var index = range.lowerBound
        func skipSpaces() { while index < range.upperBound, bytes[index] == UInt8(ascii: " ") { index += 1 } }
        skipSpaces()
        while index < range.upperBound {
            var end = index
            while end < range.upperBound, bytes[end] != UInt8(ascii: ",") { end += 1 }
            var last = end
            while last > index, bytes[last - 1] == UInt8(ascii: " ") { last -= 1 }
            guard last > index else { return nil }
            // Columns count characters: the line so far may hold multi-byte ones.
            let column = bytes[lineStart..<index].reduce(1) { $0 + ($1 & 0xC0 == 0x80 ? 0 : 1) }
            guard let item = plainScalar(bytes, index..<last, inFlow: true, at: SourceLocation(file: location.file, line: location.line, column: column)) else { return nil }
            items.append(item)
            index = end
            if index < range.upperBound {
                index += 1 // the comma
                skipSpaces()
                guard index < range.upperBound else { return nil } // `[a, ]`: left to Yams
            }
        }
        return ContentNode(.list(items), at: location)
    }

    /// A plain scalar that cannot be read any other way, typed as Yams types it.
    private static func plainScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, inFlow: Bool, at location: SourceLocation) -> ContentNode? {
        let first = bytes[range.lowerBound]
        // Indicators that start something other than a plain scalar.
        if "-?:,[]{}#&*!|>'\"%@`".utf8.contains(first) { return nil }
        var previous: UInt8 = 0
        for index in range {
            let byte = bytes[index]
            switch byte {
            case 0x09, 0x0D: return nil
            case UInt8(ascii: "#") where previous == UInt8(ascii: " "): return nil
            case UInt8(ascii: " ") where previous == UInt8(ascii: ":"): return nil
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): return nil
            case UInt8(ascii: ","), UInt8(ascii: "'"), UInt8(ascii: "\""):
                if inFlow { return nil }
            default: break
            }
            previous = byte
        }
        if previous == UInt8(ascii: ":") { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        if first >= 0x80 || (first | 0x20 >= UInt8(ascii: "a") && first | 0x20 <= UInt8(ascii: "z")), !YAMLParser.resolvingWords.contains(text) {
            return ContentNode(.string(text), at: location)
        }
        // The commonest dates and whole numbers, as Yams's resolver reads them.
        let digits = range.map { bytes[$0] &- 48 }
        func allDigits(_ positions: [Int]) -> Bool { positions.allSatisfy { digits[$0] <= 9 } }
        func byte(_ offset: Int) -> UInt8 { bytes[range.lowerBound + offset] }
        if digits.count == 10, allDigits([0, 1, 2, 3, 5, 6, 8, 9]), byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-") {
            return ContentNode(.timestamp(text), at: location) // 2026-11-20
        }
        if digits.count == 20, allDigits([0, 1, 2, 3, 5, 6, 8, 9, 11, 12, 14, 15, 17, 18]), byte(4) == UInt8(ascii: "-"), byte(7) == UInt8(ascii: "-"),
           byte(10) == UInt8(ascii: "T"), byte(13) == UInt8(ascii: ":"), byte(16) == UInt8(ascii: ":"), byte(19) == UInt8(ascii: "Z") {
            return ContentNode(.timestamp(text), at: location) // 2026-11-20T10:00:00Z
        }
        if digits.count <= 18, allDigits(Array(digits.indices)), digits[0] != 0 || digits.count == 1, let number = Int(text) {
            return ContentNode(.int(number), at: location)
        }
        // Other numbers, dates and YAML's words: Yams's resolver decides, as for any other document.
        return ContentNode(YAMLParser.scalarValue(Node.Scalar(text, .implicit, .plain), node: Node(text, .implicit, .plain)), at: location)
    }
}
