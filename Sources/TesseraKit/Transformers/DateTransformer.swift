import Foundation

/// Dates: formatted as the field asks, relative to the build date, always with the ISO value for
/// `<time datetime>`.
enum DateTransformer {
    static let styles = ["relative", "short", "medium", "long", "full", "iso"]

    static let date = Transformer("date") { node, field, context in
        guard let raw = node.scalarText, let date = DateParsing.parse(raw, timeZone: context.timeZone) else {
            throw TesseraError("'\(node.scalarText ?? node.kindDescription)' in field '\(field.name)' is not a date", at: node.location, hint: DateParsing.formatHint)
        }
        return view(of: date, format: field.format ?? "medium", hasTime: DateParsing.hasTime(raw), context: context)
    }

    /// The view data of one date: renders in `format`, and offers every other form by name.
    static func view(of date: Date, format: String, hasTime: Bool, context: TransformContext) -> ViewValue {
        // A post's date is formatted for its page, the blog index and each of its tag pages:
        // the forms are computed once per date, language, zone and build date.
        let key = DateForms.Key(
            date: date.timeIntervalSince1970, hasTime: hasTime, locale: context.locale.identifier,
            timeZone: context.timeZone.identifier, buildDate: context.buildDate.timeIntervalSince1970)
        let forms = DateForms.shared.forms(for: key) {
            [
                ("iso", .string(iso(date, context: context, hasTime: hasTime))),
                ("relative", .string(relative(date, context: context))),
                ("short", .string(styled(date, .numeric, context: context))),
                ("medium", .string(styled(date, .abbreviated, context: context))),
                ("long", .string(styled(date, .long, context: context))),
                ("full", .string(styled(date, .complete, context: context))),
                ("year", .string(pattern(date, "yyyy", context: context))),
                ("timestamp", .number(date.timeIntervalSince1970)),
            ]
        }
        let text: String
        if let known = forms.first(where: { $0.0 == format }) {
            text = known.1.text ?? ""
        } else {
            text = pattern(date, format, context: context)
        }
        return .formatted(text, ViewObject(forms))
    }

    /// "3 days ago" against the build date, in the page's language.
    static func relative(_ date: Date, context: TransformContext) -> String {
        Date.AnchoredRelativeFormatStyle(anchor: date, presentation: .named, unitsStyle: .wide, locale: context.locale, calendar: context.calendar)
            .format(context.buildDate)
    }

    static func styled(_ date: Date, _ style: Date.FormatStyle.DateStyle, context: TransformContext) -> String {
        date.formatted(Date.FormatStyle(date: style, time: .omitted, locale: context.locale, calendar: context.calendar, timeZone: context.timeZone))
    }

    /// An ICU pattern such as `d MMMM yyyy`, localized.
    static func pattern(_ date: Date, _ pattern: String, context: TransformContext) -> String {
        FormatterCache.dateFormatter(pattern: pattern, context: context).string(from: date)
    }

    static func iso(_ date: Date, context: TransformContext, hasTime: Bool) -> String {
        FormatterCache.isoFormatter(timeZone: context.timeZone, withTime: hasTime).string(from: date)
    }
}

/// The formatted forms of dates already seen, shared between threads. Bounded: a long preview
/// session starts again rather than grow without limit.
final class DateForms: @unchecked Sendable {
    struct Key: Hashable {
        var date: Double
        var hasTime: Bool
        var locale: String
        var timeZone: String
        var buildDate: Double
    }

    static let shared = DateForms()
    static let limit = 200_000
    private let lock = NSLock()
    private var entries: [Key: [(String, ViewValue)]] = [:]

    func forms(for key: Key, compute: () -> [(String, ViewValue)]) -> [(String, ViewValue)] {
        if let cached = lock.withLock({ entries[key] }) { return cached }
        let forms = compute()
        lock.withLock {
            if entries.count >= Self.limit { entries.removeAll(keepingCapacity: true) }
            entries[key] = forms
        }
        return forms
    }
}
