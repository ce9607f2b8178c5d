import Foundation

/// `activity`: what the activity shell decorates for each type of event (seed 002): the type's
/// label, icon and strip colour, so content only says what happened.
struct ActivityModel: ComponentModel {
    static let code = "activity"
    static let computed: [ComputedValue] = [
        .text("kindLabel", "What happened, in the page's language: \"Completed a course\""),
        .text("icon", "The name of the type's icon: check, badge, flame, …"),
    ]

    struct Kind: Sendable {
        /// The key of the type's label in the theme's translation tables (`i18n/<lang>.yml`).
        let label: String
        let icon: String
        let accent: String
    }

    static let kinds: [String: Kind] = [
        "enrolled": Kind(label: "activity.kinds.enrolled", icon: "play", accent: "blue"),
        "progress": Kind(label: "activity.kinds.progress", icon: "trend-up", accent: "teal"),
        "completed": Kind(label: "activity.kinds.completed", icon: "check", accent: "green"),
        "badge": Kind(label: "activity.kinds.badge", icon: "badge", accent: "purple"),
        "comment": Kind(label: "activity.kinds.comment", icon: "comment", accent: "pink"),
        "streak": Kind(label: "activity.kinds.streak", icon: "flame", accent: "orange"),
        "payment": Kind(label: "activity.kinds.payment", icon: "card", accent: "blue"),
    ]

    struct ViewData: Encodable {
        /// "Completed a course", in the page's language.
        let kindLabel: String
        /// The name of the theme's icon: `icon--check`.
        let icon: String
        /// The strip's colour: the content's `accent:` or the type's.
        let accent: String
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let type = fields.text("type") ?? ""
        // A site may add types to its copy of the schema; they get a plain look, not an error.
        guard let kind = kinds[type] else {
            return ViewData(kindLabel: type.prefix(1).uppercased() + type.dropFirst(), icon: "dot", accent: fields.text("accent") ?? "blue")
        }
        return ViewData(kindLabel: try context.translator.text(kind.label), icon: kind.icon, accent: fields.text("accent") ?? kind.accent)
    }
}
