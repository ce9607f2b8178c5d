import Foundation

/// `course-progress`: the status line of seed 004 ("42% complete"), computed from the percent field.
struct CourseProgressModel: ComponentModel {
    static let code = "course-progress"
    static let computed: [ComputedValue] = [
        .text("status", "\"Not started\", \"42% complete\" or \"Completed\", in the page's language"),
        .bool("complete", "The course is finished"),
        .text("lessonsLeftText", "\"7 lessons left\", in the page's language; absent when finished or not given"),
    ]

    struct ViewData: Encodable {
        /// "Not started", "42% complete" (in the page's number format) or "Completed".
        let status: String
        /// True once the course is finished, for a "done" style.
        let complete: Bool
        /// "7 lessons left" (plural rules of the page's language); nil when finished or not given.
        let lessonsLeftText: String?
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let fraction = fields.number("progress") ?? 0
        let status = try status(fraction: fraction, formatted: fields.text("progress") ?? "", translator: context.translator)
        var lessonsLeft: String?
        if fraction < 1, let count = fields.number("lessonsLeft") {
            lessonsLeft = try context.translator.text("courseProgress.lessonsLeft", count: count, formattedCount: fields.text("lessonsLeft"))
        }
        return ViewData(status: status, complete: fraction >= 1, lessonsLeftText: lessonsLeft)
    }

    /// The status line from the theme's strings: `courseProgress.completed`, `.notStarted`,
    /// `.percentComplete` (with `{percent}`).
    static func status(fraction: Double, formatted: String, translator: Translator) throws -> String {
        if fraction >= 1 { return try translator.text("courseProgress.completed") }
        if fraction <= 0 { return try translator.text("courseProgress.notStarted") }
        return try translator.text("courseProgress.percentComplete", values: ["percent": formatted])
    }
}
