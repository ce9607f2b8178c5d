import Foundation

extension StringProtocol where UTF8View: BidirectionalCollection {
    /// `trimmingCharacters(in: .whitespaces)`: spaces and tabs are cut by bytes, and Foundation
    /// (14,000 instructions a call) is asked only when what remains begins or ends outside ASCII,
    /// where `.whitespaces` has more spaces (U+00A0, U+3000, …). Headings and template tags are
    /// trimmed this way, once each.
    func trimmingWhitespaces() -> String {
        guard let (first, last) = keptEnds(cutting: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) else { return "" }
        guard utf8[first] < 0x80, utf8[last] < 0x80 else { return trimmingCharacters(in: .whitespaces) }
        return String(self[first...last])
    }

    /// The first and the last byte that `isCut` does not accept; nil when it accepts them all.
    func keptEnds(cutting isCut: (UInt8) -> Bool) -> (first: String.Index, last: String.Index)? {
        guard let first = utf8.firstIndex(where: { !isCut($0) }), let last = utf8.lastIndex(where: { !isCut($0) }) else { return nil }
        return (first, last)
    }
}
