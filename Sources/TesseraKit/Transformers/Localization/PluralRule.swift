/// The parsed condition of one plural category, such as Russian `few`:
/// `v = 0 and i % 10 = 2..4 and i % 100 != 12..14`.
///
/// CLDR's syntax has no parentheses and `and` binds tighter than `or`, so every condition is an
/// `or` of `and` chains; storing it in that shape makes the precedence impossible to get wrong.
struct PluralRule: Sendable, Equatable {
    /// The `or` alternatives, each a chain of relations that must all hold.
    var alternatives: [[PluralRelation]]

    /// Whether a number with these operands belongs to the category.
    func matches(_ operands: PluralOperands) -> Bool {
        alternatives.contains { chain in
            chain.allSatisfy { $0.isSatisfied(by: operands) }
        }
    }
}
