extension PluralOperands {
    /// Operands of a number written as CLDR writes its samples: "1", "-1.50", "1.2c6".
    ///
    /// `c` (or `e`, its older spelling) marks compact notation: "1.2c6" is 1.2 million written as
    /// "1,2 Mio.", which French and Spanish treat differently from 1200000 written out.
    /// Returns nil for anything else, including grouping separators: format the number afterwards.
    init?(written text: String) {
        // Bytes rather than Characters: only ASCII is accepted, and this runs once per counted phrase.
        var rest = ArraySlice(text.utf8)
        while let first = rest.first, Self.isASCIISpace(first) { rest = rest.dropFirst() }
        while let last = rest.last, Self.isASCIISpace(last) { rest = rest.dropLast() }
        if rest.first == UInt8(ascii: "-") || rest.first == UInt8(ascii: "+") { rest = rest.dropFirst() }

        var exponent = 0
        if let marker = rest.firstIndex(where: { $0 == UInt8(ascii: "c") || $0 == UInt8(ascii: "e") }) {
            // Compact notation stops at trillions; a four-digit cap keeps "1c999999999" from
            // writing out a billion zeros.
            guard let digits = Self.digitValues(rest[(marker + 1)...]), digits.count <= 4 else { return nil }
            exponent = digits.reduce(0) { $0 * 10 + Int($1) }
            rest = rest[..<marker]
        }

        guard let (integer, fraction) = Self.decimalDigits(rest) else { return nil }
        let (placedInteger, placedFraction) = Self.placingPoint(in: integer, fraction, rightBy: exponent)
        self.init(integer: placedInteger, fraction: placedFraction, compactExponent: exponent)
    }

    /// Operands of a value that carries no written form: it shows no trailing fraction zeros,
    /// so `1.0` is the integer 1. Returns nil for infinity and NaN, which no rule covers.
    init?(_ number: Double) {
        guard number.isFinite else { return nil }
        // The shortest text that reads back as the same Double: "0.5", "21.0", "1e-05", "1.5e+20".
        let text = ArraySlice(abs(number).description.utf8)
        let marker = text.firstIndex(of: UInt8(ascii: "e"))
        let exponent = marker.flatMap { Int(String(decoding: text[($0 + 1)...], as: UTF8.self)) } ?? 0
        guard let (integer, fraction) = Self.decimalDigits(text[..<(marker ?? text.endIndex)]) else { return nil }
        let (placedInteger, placedFraction) = Self.placingPoint(in: integer, fraction, rightBy: exponent)
        self.init(integer: placedInteger, fraction: Self.droppingTrailingZeros(placedFraction), compactExponent: 0)
    }

    /// The integer and fraction digits of `integer.fraction × 10^exponent`, written out in full.
    static func placingPoint(
        in integer: [UInt8], _ fraction: [UInt8], rightBy exponent: Int
    ) -> (ArraySlice<UInt8>, ArraySlice<UInt8>) {
        var digits = integer + fraction
        var point = integer.count + exponent
        if point < 1 {
            digits.insert(contentsOf: repeatElement(0, count: 1 - point), at: 0)
            point = 1
        }
        if point > digits.count {
            digits.append(contentsOf: repeatElement(0, count: point - digits.count))
        }
        return (digits[..<point], digits[point...])
    }

    /// "12.50" → ([1, 2], [5, 0]); nil unless the text is digits, optionally followed by a point
    /// and more digits.
    private static func decimalDigits(_ text: ArraySlice<UInt8>) -> (integer: [UInt8], fraction: [UInt8])? {
        guard let point = text.firstIndex(of: UInt8(ascii: ".")) else {
            return digitValues(text).map { ($0, []) }
        }
        guard let integer = digitValues(text[..<point]), let fraction = digitValues(text[(point + 1)...]) else {
            return nil
        }
        return (integer, fraction)
    }

    /// The digits' values, or nil unless the text is one or more ASCII digits: not "", "٣" or "+3".
    private static func digitValues(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        guard !text.isEmpty, text.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else {
            return nil
        }
        return text.map { $0 - UInt8(ascii: "0") }
    }

    private static func isASCIISpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
    }
}
