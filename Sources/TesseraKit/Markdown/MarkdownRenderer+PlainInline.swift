extension MarkdownRenderer {
    /// The inline HTML of text in which Markdown can find nothing to do: one line of letters,
    /// digits, spaces and plain punctuation, starting with a letter; cmark would print it as it
    /// is (a differential test compares both, with every option). Nil for anything else, which
    /// cmark renders. Titles, names and labels are mostly such text.
    ///
    /// GitHub's extensions need bytes this path already declines (`~`, `[`, `<`, a second line
    /// for a table), except autolinks: with `autolinks`, text holding `@` (an email address,
    /// `xmpp:`), `:/` (`https://`) or `www.` goes to cmark, which decides what it links.
    func plainInline(_ text: String) -> String? {
        let utf8 = text.utf8
        guard let first = utf8.first, first | 0x20 >= 0x61, first | 0x20 <= 0x7A, utf8.last != 0x20 else { return nil }
        let autolinks = options.autolinks
        var previous: UInt8 = 0
        // The last three bytes, lowercased, for `www.`.
        var recent: UInt32 = 0
        for byte in utf8 {
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
            default:
                return nil
            }
            previous = byte
            recent = (recent << 8 | UInt32(byte | 0x20)) & 0xFF_FFFF
        }
        return text
    }

    /// "www", as `recent` holds it.
    private static let www: UInt32 = 0x77_7777
}
