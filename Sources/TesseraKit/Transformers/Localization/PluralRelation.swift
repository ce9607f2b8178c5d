/// One comparison in a CLDR plural rule, such as `i % 100 != 12..14`.
struct PluralRelation: Sendable, Equatable {
    /// The operand letters of CLDR's rule syntax.
    enum Operand: Character, Sendable {
        case absoluteValue = "n"
        case integerDigits = "i"
        case fractionDigitCount = "v"
        case significantFractionDigitCount = "w"
        case fractionDigits = "f"
        case significantFractionDigits = "t"
        case compactExponent = "c"

        /// The operand a rule's letter names; `e` is CLDR's older name for `c`, still used in its rules.
        init?(letter: Character) {
            if letter == "e" {
                self = .compactExponent
            } else {
                self.init(rawValue: letter)
            }
        }
    }

    var operand: Operand
    /// The `% 100` part: the operand's remainder is compared instead of the operand.
    var modulus: Int?
    /// `!=` rather than `=`.
    var isNegated: Bool
    /// `1, 3..5, 7` as `[1...1, 3...5, 7...7]`: the relation holds if the value is in any of them.
    var ranges: [ClosedRange<Int>]

    func isSatisfied(by operands: PluralOperands) -> Bool {
        let isInRanges: Bool
        if let value = operands.integerValue(of: operand) {
            let compared = modulus.map { value % $0 } ?? value
            isInRanges = ranges.contains { $0.contains(compared) }
        } else {
            // `n` with a fraction: its remainder keeps the fraction, so it is in no integer range.
            isInRanges = false
        }
        return isInRanges != isNegated
    }
}
