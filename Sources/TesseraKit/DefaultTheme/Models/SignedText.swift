import Foundation

/// Signs for figures that go up and down: "+12%" and "−3%".
enum SignedText {
    /// Adds "+" before a positive formatted value and sets a negative one with a true minus sign
    /// (U+2212), which lines up with "+" and is read as "minus" by screen readers.
    /// Where the locale marks its numbers left-to-right (Arabic writes "‎-8‎%" with U+200E), the
    /// added "+" gets the same mark, so "+25%" does not turn into "25%+" in right-to-left text.
    static func signed(_ formatted: String, value: Double) -> String {
        let text = typographicMinus(formatted)
        guard value > 0, !text.hasPrefix("+"), !text.hasPrefix("\u{200E}+") else { return text }
        return (text.contains("\u{200E}") ? "\u{200E}+" : "+") + text
    }

    static func typographicMinus(_ text: String) -> String {
        guard text.utf8.contains(UInt8(ascii: "-")) else { return text }
        var out = ""
        out.reserveCapacity(text.utf8.count + 4)
        for scalar in text.unicodeScalars { if scalar == "-" { out += "\u{2212}" } else { out.unicodeScalars.append(scalar) } }
        return out
    }
}
