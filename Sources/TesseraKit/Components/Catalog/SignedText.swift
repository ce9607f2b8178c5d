import Foundation

/// Signs for figures that go up and down: "+12%" and "−3%".
enum SignedText {
    /// Adds "+" before a positive formatted value and sets a negative one with a true minus sign
    /// (U+2212), which lines up with "+" and is read as "minus" by screen readers.
    static func signed(_ formatted: String, value: Double) -> String {
        let text = typographicMinus(formatted)
        return value > 0 && !text.hasPrefix("+") ? "+" + text : text
    }

    static func typographicMinus(_ text: String) -> String {
        text.replacingOccurrences(of: "-", with: "\u{2212}")
    }
}
