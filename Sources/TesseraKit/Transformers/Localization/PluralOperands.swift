/// The values CLDR plural rules test, taken from a number as it is written.
///
/// Rules look at the written digits, not just the value: in English "1" is `one` but "1.0" is
/// `other`. See https://unicode.org/reports/tr35/tr35-numbers.html#Operands.
/// `n`, the absolute value, is not stored: it equals `i` when every fraction digit is 0, and is
/// otherwise not an integer, so it matches no range (`PluralRelation` relies on this).
struct PluralOperands: Sendable, Equatable {
    /// `i`: the integer digits, e.g. 1 for "1.230".
    var integerDigits: Int
    /// `v`: how many fraction digits are written, e.g. 3 for "1.230".
    var fractionDigitCount: Int
    /// `w`: how many fraction digits are written, trailing zeros left out, e.g. 2 for "1.230".
    var significantFractionDigitCount: Int
    /// `f`: the fraction digits as an integer, e.g. 230 for "1.230".
    var fractionDigits: Int
    /// `t`: the fraction digits as an integer, trailing zeros left out, e.g. 23 for "1.230".
    var significantFractionDigits: Int
    /// `c` (or its older name `e`): the exponent of compact notation, e.g. 6 for "1.2c6" (1.2 million).
    var compactExponent: Int

    /// Operands of a decimal whose point has already been placed: digit values 0–9, e.g.
    /// [1, 2, 0, 0] and [] for "1.2c3".
    init(integer: ArraySlice<UInt8>, fraction: ArraySlice<UInt8>, compactExponent: Int) {
        let significantFraction = Self.droppingTrailingZeros(fraction)
        integerDigits = Self.residuePreservingValue(of: integer)
        fractionDigitCount = fraction.count
        significantFractionDigitCount = significantFraction.count
        fractionDigits = Self.residuePreservingValue(of: fraction)
        significantFractionDigits = Self.residuePreservingValue(of: significantFraction)
        self.compactExponent = compactExponent
    }

    /// The operand's value, or nil for `n` with a fraction: it is in no integer range.
    func integerValue(of operand: PluralRelation.Operand) -> Int? {
        switch operand {
        case .absoluteValue: fractionDigits == 0 ? integerDigits : nil
        case .integerDigits: integerDigits
        case .fractionDigitCount: fractionDigitCount
        case .significantFractionDigitCount: significantFractionDigitCount
        case .fractionDigits: fractionDigits
        case .significantFractionDigits: significantFractionDigits
        case .compactExponent: compactExponent
        }
    }

    /// [2, 3, 0] → [2, 3].
    static func droppingTrailingZeros(_ digits: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        let end = digits.lastIndex { $0 != 0 }.map { $0 + 1 } ?? digits.startIndex
        return digits[..<end]
    }

    /// The value of a digit string, reduced so that it fits an `Int` and still gives every
    /// relation its true answer.
    ///
    /// Rules only take remainders by powers of ten up to a million and compare with values far
    /// below 10¹⁸. Keeping the last 18 digits keeps every such remainder, and adding 10¹⁸ keeps the
    /// number larger than any value a rule names.
    static func residuePreservingValue(of digits: ArraySlice<UInt8>) -> Int {
        let significant = digits.drop { $0 == 0 }
        let kept = 18
        let value = significant.suffix(kept).reduce(0) { $0 * 10 + Int($1) }
        return significant.count > kept ? 1_000_000_000_000_000_000 + value : value
    }
}
