extension PluralOperands {
    /// Operands of a number written as CLDR writes its samples: "1", "-1.50", "1.2c6".
    ///
    /// `c` (or `e`, its older spelling) marks compact notation: "1.2c6" is 1.2 million written as
    /// "1,2 Mio.", which French and Spanish treat differently from 1200000 written out.
    /// Returns nil for anything else, including grouping separators: format the number afterwards.
    init?(written text: String) {
        var rest = text.drop(while: \.isWhitespace)
        while rest.last?.isWhitespace == true { rest = rest.dropLast() }
        if rest.first == "-" || rest.first == "+" { rest = rest.dropFirst() }

        var exponent = 0
        if let marker = rest.firstIndex(where: { $0 == "c" || $0 == "e" }) {
            let exponentDigits = rest[rest.index(after: marker)...]
            guard Self.isDigits(exponentDigits), let value = Int(exponentDigits) else { return nil }
            exponent = value
            rest = rest[..<marker]
        }

        let parts = rest.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.allSatisfy(Self.isDigits) else { return nil }
        let (integer, fraction) = Self.placingPoint(in: parts[0], parts.count == 2 ? parts[1] : "", rightBy: exponent)
        self.init(integer: integer, fraction: fraction, compactExponent: exponent)
    }

    /// Operands of a value that carries no written form: it shows no trailing fraction zeros,
    /// so `1.0` is the integer 1. Returns nil for infinity and NaN, which no rule covers.
    init?(_ number: Double) {
        guard number.isFinite else { return nil }
        // The shortest text that reads back as the same Double: "0.5", "21.0", "1e-05", "1.5e+20".
        let text = abs(number).description
        let scientific = text.split(separator: "e", maxSplits: 1)
        guard let mantissa = scientific.first,
              let exponent = scientific.count == 2 ? Int(scientific[1]) : 0 else { return nil }
        let parts = mantissa.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
        let (integer, fraction) = Self.placingPoint(in: parts[0], parts.count == 2 ? parts[1] : "", rightBy: exponent)
        let withoutTrailingZeros = fraction.reversed().drop { $0 == "0" }.reversed()
        self.init(integer: integer, fraction: Substring(withoutTrailingZeros), compactExponent: 0)
    }

    /// The integer and fraction digits of `integer.fraction × 10^exponent`, written out in full.
    static func placingPoint(in integer: Substring, _ fraction: Substring, rightBy exponent: Int) -> (Substring, Substring) {
        var digits = String(integer + fraction)
        var point = integer.count + exponent
        if point < 1 {
            digits = String(repeating: "0", count: 1 - point) + digits
            point = 1
        }
        if point > digits.count {
            digits += String(repeating: "0", count: point - digits.count)
        }
        let split = digits.index(digits.startIndex, offsetBy: point)
        return (Substring(digits[..<split]), Substring(digits[split...]))
    }

    /// Whether the text is one or more ASCII digits: not "", "٣" or "+3".
    private static func isDigits(_ text: Substring) -> Bool {
        !text.isEmpty && text.allSatisfy { ("0"..."9").contains($0) }
    }
}
