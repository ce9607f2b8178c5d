import Foundation
import Yams

/// A fast reader for the YAML content is written in: block mappings and sequences (`key: value`,
/// `- item`, `- key: value`), flow mappings and lists on one line (`{ component: notice, tone:
/// info }`, `[swift, web]`), plain scalars, and quoted ones without escapes; blank lines and
/// comment lines between them.
///
/// It gives exactly the `ContentNode`s Yams gives, locations included (the tests compare both on
/// a corpus of documents, and on every content file of the example site), and answers nil for
/// anything else — escapes, block scalars, anchors, tags, comments after a value, multi-line
/// scalars or flow collections, duplicate keys, tabs, control characters, Unicode line breaks
/// (NEL, LS, PS, CR), BOMs — which then goes through Yams, errors included
/// (`FastYAMLDifferentialTests` holds it to that on generated documents salted with all of
/// these). Composing documents with Yams cost more than everything else about a feed page.
enum FastYAML {
    /// The document's tree, or nil when it is not one of the documents read here. A tree read
    /// here is never nested past `YAMLLimits.maxDepth` (see `maxCallDepth`).
    static func parse(_ text: String, file: String, lineOffset: Int) -> ContentNode? {
        var text = text
        return text.withUTF8 { bytes -> ContentNode? in
            var reader = Reader(bytes: bytes, file: file, lineOffset: lineOffset)
            return reader.document()
        }
    }

    /// A line with content: where it starts, where its content starts and ends (trailing spaces
    /// dropped), its indentation and its number in the document.
    struct Line {
        var start: Int
        var content: Int
        var end: Int
        var number: Int
        /// No byte of the line is past ASCII: a column is then a byte offset.
        var ascii: Bool
        var indent: Int { content - start }
    }

    /// Calls nested deeper than this give up (the document goes the slow way, whose first step
    /// measures nesting on the text). Each YAML level is at most three calls deep here, so a
    /// document read within this is nowhere near `YAMLLimits.maxDepth`, and `parse` says so.
    static let maxCallDepth = 30

    private struct Reader {
        let bytes: UnsafeBufferPointer<UInt8>
        let file: String
        let lineOffset: Int
        var lines: [Line] = []
        var index = 0

        init(bytes: UnsafeBufferPointer<UInt8>, file: String, lineOffset: Int) {
            self.bytes = bytes
            self.file = file
            self.lineOffset = lineOffset
        }

        mutating func document() -> ContentNode? {
            guard scanLines(), let first = lines.first, first.indent == 0, let root = block(indent: 0, depth: 1), index == lines.count else { return nil }
            return root
        }

        /// Splits the lines; false for what is left to Yams everywhere: characters YAML reads in
        /// a way of its own (see `isPlainText`), directives and document markers.
        mutating func scanLines() -> Bool {
            var start = 0, number = 1
            lines.reserveCapacity(bytes.count / 32 + 4)
            while start < bytes.count {
                var end = start
                var high: UInt8 = 0
                while end < bytes.count, bytes[end] != 0x0A {
                    // One comparison for printable ASCII, the common case.
                    if bytes[end] &- 0x20 > 0x5E {
                        guard FastYAML.isPlainText(bytes, at: end) else { return false }
                        high |= bytes[end]
                    }
                    end += 1
                }
                defer { start = end + 1; number += 1 }
                var content = start
                while content < end, bytes[content] == 0x20 { content += 1 }
                guard content < end, bytes[content] != UInt8(ascii: "#") else { continue }
                if content == start, bytes[start] == UInt8(ascii: "%") { return false }
                if content == start, end - start >= 3, (bytes[start] == UInt8(ascii: "-") && bytes[start + 1] == UInt8(ascii: "-") && bytes[start + 2] == UInt8(ascii: "-"))
                    || (bytes[start] == UInt8(ascii: ".") && bytes[start + 1] == UInt8(ascii: ".") && bytes[start + 2] == UInt8(ascii: ".")) {
                    return false
                }
                var last = end
                while last > content, bytes[last - 1] == 0x20 { last -= 1 }
                lines.append(Line(start: start, content: content, end: last, number: number, ascii: high < 0x80))
            }
            return true
        }

        // MARK: Blocks

        func isItem(_ line: Line) -> Bool {
            bytes[line.content] == UInt8(ascii: "-") && (line.content + 1 == line.end || bytes[line.content + 1] == 0x20)
        }

        func location(_ line: Line, _ position: Int) -> SourceLocation {
            // Columns count characters: the line so far may hold multi-byte ones.
            guard !line.ascii else { return SourceLocation(file: file, line: line.number + lineOffset, column: position - line.start + 1) }
            var column = 1
            for offset in line.start..<position where bytes[offset] & 0xC0 != 0x80 { column += 1 }
            return SourceLocation(file: file, line: line.number + lineOffset, column: column)
        }

        mutating func block(indent: Int, depth: Int) -> ContentNode? {
            guard depth <= FastYAML.maxCallDepth, index < lines.count, lines[index].indent == indent else { return nil }
            return isItem(lines[index]) ? sequence(indent: indent, depth: depth + 1) : mapping(indent: indent, firstKey: lines[index].content, depth: depth + 1)
        }

        /// The length of a plain key at `position` followed by `:` and a space or the line's end.
        func keyLength(_ line: Line, at position: Int) -> Int? {
            var end = position
            guard end < line.end, bytes[end] | 0x20 >= UInt8(ascii: "a"), bytes[end] | 0x20 <= UInt8(ascii: "z") else { return nil }
            while end < line.end, FastYAML.isKeyByte(bytes[end]) { end += 1 }
            guard end < line.end, bytes[end] == UInt8(ascii: ":"), end + 1 == line.end || bytes[end + 1] == 0x20 else { return nil }
            return end - position
        }

        /// Entries at `indent`; the first key may start mid-line (`- key: value`).
        mutating func mapping(indent: Int, firstKey: Int, depth: Int) -> ContentNode? {
            guard depth <= FastYAML.maxCallDepth else { return nil }
            var entries: [ContentNode.Entry] = []
            entries.reserveCapacity(8)
            var keyStart = firstKey
            var location: SourceLocation?
            while true {
                let line = lines[index]
                guard let length = keyLength(line, at: keyStart) else { return nil }
                let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[keyStart..<(keyStart + length)]), as: UTF8.self)
                guard !FastYAML.has(key, in: entries) else { return nil }
                let keyLocation = self.location(line, keyStart)
                if location == nil { location = keyLocation }
                var valueStart = keyStart + length + 1
                while valueStart < line.end, bytes[valueStart] == 0x20 { valueStart += 1 }
                let value: ContentNode
                if valueStart == line.end {
                    // `key:` alone: a block below, more indented, or a list at the same indentation.
                    index += 1
                    guard index < lines.count else { return nil }
                    let next = lines[index]
                    if next.indent > indent, let nested = block(indent: next.indent, depth: depth + 1) {
                        value = nested
                    } else if next.indent == indent, isItem(next), let list = sequence(indent: indent, depth: depth + 1) {
                        value = list
                    } else {
                        return nil
                    }
                } else {
                    guard let inline = inline(line, from: valueStart, depth: depth + 1) else { return nil }
                    value = inline
                    index += 1
                    // A more indented line would continue a plain scalar over lines.
                    if index < lines.count, lines[index].indent > indent { return nil }
                }
                entries.append(ContentNode.Entry(key: key, keyLocation: keyLocation, value: value))
                guard index < lines.count, lines[index].indent == indent, !isItem(lines[index]) else { break }
                keyStart = lines[index].content
            }
            return location.map { ContentNode(.map(entries), at: $0) }
        }

        mutating func sequence(indent: Int, depth: Int) -> ContentNode? {
            guard depth <= FastYAML.maxCallDepth else { return nil }
            var items: [ContentNode] = []
            items.reserveCapacity(8)
            let location = self.location(lines[index], lines[index].content)
            while index < lines.count, lines[index].indent == indent, isItem(lines[index]) {
                let line = lines[index]
                var start = line.content + 1
                while start < line.end, bytes[start] == 0x20 { start += 1 }
                if start == line.end {
                    index += 1
                    guard index < lines.count, lines[index].indent > indent, let nested = block(indent: lines[index].indent, depth: depth + 1) else { return nil }
                    items.append(nested)
                } else if keyLength(line, at: start) != nil {
                    // `- key: value`: a mapping whose keys line up with this one.
                    guard let nested = mapping(indent: start - line.start, firstKey: start, depth: depth + 1) else { return nil }
                    items.append(nested)
                } else {
                    guard let inline = inline(line, from: start, depth: depth + 1) else { return nil }
                    items.append(inline)
                    index += 1
                    if index < lines.count, lines[index].indent > indent { return nil }
                }
            }
            return ContentNode(.list(items), at: location)
        }

        // MARK: Values on one line

        /// A value that takes the rest of the line.
        func inline(_ line: Line, from start: Int, depth: Int) -> ContentNode? {
            switch bytes[start] {
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "\""), UInt8(ascii: "'"):
                var position = start
                guard let value = flowValue(line, &position, depth: depth) else { return nil }
                while position < line.end, bytes[position] == 0x20 { position += 1 }
                return position == line.end ? value : nil
            default:
                return FastYAML.plainScalar(bytes, start..<line.end, inFlow: false, at: location(line, start))
            }
        }

        func skipSpaces(_ line: Line, _ position: inout Int) {
            while position < line.end, bytes[position] == 0x20 { position += 1 }
        }

        /// A flow mapping, flow list, quoted scalar or plain scalar inside a flow collection.
        func flowValue(_ line: Line, _ position: inout Int, depth: Int) -> ContentNode? {
            guard depth <= FastYAML.maxCallDepth, position < line.end else { return nil }
            let here = location(line, position)
            switch bytes[position] {
            case UInt8(ascii: "{"):
                position += 1
                var entries: [ContentNode.Entry] = []
                entries.reserveCapacity(8)
                skipSpaces(line, &position)
                if position < line.end, bytes[position] == UInt8(ascii: "}") {
                    position += 1
                    return ContentNode(.map([]), at: here)
                }
                while true {
                    guard let length = keyLength(line, at: position), position + length + 1 < line.end else { return nil }
                    let key = String(decoding: UnsafeBufferPointer(rebasing: bytes[position..<(position + length)]), as: UTF8.self)
                    guard !FastYAML.has(key, in: entries) else { return nil }
                    let keyLocation = location(line, position)
                    position += length + 1
                    skipSpaces(line, &position)
                    guard let value = flowValue(line, &position, depth: depth + 1) else { return nil }
                    entries.append(ContentNode.Entry(key: key, keyLocation: keyLocation, value: value))
                    skipSpaces(line, &position)
                    guard position < line.end else { return nil }
                    if bytes[position] == UInt8(ascii: "}") { position += 1; break }
                    guard bytes[position] == UInt8(ascii: ",") else { return nil }
                    position += 1
                    skipSpaces(line, &position)
                }
                return ContentNode(.map(entries), at: here)
            case UInt8(ascii: "["):
                position += 1
                var items: [ContentNode] = []
                items.reserveCapacity(4)
                skipSpaces(line, &position)
                if position < line.end, bytes[position] == UInt8(ascii: "]") {
                    position += 1
                    return ContentNode(.list([]), at: here)
                }
                while true {
                    guard let item = flowValue(line, &position, depth: depth + 1) else { return nil }
                    items.append(item)
                    skipSpaces(line, &position)
                    guard position < line.end else { return nil }
                    if bytes[position] == UInt8(ascii: "]") { position += 1; break }
                    guard bytes[position] == UInt8(ascii: ",") else { return nil }
                    position += 1
                    skipSpaces(line, &position)
                }
                return ContentNode(.list(items), at: here)
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                let quote = bytes[position]
                // The text's bytes, copied only once a `''` shows they differ from the line's.
                var text: [UInt8]?
                var cursor = position + 1
                while true {
                    guard cursor < line.end else { return nil }
                    let byte = bytes[cursor]
                    if byte == quote {
                        // `''` is a quote inside a single-quoted scalar.
                        if quote == UInt8(ascii: "'"), cursor + 1 < line.end, bytes[cursor + 1] == quote {
                            if text == nil { text = Array(bytes[(position + 1)..<cursor]) }
                            text!.append(quote)
                            cursor += 2
                            continue
                        }
                        break
                    }
                    if quote == UInt8(ascii: "\""), byte == UInt8(ascii: "\\") { return nil }
                    text?.append(byte)
                    cursor += 1
                }
                let value = text.map { String(decoding: $0, as: UTF8.self) }
                    ?? String(decoding: UnsafeBufferPointer(rebasing: bytes[(position + 1)..<cursor]), as: UTF8.self)
                position = cursor + 1
                var node = ContentNode(.string(value), at: here)
                node.textStart = SourceLocation(file: here.file, line: here.line, column: here.column + 1)
                return node
            default:
                var end = position
                while end < line.end, bytes[end] != UInt8(ascii: ","), bytes[end] != UInt8(ascii: "}"), bytes[end] != UInt8(ascii: "]") { end += 1 }
                var last = end
                while last > position, bytes[last - 1] == 0x20 { last -= 1 }
                guard last > position, let scalar = FastYAML.plainScalar(bytes, position..<last, inFlow: true, at: here) else { return nil }
                position = end
                return scalar
            }
        }
    }

    /// Whether the character starting at `index` (a byte outside printable ASCII) is text to
    /// libyaml as to FastYAML. Not so: C0 controls and DEL, C1 controls, U+FFFE and U+FFFF, which
    /// libyaml refuses ("control characters are not allowed"); tab and CR, which YAML reads as
    /// white space and line ends; NEL, LS and PS, which libyaml reads as line breaks (it reads
    /// `a<LS>  b` as "a<LS>b"); and the BOM, which libyaml skips before a token.
    @inline(__always) static func isPlainText(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        // The text is valid UTF-8: a lead byte is followed by its continuation bytes.
        switch bytes[index] {
        case ..<0x80: return false  // C0 controls (LF never comes here) and DEL
        case 0xC2: return bytes[index + 1] >= 0xA0  // U+0080-U+009F, NEL among them
        case 0xE2: return !(bytes[index + 1] == 0x80 && (bytes[index + 2] == 0xA8 || bytes[index + 2] == 0xA9))  // LS, PS
        case 0xEF:  // BOM U+FEFF, U+FFFE, U+FFFF
            return !(bytes[index + 1] == 0xBB && bytes[index + 2] == 0xBF) && !(bytes[index + 1] == 0xBF && bytes[index + 2] >= 0xBE)
        default: return true
        }
    }

    /// Whether `entries` has `key` already (a duplicate key is left to Yams, which reports it).
    /// A scan: mappings have a handful of keys.
    static func has(_ key: String, in entries: [ContentNode.Entry]) -> Bool {
        entries.contains { $0.key.isKey(key) }
    }

    static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
    }

    /// A plain scalar that cannot be read any other way, typed as Yams types it.
    static func plainScalar(_ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, inFlow: Bool, at location: SourceLocation) -> ContentNode? {
        let first = bytes[range.lowerBound]
        // Indicators that start something other than a plain scalar; `-` does only before a space.
        switch first {
        case UInt8(ascii: "?"), UInt8(ascii: ":"), UInt8(ascii: ","), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"),
             UInt8(ascii: "#"), UInt8(ascii: "&"), UInt8(ascii: "*"), UInt8(ascii: "!"), UInt8(ascii: "|"), UInt8(ascii: ">"), UInt8(ascii: "'"),
             UInt8(ascii: "\""), UInt8(ascii: "%"), UInt8(ascii: "@"), UInt8(ascii: "`"):
            return nil
        default: break
        }
        if first == UInt8(ascii: "-"), range.count == 1 || bytes[range.lowerBound + 1] == 0x20 { return nil }
        var previous: UInt8 = 0
        for index in range {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "#") where previous == UInt8(ascii: " "): return nil
            case UInt8(ascii: " ") where previous == UInt8(ascii: ":"): return nil
            case UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "{"), UInt8(ascii: "}"): return nil
            case UInt8(ascii: ","), UInt8(ascii: "'"), UInt8(ascii: "\""):
                if inFlow { return nil }
            // In a flow collection libyaml refuses `:` before `?` (as before `,[]{}`, refused above).
            case UInt8(ascii: "?") where inFlow && previous == UInt8(ascii: ":"): return nil
            default: break
            }
            previous = byte
        }
        if previous == UInt8(ascii: ":") { return nil }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
        // Text, before Yams's nodes are made for it (a link, `/about/`, was two tags made and freed).
        if YAMLParser.isText(text) { return ContentNode(.string(text), at: location) }
        // The commonest numbers and dates (2026-11-20, 2026-11-20T10:00:00Z, -1.5), as Yams's
        // resolver reads them.
        if let value = YAMLParser.commonScalar(text) { return ContentNode(value, at: location) }
        // Other numbers, dates and YAML's words: Yams's resolver decides, as for any other document.
        return ContentNode(YAMLParser.scalarValue(Node.Scalar(text, .implicit, .plain), node: Node(text, .implicit, .plain)), at: location)
    }
}
