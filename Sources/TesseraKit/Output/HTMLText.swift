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
            guard let base = bytes.baseAddress else { return }
            var index = 0
            while index < bytes.count {
                guard let open = memchr(base + index, Int32(UInt8(ascii: "<")), bytes.count - index) else {
                    stripped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                    break
                }
                let start = base.distance(to: open.assumingMemoryBound(to: UInt8.self))
                stripped.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<start]))
                // A tag that never closes hides the rest, as a browser's would.
                guard let close = memchr(base + start + 1, Int32(UInt8(ascii: ">")), bytes.count - start - 1) else { break }
                let end = base.distance(to: close.assumingMemoryBound(to: UInt8.self))
                if endsLine(UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end])) { stripped.append(UInt8(ascii: "\n")) }
                index = end + 1
            }
        }
        return lines(of: decodeEntities(String(decoding: stripped, as: UTF8.self)))
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
            var start = 0
            for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") && (index == 0 || bytes[index - 1] != UInt8(ascii: "\r")) {
                keep(UnsafeBufferPointer(rebasing: bytes[start..<index]), into: &out)
                start = index + 1
            }
            keep(UnsafeBufferPointer(rebasing: bytes[start...]), into: &out)
        }
        let joined = String(decoding: out, as: UTF8.self)
        guard let first = out.first, let last = out.last, isPlainEnd(first), isPlainEnd(last) else {
            return joined.trimmingCharacters(in: .whitespacesAndNewlines)
        }
        return joined
    }

    /// Appends `line`, trimmed, after a line break unless it is the first; nothing if it is empty.
    private static func keep(_ line: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        guard let first = line.first, let last = line.last else { return }
        if isPlainEnd(first), isPlainEnd(last) {
            if !out.isEmpty { out.append(UInt8(ascii: "\n")) }
            out.append(contentsOf: line)
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
            var index = 0
            while index < bytes.count {
                guard let ampersand = memchr(base + index, Int32(UInt8(ascii: "&")), bytes.count - index) else {
                    result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index...]))
                    break
                }
                let start = base.distance(to: ampersand.assumingMemoryBound(to: UInt8.self))
                result.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[index..<start]))
                index = start + 1
                // The name: ASCII up to `;` (a reference's name is ASCII; anything else is text).
                var end = start + 1
                while end < bytes.count, end - start < 12, bytes[end] != UInt8(ascii: ";"), bytes[end] < 0x80 { end += 1 }
                guard end < bytes.count, end - start < 12, bytes[end] == UInt8(ascii: ";"),
                      let replacement = replacement(String(decoding: UnsafeBufferPointer(rebasing: bytes[(start + 1)..<end]), as: UTF8.self)) else {
                    result.append(UInt8(ascii: "&"))
                    continue
                }
                result.append(contentsOf: replacement.utf8)
                index = end + 1
            }
            return String(decoding: result, as: UTF8.self)
        } ?? text
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
