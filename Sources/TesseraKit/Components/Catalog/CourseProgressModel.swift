import Foundation

/// `course-progress`: the status line of seed 004 ("42% complete"), computed from the percent field.
struct CourseProgressModel: ComponentModel {
    static let code = "course-progress"

    struct ViewData: Encodable {
        /// "42% complete", in the page's number format.
        let status: String
        /// True once the course is finished, for a "done" style.
        let complete: Bool
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let fraction = fields.number("progress") ?? 0
        return ViewData(status: "\(fields.text("progress") ?? "") complete", complete: fraction >= 1)
    }
}
