import Foundation

/// `activity`: what the activity shell decorates for each type of event (seed 002): the type's
/// label, icon and strip colour, so content only says what happened.
struct ActivityModel: ComponentModel {
    static let code = "activity"

    struct Kind: Sendable {
        let label: String
        let icon: String
        let accent: String
    }

    static let kinds: [String: Kind] = [
        "enrolled": Kind(label: "Started a course", icon: "play", accent: "blue"),
        "progress": Kind(label: "Made progress", icon: "trend-up", accent: "teal"),
        "completed": Kind(label: "Completed a course", icon: "check", accent: "green"),
        "badge": Kind(label: "Earned a badge", icon: "badge", accent: "purple"),
        "comment": Kind(label: "New comment", icon: "comment", accent: "pink"),
        "streak": Kind(label: "Learning streak", icon: "flame", accent: "orange"),
        "payment": Kind(label: "Payment", icon: "card", accent: "blue"),
    ]

    struct ViewData: Encodable {
        /// "Completed a course".
        let kindLabel: String
        /// The name of the theme's icon: `icon--check`.
        let icon: String
        /// The strip's colour: the content's `accent:` or the type's.
        let accent: String
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let type = fields.text("type") ?? ""
        // A site may add types to its copy of the schema; they get a plain look, not an error.
        let kind = kinds[type] ?? Kind(label: type.prefix(1).uppercased() + type.dropFirst(), icon: "dot", accent: "blue")
        return ViewData(kindLabel: kind.label, icon: kind.icon, accent: fields.text("accent") ?? kind.accent)
    }
}
