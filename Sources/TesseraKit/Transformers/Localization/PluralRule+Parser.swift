extension PluralRule {
    /// A condition that is not CLDR plural rule syntax, and where it stops making sense.
    struct SyntaxError: Error, Equatable, CustomStringConvertible {
        let condition: String
        /// 1-based, in characters.
        let column: Int
        let problem: String

        var description: String { "plural rule '\(condition)', column \(column): \(problem)" }
    }

    /// Parses a condition in CLDR's syntax (UTS #35, "Plural rules syntax"), samples already removed:
    ///
    ///     condition     = and_condition ('or' and_condition)*
    ///     and_condition = relation ('and' relation)*
    ///     relation      = operand ('%' value)? ('=' | '!=') range_list
    ///     range_list    = (range | value) (',' range_list)*
    ///     range         = value '..' value
    init(parsing condition: String) throws(SyntaxError) {
        var parser = Parser(condition)
        alternatives = try parser.alternatives()
    }

    /// Recursive descent over the characters; the grammar is small enough to need no tokens.
    private struct Parser {
        let condition: String
        let characters: [Character]
        var index = 0

        init(_ condition: String) {
            self.condition = condition
            characters = Array(condition)
        }

        mutating func alternatives() throws(SyntaxError) -> [[PluralRelation]] {
            var alternatives = [try andChain()]
            while consume(word: "or") {
                alternatives.append(try andChain())
            }
            skipSpaces()
            guard index == characters.count else { throw syntaxError("expected 'and', 'or' or the end of the rule") }
            return alternatives
        }

        mutating func andChain() throws(SyntaxError) -> [PluralRelation] {
            var chain = [try relation()]
            while consume(word: "and") {
                chain.append(try relation())
            }
            return chain
        }

        mutating func relation() throws(SyntaxError) -> PluralRelation {
            skipSpaces()
            guard index < characters.count, let operand = PluralRelation.Operand(letter: characters[index]),
                  !isLetter(at: index + 1) else {
                throw syntaxError("expected an operand: n, i, v, w, f, t, c or e")
            }
            index += 1
            var modulus: Int?
            if consume("%") {
                skipSpaces()
                let divisorStart = index
                modulus = try number()
                guard modulus != 0 else { throw syntaxError("the modulus must not be 0", at: divisorStart) }
            }
            let isNegated: Bool
            if consume("!=") {
                isNegated = true
            } else if consume("=") {
                isNegated = false
            } else {
                throw syntaxError("expected '=' or '!='")
            }
            var ranges = [try range()]
            while consume(",") {
                ranges.append(try range())
            }
            return PluralRelation(operand: operand, modulus: modulus, isNegated: isNegated, ranges: ranges)
        }

        mutating func range() throws(SyntaxError) -> ClosedRange<Int> {
            let start = try number()
            guard consume("..") else { return start...start }
            skipSpaces()
            let endStart = index
            let end = try number()
            guard start <= end else { throw syntaxError("the range \(start)..\(end) is empty", at: endStart) }
            return start...end
        }

        mutating func number() throws(SyntaxError) -> Int {
            skipSpaces()
            let start = index
            while index < characters.count, ("0"..."9").contains(characters[index]) {
                index += 1
            }
            guard index > start, let value = Int(String(characters[start..<index])) else {
                throw syntaxError("expected a number", at: start)
            }
            return value
        }

        /// Moves past the symbol if it comes next, after any spaces.
        mutating func consume(_ symbol: String) -> Bool {
            skipSpaces()
            let symbolCharacters = Array(symbol)
            guard characters[index...].starts(with: symbolCharacters) else { return false }
            index += symbolCharacters.count
            return true
        }

        /// Like `consume(_:)`, but "or" must not be the start of a longer word.
        mutating func consume(word: String) -> Bool {
            let before = index
            guard consume(word), !isLetter(at: index) else {
                index = before
                return false
            }
            return true
        }

        mutating func skipSpaces() {
            while index < characters.count, characters[index].isWhitespace {
                index += 1
            }
        }

        func isLetter(at position: Int) -> Bool {
            position < characters.count && characters[position].isLetter
        }

        func syntaxError(_ problem: String, at position: Int? = nil) -> SyntaxError {
            SyntaxError(condition: condition, column: (position ?? index) + 1, problem: problem)
        }
    }
}
