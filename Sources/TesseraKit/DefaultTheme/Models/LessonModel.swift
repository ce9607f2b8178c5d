import Foundation

/// `lesson`: "Lesson 4" and "9 min" in the page's language, so an app shows what the web does.
struct LessonModel: ComponentModel {
    static let code = "lesson"
    static let computed: [ComputedValue] = [
        .text("numberText", "\"Lesson 4\", in the page's language"),
        .text("minutesText", "\"9 min\", in the page's language; absent without `minutes`"),
        .text("statusLabel", "\"Done\" or \"Up next\", in the page's language; absent for a lesson still to do"),
    ]

    struct ViewData: Encodable {
        let numberText: String
        let minutesText: String?
        let statusLabel: String?
    }

    static func viewData(from fields: ComponentFields, context: TransformContext) throws -> ViewData {
        let translator = context.translator
        let number = try translator.text("lesson.number", count: fields.number("number") ?? 0, formattedCount: fields.text("number"))
        let minutes = try fields.number("minutes").map { try translator.text("lesson.minutes", count: $0, formattedCount: fields.text("minutes")) }
        let status: String?
        switch fields.text("status") {
        case "done": status = try translator.text("lesson.done")
        case "next": status = try translator.text("lesson.next")
        default: status = nil
        }
        return ViewData(numberText: number, minutesText: minutes, statusLabel: status)
    }
}
