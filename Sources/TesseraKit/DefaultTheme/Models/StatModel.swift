import Foundation

/// `stat`: the change as a signed percentage ("+12%", "−3%") and whether it is good news,
/// so a rise in errors is not shown in green.
struct StatModel: ComponentModel {
    static let code = "stat"
    static let computed: [ComputedValue] = [
        .text("changeText", "The change with its sign: \"+12%\", \"−3%\" (a true minus)"),
        .oneOf("trend", ["up", "down", "flat"], "Which way the figure moved"),
        .text("trendLabel", "\"Up\", \"Down\" or \"No change\", in the page's language, for screen readers"),
        .bool("good", "The change is good news (colour it so)"),
        .bool("bad", "The change is bad news"),
    ]

    enum Trend: String, Encodable { case up, down, flat }

    struct ViewData: Encodable {
        /// "+12%", "−3%" or "0%"; nil when the stat has no change.
        let changeText: String?
        /// `up`, `down` or `flat`, for a class name and an arrow.
        let trend: Trend
        /// "Up", "Down" or "No change", for screen readers.
        let trendLabel: String
        let good: Bool
        let bad: Bool
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        guard let change = fields.number("change"), let text = fields.text("change") else {
            return ViewData(changeText: nil, trend: .flat, trendLabel: try context.translator.text("stat.noChange"), good: false, bad: false)
        }
        let trend: Trend = change > 0 ? .up : change < 0 ? .down : .flat
        let goodWhen = Trend(rawValue: fields.text("goodWhen") ?? "up") ?? .up
        return ViewData(
            changeText: SignedText.signed(text, value: change),
            trend: trend,
            trendLabel: try context.translator.text([.up: "stat.up", .down: "stat.down", .flat: "stat.noChange"][trend]!),
            good: trend != .flat && trend == goodWhen,
            bad: trend != .flat && trend != goodWhen)
    }
}
