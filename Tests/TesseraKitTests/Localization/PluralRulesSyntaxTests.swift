import Testing
@testable import TesseraKit

/// CLDR's operands and rule syntax, as UTS #35 defines them.
@Suite struct PluralRulesSyntaxTests {
    /// The operands as "i=… v=… w=… f=… t=… c=…", so a table row reads like UTS #35's table.
    static func describe(_ operands: PluralOperands?) -> String {
        guard let o = operands else { return "not a number" }
        return "i=\(o.integerDigits) v=\(o.fractionDigitCount) w=\(o.significantFractionDigitCount) "
            + "f=\(o.fractionDigits) t=\(o.significantFractionDigits) c=\(o.compactExponent)"
    }

    @Test("operands of written numbers (the table in UTS #35)", arguments: [
        ("1", "i=1 v=0 w=0 f=0 t=0 c=0"),
        ("1.0", "i=1 v=1 w=0 f=0 t=0 c=0"),
        ("1.00", "i=1 v=2 w=0 f=0 t=0 c=0"),
        ("1.3", "i=1 v=1 w=1 f=3 t=3 c=0"),
        ("1.30", "i=1 v=2 w=1 f=30 t=3 c=0"),
        ("1.03", "i=1 v=2 w=2 f=3 t=3 c=0"),
        ("1.230", "i=1 v=3 w=2 f=230 t=23 c=0"),
        ("1200000", "i=1200000 v=0 w=0 f=0 t=0 c=0"),
        ("1.2c6", "i=1200000 v=0 w=0 f=0 t=0 c=6"),
        ("123c6", "i=123000000 v=0 w=0 f=0 t=0 c=6"),
        ("123c5", "i=12300000 v=0 w=0 f=0 t=0 c=5"),
        ("1200.50", "i=1200 v=2 w=1 f=50 t=5 c=0"),
        ("1.20050c3", "i=1200 v=2 w=1 f=50 t=5 c=3"),
        ("1.0000001c6", "i=1000000 v=1 w=1 f=1 t=1 c=6"),
        ("1e3", "i=1000 v=0 w=0 f=0 t=0 c=3"),
        (" -21 ", "i=21 v=0 w=0 f=0 t=0 c=0"),
        // Past 18 digits only the last 18 are kept, plus 10¹⁸, so remainders and comparisons hold.
        ("123456789012345678901", "i=1456789012345678901 v=0 w=0 f=0 t=0 c=0"),
        ("1,5", "not a number"), ("1.", "not a number"), (".5", "not a number"),
        ("1c", "not a number"), ("1c-3", "not a number"), ("--1", "not a number"), ("١", "not a number"),
        ("1c99999", "not a number"),  // compact exponents stop far below; this would be 99999 zeros
    ])
    func writtenOperands(text: String, expected: String) {
        #expect(Self.describe(PluralOperands(written: text)) == expected)
    }

    @Test("operands of Doubles, which show no trailing zeros", arguments: [
        (1.0, "i=1 v=0 w=0 f=0 t=0 c=0"),
        (21, "i=21 v=0 w=0 f=0 t=0 c=0"),
        (-1.5, "i=1 v=1 w=1 f=5 t=5 c=0"),
        (0.25, "i=0 v=2 w=2 f=25 t=25 c=0"),
        (0.00001, "i=0 v=5 w=5 f=1 t=1 c=0"),
        (1e20, "i=1000000000000000000 v=0 w=0 f=0 t=0 c=0"),
    ])
    func doubleOperands(number: Double, expected: String) {
        #expect(Self.describe(PluralOperands(number)) == expected)
    }

    @Test func hugeNumbersKeepTheirLastDigits() {
        let russian = PluralRules.forLanguage("ru")
        #expect(russian.category(forWritten: "100000000000000000021") == .one)
        #expect(russian.category(forWritten: "100000000000000000011") == .many)
        #expect(russian.category(forWritten: "1000000000000000000012") == .many)
        #expect(russian.category(forWritten: "1000000000000000000002") == .few)
    }

    @Test func andBindsTighterThanOr() throws {
        let rule = try PluralRule(parsing: "i = 1 or i = 2 and v = 1")
        #expect(rule.alternatives.map(\.count) == [1, 2])
        #expect(rule.matches(PluralOperands(written: "1")!))    // (i = 1) or …
        #expect(!rule.matches(PluralOperands(written: "2")!))   // … or (i = 2 and v = 1)
        #expect(rule.matches(PluralOperands(written: "2.5")!))
    }

    @Test func relationsWithModulusListsAndRanges() throws {
        let rule = try PluralRule(parsing: "n % 10 = 1,3..5,7 and e != 0..5")
        #expect(rule.alternatives == [[
            PluralRelation(operand: .absoluteValue, modulus: 10, isNegated: false, ranges: [1...1, 3...5, 7...7]),
            PluralRelation(operand: .compactExponent, modulus: nil, isNegated: true, ranges: [0...5]),
        ]])

        let lastDigit = try PluralRule(parsing: "n % 10 = 1,3..5,7")
        let matching = ["1", "21", "23", "24", "25", "17", "21.0", "3c6"].filter { lastDigit.matches(PluralOperands(written: $0)!) }
        #expect(matching == ["1", "21", "23", "24", "25", "17", "21.0"])
        #expect(!lastDigit.matches(PluralOperands(written: "21.5")!))  // n has a fraction: in no range
        #expect(!lastDigit.matches(PluralOperands(written: "26")!))

        let millions = try PluralRule(parsing: "e != 0..5")
        #expect(millions.matches(PluralOperands(written: "1c6")!))
        #expect(!millions.matches(PluralOperands(written: "1c5")!))
        #expect(!millions.matches(PluralOperands(written: "1000000")!))
    }

    @Test("syntax errors say where and what", arguments: [
        ("", 1, "expected an operand: n, i, v, w, f, t, c or e"),
        ("x = 1", 1, "expected an operand: n, i, v, w, f, t, c or e"),
        ("in = 1", 1, "expected an operand: n, i, v, w, f, t, c or e"),
        ("i = ", 5, "expected a number"),
        ("i == 1", 4, "expected a number"),
        ("i is 1", 3, "expected '=' or '!='"),
        ("i = 1 and", 10, "expected an operand: n, i, v, w, f, t, c or e"),
        ("i = 1 xor i = 2", 7, "expected 'and', 'or' or the end of the rule"),
        ("n = 1.5", 6, "expected 'and', 'or' or the end of the rule"),
        ("i % 0 = 1", 5, "the modulus must not be 0"),
        ("i = 4..2", 8, "the range 4..2 is empty"),
    ])
    func syntaxErrors(condition: String, column: Int, problem: String) {
        #expect(throws: PluralRule.SyntaxError(condition: condition, column: column, problem: problem)) {
            try PluralRule(parsing: condition)
        }
    }
}
