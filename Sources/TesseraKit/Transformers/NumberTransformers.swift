import Foundation

/// Numbers, percentages and money, formatted for the page's locale with the raw value kept beside.
enum NumberTransformers {
    static func number(_ node: ContentNode, _ field: FieldSpec, allowPercentSign: Bool = false) throws -> Double {
        if let n = node.number {
            guard n.isFinite else {
                throw TesseraError("field '\(field.name)' must be a finite number, found \(n)", at: node.location, hint: "write digits; .nan and .inf cannot be shown as a number")
            }
            return n
        }
        if allowPercentSign, case .string(let s) = node.value, s.hasSuffix("%"),
           let n = Double(s.dropLast().trimmingCharacters(in: .whitespaces)) {
            return n / 100
        }
        throw TransformerRegistry.wrongType(
            node, field: field, expected: "a number",
            hint: allowPercentSign ? "write a fraction such as 0.42, or \"42%\"" : "write digits without quotes, for example 1250.5")
    }

    /// The codes Foundation knows, from ISO 4217.
    static let currencyCodes = Set(Locale.Currency.isoCurrencies.map(\.identifier))

    static func checkCurrency(_ code: String, at location: SourceLocation) throws {
        guard currencyCodes.contains(code) else {
            throw TesseraError(
                "'\(code)' is not an ISO 4217 currency code", at: location,
                hint: (Suggestions.didYouMean(code, in: currencyCodes).map { $0 + " " } ?? "") + "use a code such as USD, EUR or JPY")
        }
    }

    /// A number as plain digits: `3`, `2.5`.
    static func plain(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }

    static func fractionDigits(_ field: FieldSpec) -> Int? {
        field.format.flatMap(Int.init)
    }

    static let number = Transformer("number") { node, field, context in
        view(of: try number(node, field), fractionDigits: fractionDigits(field), context: context)
    }

    /// A whole number as a number field shows it: every page's `wordCount` and `readingTime`.
    static func view(ofCount count: Int, context: TransformContext) -> ViewValue {
        view(of: Double(count), context: context)
    }

    /// A number as a number field shows it: localized text, with `value` and `plural` parts.
    static func view(of value: Double, fractionDigits: Int? = nil, context: TransformContext) -> ViewValue {
        FormattedNumbers.shared.view(.init(kind: .number, value: value, digits: fractionDigits, locale: context.locale.identifier)) {
            var style = FloatingPointFormatStyle<Double>.number.locale(context.locale)
            if let fractionDigits { style = style.precision(.fractionLength(fractionDigits)) }
            return .formatted(value.formatted(style), ["value": .number(value), "plural": context.pluralFlags(value)])
        }
    }

    /// `0.42` is 42 %: percentages are written as fractions, like progress values in apps.
    static let percent = Transformer("percent") { node, field, context in
        let value = try number(node, field, allowPercentSign: true)
        let digits = fractionDigits(field)
        return FormattedNumbers.shared.view(.init(kind: .percent, value: value, digits: digits, locale: context.locale.identifier)) {
            var style = FloatingPointFormatStyle<Double>.Percent.percent.locale(context.locale)
            if let digits { style = style.precision(.fractionLength(digits)) }
            return .formatted(value.formatted(style), [
                "value": .number(value),
                "percent": .number((value * 100 * 1e6).rounded() / 1e6),
                "plural": context.pluralFlags(value * 100),
            ])
        }
    }

    /// An amount in the field's, or the site's, currency; or `{ amount: 12.5, currency: EUR }`.
    static let currency = Transformer("currency") { node, field, context in
        let amount: Double
        var code = field.currency ?? context.defaultCurrency
        if node.entries != nil {
            guard let amountNode = node["amount"] else {
                throw TesseraError("field '\(field.name)' needs an 'amount'", at: node.location, hint: "write `{ amount: 12.5, currency: EUR }`")
            }
            amount = try number(amountNode, field)
            if let given = node["currency"] {
                code = (given.scalarText ?? "").uppercased()
                try checkCurrency(code, at: given.location)
            }
        } else {
            amount = try number(node, field)
        }
        try checkCurrency(code, at: node.location)
        return FormattedNumbers.shared.view(.init(kind: .currency, value: amount, currency: code, locale: context.locale.identifier)) {
            let style = FloatingPointFormatStyle<Double>.Currency(code: code, locale: context.locale)
            return .formatted(amount.formatted(style), [
                "value": .number(amount),
                "currency": .string(code),
                "absolute": .string(abs(amount).formatted(style)),
                "negative": .bool(amount < 0),
                "positive": .bool(amount > 0),
                "plural": context.pluralFlags(amount),
            ])
        }
    }
}

/// Number, percent and currency views already made, by value, precision, currency and language:
/// formatting through ICU costs more than the rest of a component, and values repeat (progress,
/// prices, counts).
final class FormattedNumbers: @unchecked Sendable {
    struct Key: Hashable {
        enum Kind: UInt8 { case number, percent, currency, signedCurrency }
        var kind: Kind
        /// The bits, so that -0 and 0 stay apart.
        var value: UInt64
        var digits: Int?
        var currency = ""
        var locale: String

        init(kind: Kind, value: Double, digits: Int? = nil, currency: String = "", locale: String) {
            self.kind = kind
            self.value = value.bitPattern
            self.digits = digits
            self.currency = currency
            self.locale = locale
        }
    }

    static let shared = FormattedNumbers()
    private let memo = Memo<Key, ViewValue>()

    func view(_ key: Key, make: () -> ViewValue) -> ViewValue { memo.value(key, make: make) }
}
