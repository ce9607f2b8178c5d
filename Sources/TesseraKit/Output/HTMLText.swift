#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The text of HTML, for clients that show Markdown as plain text: tags out (a block's end and
/// `<br>` become a line break), entities decoded, each line trimmed, empty lines dropped.
///
/// Tags and entities are found in the UTF-8 bytes, copying the text between them in runs: a
/// page's body is thousands of bytes, and this runs for every page with JSON.
enum HTMLText {
    static func plain(_ html: String) -> String {
        var html = html
        var stripped: [UInt8] = []
        html.withUTF8 { bytes in
            stripped.reserveCapacity(bytes.count)
            copy(bytes, into: &stripped, splittingAt: UInt8(ascii: "<")) { start, out in
                // A tag that never closes hides the rest, as a browser's would.
                guard let end = bytes[(start + 1)...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
                if endsLine(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])) { out.append(UInt8(ascii: "\n")) }
                return end + 1
            }
        }
        return lines(of: decodeEntities(String(decoding: stripped, as: UTF8.self)))
    }

    /// `text`'s words, one space between each: runs of white space (`Character.isWhitespace`)
    /// become one space, and none is left at either end. Read as bytes (`collapsedWords`) where
    /// that gives `split`'s `Character`s, else through `split`, whose `Character`s were 10,000
    /// instructions a label beyond ASCII (a price's `€`, a minus sign) in a build of component
    /// pages, for their accessibility labels.
    static func words(_ text: String) -> String {
        if let words = text.withUTF8Bytes({ collapsedWords($0) }) { return words.withUnsafeBufferPointer { String(validUTF8: $0) } }
        return text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    /// The words of valid UTF-8 joined by one space, where the only white space is ASCII's (tab
    /// to carriage return, the space) and each such byte is a `Character` of its own; nil
    /// otherwise. Declined: white space beyond ASCII (NEL, no-break and other Unicode spaces,
    /// LS, PS), and a character next to an ASCII space or control that could join it in one
    /// `Character`: after it, a mark, a format character (ZWJ, ZWNJ, tags), a modifier letter
    /// or symbol (emoji skin tones, halfwidth kana marks) and Thai and Lao SARA AM (extending and
    /// spacing marks); before it, a format character or a letter that prepends (U+0D4E and
    /// beyond U+FFFF). A differential test checks the rest against `split`.
    static func collapsedWords(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        @inline(__always) func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || (byte >= 0x09 && byte <= 0x0D) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var space = false, index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte < 0x80 {
                if isSpace(byte) {
                    if index > 0, bytes[index - 1] >= 0x80, !mayEndBeforeSpace(bytes, before: index) { return nil }
                    if index + 1 < bytes.count, bytes[index + 1] >= 0x80, !mayStartAfterSpace(bytes, at: index + 1) { return nil }
                    space = !out.isEmpty
                } else {
                    if space { out.append(0x20); space = false }
                    out.append(byte)
                }
                index += 1
                continue
            }
            // White space beyond ASCII: U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029,
            // U+202F, U+205F, U+3000.
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0, third = index + 2 < bytes.count ? bytes[index + 2] : 0
            switch byte {
            case 0xC2 where next == 0x85 || next == 0xA0: return nil
            case 0xE1 where next == 0x9A && third == 0x80: return nil
            case 0xE2 where next == 0x80 && (third <= 0x8A || third == 0xA8 || third == 0xA9 || third == 0xAF): return nil
            case 0xE2 where next == 0x81 && third == 0x9F: return nil
            case 0xE3 where next == 0x80 && third == 0x80: return nil
            default: break
            }
            if space { out.append(0x20); space = false }
            let length = ByteLanes.scalarLength(lead: byte)
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<min(index + length, bytes.count)]))
            index += length
        }
        return out
    }

    /// The scalar whose UTF-8 starts at `index` (a lead byte beyond ASCII of valid UTF-8).
    private static func scalar(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Unicode.Scalar {
        Unicode.Scalar(ByteLanes.scalar(in: bytes, at: index).value) ?? "\u{FFFD}"
    }

    /// Whether the scalar at `index`, after an ASCII space or control, begins a `Character`.
    private static func mayStartAfterSpace(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        let scalar = scalar(bytes, at: index)
        if scalar == "\u{0E33}" || scalar == "\u{0EB3}" { return false }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .spacingMark, .enclosingMark, .format, .modifierLetter, .modifierSymbol: return false
        default: return true
        }
    }

    /// Whether the scalar ending before `index` (a byte beyond ASCII) ends a `Character` before
    /// an ASCII space or control.
    private static func mayEndBeforeSpace(_ bytes: UnsafeBufferPointer<UInt8>, before index: Int) -> Bool {
        var start = index - 1
        while start > 0, bytes[start] & 0xC0 == 0x80 { start -= 1 }
        let scalar = scalar(bytes, at: start)
        return scalar.value < 0x10000 && scalar != "\u{0D4E}" && scalar.properties.generalCategory != .format
    }

    /// Each line trimmed of spaces, empty lines dropped (runs of line breaks become one), the
    /// whole trimmed of white space and line breaks. Lines are split where a `\n` is a character
    /// (not in `\r\n`); a line, or the whole, whose ends are ASCII other than white space is
    /// taken as it is, and only the others go through `trimmingCharacters`.
    static func lines(of text: String) -> String {
        var text = text
        var out: [UInt8] = []
        text.withUTF8 { bytes in
            out.reserveCapacity(bytes.count)
            var start = 0, from = 0
            while let index = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: bytes, from: from) {
                from = index + 1
                guard index == 0 || bytes[index - 1] != UInt8(ascii: "\r") else { continue }
                keep(UnsafeBufferPointer(rebasing: bytes[start..<index]), into: &out)
                start = index + 1
            }
            keep(UnsafeBufferPointer(rebasing: bytes[start...]), into: &out)
        }
        guard let first = out.first, let last = out.last, !isPlainEnd(first) || !isPlainEnd(last) else { return String(decoding: out, as: UTF8.self) }
        let kept = out.withUnsafeBufferPointer { asciiTrimmed($0, newlines: true) }
        if let kept { return String(decoding: out[kept], as: UTF8.self) }
        return String(decoding: out, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// `bytes` without the ASCII members of `.whitespaces` (space, tab) or, with `newlines`, of
    /// `.whitespacesAndNewlines` (also line feed to carriage return) at either end; nil when a
    /// non-ASCII byte ends what is left, which may be a Unicode space: `trimmingCharacters` then
    /// decides. Either way the result is Foundation's (a differential test checks it).
    private static func asciiTrimmed(_ bytes: UnsafeBufferPointer<UInt8>, newlines: Bool) -> Range<Int>? {
        func trims(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || (newlines && byte >= 0x0A && byte <= 0x0D) }
        var start = 0, end = bytes.count
        while start < end, trims(bytes[start]) { start += 1 }
        while end > start, trims(bytes[end - 1]) { end -= 1 }
        guard start < end else { return start..<start }
        return bytes[start] < 0x80 && bytes[end - 1] < 0x80 ? start..<end : nil
    }

    /// Appends `line`, trimmed, after a line break unless it is the first; nothing if it is empty.
    private static func keep(_ line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let first = line.first, let last = line.last else { return }
        if isPlainEnd(first), isPlainEnd(last) {
            if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: line)
            return
        }
        if let kept = asciiTrimmed(line, newlines: false) {
            guard !kept.isEmpty else { return }
            if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: line[kept]))
            return
        }
        let text = String(decoding: line, as: UTF8.self)
        let trimmed = (text.first?.isWhitespace ?? false) || (text.last?.isWhitespace ?? false) ? text.trimmingCharacters(in: .whitespaces) : text
        guard !trimmed.isEmpty else { return }
        if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
        out.append(contentsOf: trimmed.utf8)
    }

    /// A printable ASCII byte other than space: a character no trimming removes (anything else
    /// is left to `trimmingCharacters`).
    private static func isPlainEnd(_ byte: UInt8) -> Bool {
        byte > 0x20 && byte < 0x7F
    }

    /// Block elements whose end tag ends a line of text, by the length of their name.
    private static let blocks: [[[UInt8]]] = {
        var byLength = [[[UInt8]]](repeating: [], count: 11)
        for name in ["p", "li", "br", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "blockquote", "tr", "div"] { byLength[name.utf8.count].append(Array(name.utf8)) }
        return byLength
    }()

    private static let lineBreak = Array("br".utf8)

    /// Whether the tag (its bytes between `<` and `>`) ends a line: a block's end tag, or `<br>`.
    /// Its name is the first run of bytes without a space or `/`, compared case-blind.
    private static func endsLine(_ tag: UnsafeBufferPointer<UInt8>) -> Bool {
        let space = UInt8(ascii: " "), slash = UInt8(ascii: "/")
        var start = 0
        while start < tag.count, tag[start] == space || tag[start] == slash { start += 1 }
        var end = start
        while end < tag.count, tag[end] != space, tag[end] != slash { end += 1 }
        let length = end - start
        guard length > 0, length < blocks.count else { return false }
        func lower(_ byte: UInt8) -> UInt8 { byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte }
        func named(_ name: [UInt8]) -> Bool { name.indices.allSatisfy { lower(tag[start + $0]) == name[$0] } }
        if length == 2, named(lineBreak) { return true }
        return tag[0] == slash && blocks[length].contains(where: named)
    }

    private static let named: [String: String] = ["amp": "&", "lt": "<", "gt": ">", "quot": "\"", "apos": "'", "nbsp": "\u{A0}"]

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`, `&nbsp;` and numeric references decoded: a
    /// reference's `;` is within 12 characters of its `&`. As cmark and HTML do, `&#0;` and
    /// references to no character are U+FFFD.
    static func decodeEntities(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes -> String? in
            guard let base = bytes.baseAddress, memchr(base, Int32(UInt8(ascii: "&")), bytes.count) != nil else { return nil }
            var result: [UInt8] = []
            result.reserveCapacity(bytes.count)
            copy(bytes, into: &result, splittingAt: UInt8(ascii: "&")) { start, out in
                // The name: ASCII up to `;` (a reference's name is ASCII; anything else is text).
                var end = start + 1
                while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";"), bytes[end] < 0x80 { end += 1 }
                guard end < bytes.count, end - start < 12, bytes[end] == UInt8(ascii: ";"),
                      let replacement = replacement(String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)) else {
                    out.append(UInt8(ascii: "&"))
                    return start + 1
                }
                out.append(contentsOf: replacement.utf8)
                return end + 1
            }
            return String(decoding: result, as: UTF8.self)
        } ?? text
    }

    /// Copies `bytes` into `out` in runs between the `marker` bytes (found with `memchr`); at
    /// each, `handle` gets the marker's offset and says where to go on from (nil: nowhere, the
    /// rest is dropped).
    private static func copy(
        _ bytes: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], splittingAt marker: UInt8, _ handle: (Int, inout [UInt8]) -> Int?
    ) {
        guard let base = bytes.baseAddress else { return }
        var index = 0
        while index < bytes.count {
            guard let found = memchr(base + index, Int32(marker), bytes.count - index) else {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                return
            }
            let start = base.distance(to: found.assumingMemoryBound(to: UInt8.self))
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<start]))
            guard let next = handle(start, &out) else { return }
            index = next
        }
    }

    private static func replacement(_ name: String) -> String? {
        func character(_ value: UInt32?) -> String? {
            value.map { value in Unicode.Scalar(value).flatMap { $0.value == 0 ? nil : String(Character($0)) } ?? "\u{FFFD}" }
        }
        if name.hasPrefix("#x") || name.hasPrefix("#X") { return character(UInt32(name.dropFirst(2), radix: 16)) }
        if name.hasPrefix("#") { return character(UInt32(name.dropFirst())) }
        return named[name]
    }
}
