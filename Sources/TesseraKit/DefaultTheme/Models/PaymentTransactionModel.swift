import Foundation

/// `payment-transaction`: decides whether a payment is a debit or a credit and writes its amount
/// with the sign that says so ("−€12.50", "+€40.00"), as seed 000's transaction cell shows.
///
/// The amount's sign decides, unless `kind:` is given for feeds that write amounts unsigned.
struct PaymentTransactionModel: ComponentModel {
    static let code = "payment-transaction"
    static let computed: [ComputedValue] = [
        .oneOf("direction", ["debit", "credit", "none"], "Money out, money in, or a zero amount"),
        .text("directionLabel", "\"Debit\", \"Credit\" or \"Amount\", for screen readers"),
        .text("signedAmount", "The amount with the sign that says its direction: \"−€12.50\", \"+€40.00\""),
    ]

    enum Direction: String, Encodable { case debit, credit, none }

    struct ViewData: Encodable {
        /// `debit`, `credit`, or `none` for a zero amount; a class name and an icon name.
        let direction: Direction
        /// "Debit", "Credit" or "Amount", for screen readers.
        let directionLabel: String
        /// The amount in its currency with an explicit sign: "−€12.50", "+€40.00", "€0.00".
        let signedAmount: String
        let debit: Bool
        let credit: Bool
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let amount = fields.number("amount") ?? 0
        let currency = fields["amount"]?["currency"]?.text ?? context.defaultCurrency
        let direction = try direction(amount: amount, kind: fields.text("kind"))
        let signed: Double
        switch direction {
        case .debit: signed = -abs(amount)
        case .credit: signed = abs(amount)
        case .none: signed = 0
        }
        let signedAmount = FormattedNumbers.shared.view(.init(kind: .signedCurrency, value: signed, currency: currency, locale: context.locale.identifier)) {
            let style = FloatingPointFormatStyle<Double>.Currency(code: currency, locale: context.locale)
                .sign(strategy: .always(showZero: false))
            return .string(SignedText.typographicMinus(signed.formatted(style)))
        }
        return ViewData(
            direction: direction,
            directionLabel: try context.translator.text([.debit: "payment.debit", .credit: "payment.credit", .none: "payment.amount"][direction]!),
            signedAmount: signedAmount.text ?? "",
            debit: direction == .debit, credit: direction == .credit)
    }

    /// A negative amount is money out; `kind` settles unsigned amounts but may not contradict a sign.
    static func direction(amount: Double, kind: String?) throws -> Direction {
        switch kind {
        case "debit": return .debit
        case "credit":
            guard amount >= 0 else {
                throw TesseraError(
                    "payment-transaction has a negative amount but `kind: credit`",
                    hint: "write the credit as a positive amount, or remove `kind:` and let the sign decide")
            }
            return .credit
        default:
            return amount < 0 ? .debit : amount > 0 ? .credit : .none
        }
    }
}
