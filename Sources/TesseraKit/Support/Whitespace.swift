import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in: .whitespaces)`: spaces and tabs are cut by bytes, and Foundation
    /// (14,000 instructions a call) is asked only when what remains begins or ends outside ASCII,
    /// where `.whitespaces` has more spaces (U+00A0, U+3000, …). Headings and template tags are
    /// trimmed this way, once each.
    func trimmingWhitespaces() -> String {
        let utf8 = self.utf8
        let isSpace = { (byte: UInt8) in byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard let first = utf8.firstIndex(where: { !isSpace($0) }), let last = utf8.lastIndex(where: { !isSpace($0) }) else { return "" }
        guard utf8[first] < 0x80, utf8[last] < 0x80 else { return trimmingCharacters(in: .whitespaces) }
        return String(self[first...last])
    }
}
