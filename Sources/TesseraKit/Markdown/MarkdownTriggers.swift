import Foundation

/// What a Markdown text holds that libcmark-gfm's extensions and Tessera's link check act on,
/// found with a few byte searches before parsing, so each parse does only the work its text
/// needs. Each flag is a necessary condition: false only where the work cannot change the
/// output (a differential test compares with the library doing all of it).
struct MarkdownTriggers {
    /// `www.`, `://` or `@`: without one, the autolink extension links nothing (it looks for
    /// `www.` and a scheme's `://` at the inline parser's stops, and `@` in text after parsing).
    var autolinks = false
    /// A `www.` the autolinker can reach: one not after a letter, digit or URL character (it
    /// links only a `www.` at a block's start or after a space or `*_~(`; `https://www.` is
    /// linked from its scheme). Only such a text needs the parser to stop at every `w`.
    var linkableWWW = false
    /// `[^`: footnote references and definitions both start so.
    var footnotes = false
    /// `[` or `<` (written links, images and `<…>` autolinks), or `&#` (a character reference
    /// that may make a control character): the nodes Tessera walks the tree for.
    var walk = false
    /// `#` (an ATX heading), or a line ending in `=` or `-` and spaces (a setext underline,
    /// in any container): the headings Tessera gives ids.
    var headings = false
    /// `component`: a fence that places a component (`MarkdownComponents`) holds it.
    var components = false
    /// `>` (a blockquote's marker) and `|` (a table's): for render hooks of those elements.
    var quotes = false, pipes = false
    /// A fence (three backticks or tildes), a tab, or four spaces: where a code block can be.
    var code = false

    init(_ markdown: String) {
        var text = markdown
        text.withUTF8 { bytes in
            let raw = UnsafeRawBufferPointer(bytes)
            guard let base = raw.baseAddress else { return }
            func has(_ needle: [UInt8]) -> Bool { ByteSearch.firstOffset(of: needle, in: raw, from: 0) != nil }
            func has(_ byte: UInt8) -> Bool { memchr(base, Int32(byte), raw.count) != nil }
            var start = 0
            while let offset = ByteSearch.firstOffset(of: Self.www, in: raw, from: start) {
                if offset == 0 || !Self.beforeUnlinkedWWW[Int(bytes[offset - 1])] {
                    linkableWWW = true
                    break
                }
                start = offset + 1
            }
            autolinks = linkableWWW || start > 0 || has(Self.scheme) || has(UInt8(ascii: "@"))
            footnotes = has(Self.footnote)
            walk = has(UInt8(ascii: "[")) || has(UInt8(ascii: "<")) || has(Self.reference)
            headings = has(UInt8(ascii: "#")) || Self.hasUnderlineEnding(raw)
            components = has(Self.component)
            quotes = has(UInt8(ascii: ">"))
            pipes = has(UInt8(ascii: "|"))
            code = has(Self.backticks) || has(Self.tildes) || has(UInt8(ascii: "\t")) || has(Self.indent)
        }
    }

    /// Whether a line ends in `=` or `-` before its spaces and tabs: what a setext heading's
    /// underline ends with, whatever container markers start its line.
    static func hasUnderlineEnding(_ bytes: UnsafeRawBufferPointer) -> Bool {
        func underlines(before end: Int) -> Bool {
            var index = end - 1
            while index >= 0, bytes[index] == 0x20 || bytes[index] == 0x09 { index -= 1 }
            return index >= 0 && (bytes[index] == UInt8(ascii: "=") || bytes[index] == UInt8(ascii: "-"))
        }
        for (index, byte) in bytes.enumerated() where byte == 0x0A || byte == 0x0D {
            if underlines(before: index) { return true }
        }
        return underlines(before: bytes.count)
    }

    private static let www = Array("www.".utf8), scheme = Array("://".utf8), footnote = Array("[^".utf8), reference = Array("&#".utf8), component = Array(MarkdownComponents.info.utf8)
    private static let backticks = Array("```".utf8), tildes = Array("~~~".utf8), indent = Array("    ".utf8)

    /// Bytes after which the autolinker never links a `www.`: it is neither a space nor `*_~(`,
    /// and no block's marker ends with it right before the block's text (as `>`, `|` or a
    /// footnote's `:` can).
    private static let beforeUnlinkedWWW: [Bool] = (0..<256).map { byte in
        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || "/.=&%?+#@-".utf8.contains(UInt8(byte))
    }
}
