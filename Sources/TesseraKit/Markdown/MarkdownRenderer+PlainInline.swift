extension MarkdownRenderer {
    /// The inline HTML of text in which Markdown finds nothing to do but emphasis in its
    /// plainest form: one line of letters, digits, spaces and plain punctuation, starting with a
    /// letter or an opening `*`, where `*` and `**` may stand around words; cmark would print it
    /// as it is but for `<em>` and `<strong>` (a differential test compares both, with every
    /// option). Nil for anything else, which cmark renders. Titles, names, labels and one-line
    /// messages are mostly such text.
    ///
    /// Emphasis is taken only where CommonMark's delimiter rules leave no choice: a run of one
    /// or two `*` after a space (or the start) and before an ASCII letter or digit opens; the
    /// next run, of the same length, after an ASCII letter or digit and before a space, the end
    /// or `,;:?).`, closes; no other `*` between them, none left open.
    ///
    /// GitHub's extensions need bytes this path already declines (`~`, `[`, `<`, a second line
    /// for a table), except autolinks: with `autolinks`, text holding `@` (an email address,
    /// `xmpp:`), `:/` (`https://`) or `www.` goes to cmark, which decides what it links.
    func plainInline(_ text: String) -> String? {
        text.utf8.withContiguousStorageIfAvailable { plainInline(text, bytes: $0) } ?? nil
    }

    private func plainInline(_ text: String, bytes: UnsafeBufferPointer<UInt8>) -> String? {
        guard let first = bytes.first, first | 0x20 >= 0x61 && first | 0x20 <= 0x7A || first == Self.star, bytes.last != 0x20 else { return nil }
        let autolinks = options.autolinks
        var previous: UInt8 = 0
        // The last three bytes, lowercased, for `www.`.
        var recent: UInt32 = 0
        // The run of `*` of the emphasis open (0: none), and whether there was any.
        var open = 0, emphasized = false
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            var length = 1
            switch byte {
            case 0x61...0x7A, 0x41...0x5A, 0x30...0x39, 0x80...0xFF,
                 UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: "("),
                 UInt8(ascii: ")"), UInt8(ascii: "%"), UInt8(ascii: "$"), UInt8(ascii: "+"),
                 UInt8(ascii: "="), UInt8(ascii: "#"), UInt8(ascii: "^"), UInt8(ascii: "{"), UInt8(ascii: "}"), UInt8(ascii: "|"):
                break
            case UInt8(ascii: "@"):
                if autolinks { return nil }
            case UInt8(ascii: "/"):
                if autolinks && previous == UInt8(ascii: ":") { return nil }
            case UInt8(ascii: "."), UInt8(ascii: "-"):
                // "..." and "--" are typography with `smart`.
                if options.smart && previous == byte { return nil }
                if autolinks && byte == UInt8(ascii: ".") && recent == Self.www { return nil }
            case Self.star:
                while index + length < bytes.count, bytes[index + length] == Self.star { length += 1 }
                let before: UInt8 = index > 0 ? bytes[index - 1] : 0x20
                let after: UInt8? = index + length < bytes.count ? bytes[index + length] : nil
                if open == 0 {
                    guard length <= 2, before == 0x20, let after, Self.isASCIIAlphanumeric(after) else { return nil }
                    open = length
                } else {
                    guard length == open, Self.isASCIIAlphanumeric(before), after.map(Self.closesEmphasis) ?? true else { return nil }
                    open = 0
                }
                emphasized = true
            default:
                return nil
            }
            previous = byte
            recent = (recent << 8 | UInt32(byte | 0x20)) & 0xFF_FFFF
            index += length
        }
        guard open == 0 else { return nil }
        guard emphasized else { return text }
        // Written as bytes and made a `String` once: appending each piece to a `String` took
        // twice the instructions of the whole first pass.
        var html: [UInt8] = []
        html.reserveCapacity(bytes.count + 32)
        var start = 0, opening = true
        index = 0
        while index < bytes.count {
            guard bytes[index] == Self.star else {
                index += 1
                continue
            }
            // Runs are one or two long: the first pass took no other.
            let length = index + 1 < bytes.count && bytes[index + 1] == Self.star ? 2 : 1
            html.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start..<index]))
            let tag: StaticString = opening ? (length == 1 ? "<em>" : "<strong>") : (length == 1 ? "</em>" : "</strong>")
            html.append(contentsOf: UnsafeBufferPointer(start: tag.utf8Start, count: tag.utf8CodeUnitCount))
            opening.toggle()
            index += length
            start = index
        }
        html.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[start...]))
        return String(decoding: html, as: UTF8.self)
    }

    private static let star = UInt8(ascii: "*")

    private static func isASCIIAlphanumeric(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= 0x61 && byte | 0x20 <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
    }

    /// What may follow a closing run: the bytes after which it is right-flanking and not
    /// left-flanking, among those this path reads.
    private static func closesEmphasis(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "?"), UInt8(ascii: ")"), UInt8(ascii: "."): true
        default: false
        }
    }

    /// "www", as `recent` holds it.
    private static let www: UInt32 = 0x77_7777
}
