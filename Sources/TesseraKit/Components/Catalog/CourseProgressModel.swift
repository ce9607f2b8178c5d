import Foundation

/// `course-progress`: the status line of seed 004 ("42% complete"), computed from the percent field.
struct CourseProgressModel: ComponentModel {
    static let code = "course-progress"

    struct ViewData: Encodable {
        /// "Not started", "42% complete" (in the page's number format) or "Completed".
        let status: String
        /// True once the course is finished, for a "done" style.
        let complete: Bool
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let fraction = fields.number("progress") ?? 0
        return ViewData(status: status(fraction: fraction, formatted: fields.text("progress") ?? ""), complete: fraction >= 1)
    }

    static func status(fraction: Double, formatted: String) -> String {
        if fraction >= 1 { return "Completed" }
        if fraction <= 0 { return "Not started" }
        return "\(formatted) complete"
    }
}
