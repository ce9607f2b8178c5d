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

    /// A whole number as a number field shows it, made once per language and value: every page's
    /// `wordCount` and `readingTime` would otherwise be formatted by ICU each time its data is made.
    static func view(ofCount count: Int, context: TransformContext) -> ViewValue {
        let key = context.locale.identifier + "\u{1}" + String(count)
        if let known = countViews.lock.withLock({ countViews.values[key] }) { return known }
        let view = view(of: Double(count), context: context)
        countViews.lock.withLock { countViews.values[key] = view }
        return view
    }

    private final class CountViews: @unchecked Sendable {
        let lock = NSLock()
        var values: [String: ViewValue] = [:]
    }

    private static let countViews = CountViews()

    /// A number as a number field shows it: localized text, with `value` and `plural` parts.
    static func view(of value: Double, fractionDigits: Int? = nil, context: TransformContext) -> ViewValue {
        var style = FloatingPointFormatStyle<Double>.number.locale(context.locale)
        if let fractionDigits { style = style.precision(.fractionLength(fractionDigits)) }
        return .formatted(value.formatted(style), ["value": .number(value), "plural": context.pluralFlags(value)])
    }

    /// `0.42` is 42 %: percentages are written as fractions, like progress values in apps.
    static let percent = Transformer("percent") { node, field, context in
        let value = try number(node, field, allowPercentSign: true)
        var style = FloatingPointFormatStyle<Double>.Percent.percent.locale(context.locale)
        if let digits = fractionDigits(field) { style = style.precision(.fractionLength(digits)) }
        return .formatted(value.formatted(style), [
            "value": .number(value),
            "percent": .number((value * 100 * 1e6).rounded() / 1e6),
            "plural": context.pluralFlags(value * 100),
        ])
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
