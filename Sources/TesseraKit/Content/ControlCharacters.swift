import Foundation

/// Control characters in what a site says: NUL, the C0 controls but tab, line feed and carriage
/// return, DEL and the C1 controls (U+0080–U+009F). HTML treats them as parse errors, XML 1.0
/// forbids most of them, and they are never meant as text; a browser shows them as boxes or
/// nothing. Tessera refuses them at their line and column in every input text file (Markdown,
/// YAML, JSON, CSV, templates, translations), and in values that escapes make (`"a\0b"`,
/// `"\x01"`, `"\u0085"` in YAML or JSON), so none reaches HTML, feeds, the sitemap or page JSON.
enum ControlCharacters {
    /// Whether each byte may start a control character in UTF-8 (0xC2 only when a C1 follows).
    private static let suspect: [Bool] = (0...255).map { byte in
        (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F || byte == 0xC2
    }

    /// The byte offset of the first control character in UTF-8 `bytes`, or nil.
    static func firstOffset(in bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        suspect.withUnsafeBufferPointer { table in
            var index = 0
            let count = bytes.count
            while index < count {
                let byte = bytes[index]
                if table[Int(byte)] {
                    if byte != 0xC2 { return index }
                    if index + 1 < count, bytes[index + 1] >= 0x80, bytes[index + 1] <= 0x9F { return index }
                }
                index += 1
            }
            return nil
        }
    }

    /// The first control character of `text`, or nil.
    static func first(in text: String) -> Unicode.Scalar? {
        text.unicodeScalars.first(where: isControl)
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        let value = scalar.value
        return (value < 0x20 && value != 0x09 && value != 0x0A && value != 0x0D) || (0x7F...0x9F).contains(value)
    }

    /// `U+0000 (NUL)`, for messages.
    static func name(_ scalar: Unicode.Scalar) -> String {
        let code = "U+" + String(String(scalar.value, radix: 16, uppercase: true).reversed()).padding(toLength: 4, withPad: "0", startingAt: 0).reversed()
        let names: [UInt32: String] = [0: "NUL", 0x1B: "ESC", 0x7F: "DEL", 0x85: "NEL", 0x08: "backspace", 0x0B: "vertical tab", 0x0C: "form feed"]
        return names[scalar.value].map { "\(code) (\($0))" } ?? code
    }

    /// The error for a control character in a file at `line` and `column`.
    static func error(_ scalar: Unicode.Scalar, at location: SourceLocation, escaped: Bool = false) -> TesseraError {
        TesseraError(
            "this text holds the control character \(name(scalar)), which HTML, feeds and JSON cannot carry",
            at: location,
            hint: escaped ? "remove the escape that makes it (such as \\0, \\x01 or \\u0085)" : "delete it: an editor may show it as ^@, ^A… or <0x01>, or not at all")
    }
}
