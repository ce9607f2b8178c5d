import Foundation

/// Dates: formatted as the field asks, relative to the build date, always with the ISO value for
/// `<time datetime>`.
enum DateTransformer {
    static let styles = ["relative", "short", "medium", "long", "full", "iso"]

    static let date = Transformer("date") { node, field, context in
        let date = try DateParsing.date(node, timeZone: context.timeZone) { "'\($0)' in field '\(field.name)'" }
        return view(of: date, format: field.format ?? "medium", hasTime: node.scalarText.map(DateParsing.hasTime) ?? false, context: context)
    }

    /// Every form a date offers by name, in the order its JSON lists them.
    static let forms = ["iso", "relative", "short", "medium", "long", "full", "year", "timestamp"]

    /// The view data of one date: renders in `format`, and offers every other form by name.
    static func view(of date: Date, format: String, hasTime: Bool, context: TransformContext) -> ViewValue {
        // A post's date is shown on its page, the blog index and each of its tag pages: the forms
        // are one object per date, language, zone and build date. Each form is formatted the
        // first time a template or the page JSON reads it (most templates read one or two).
        let key = DateForms.Key(
            date: date.timeIntervalSince1970, hasTime: hasTime, locale: context.locale.identifier,
            timeZone: context.timeZone.identifier, buildDate: context.buildDate.timeIntervalSince1970)
        let object = DateForms.shared.object(for: key) {
            ViewObject(keys: forms, eager: ["timestamp": .number(date.timeIntervalSince1970)], identity: key) { name in
                form(name, of: date, hasTime: hasTime, context: context).map(ViewValue.string)
            }
        }
        let text = forms.contains(format) ? object[format]?.text ?? "" : pattern(date, format, context: context)
        return .formatted(text, object)
    }

    static func form(_ name: String, of date: Date, hasTime: Bool, context: TransformContext) -> String? {
        switch name {
        case "iso": return iso(date, context: context, hasTime: hasTime)
        case "relative": return relative(date, context: context, hasTime: hasTime)
        case "short": return styled(date, .numeric, context: context)
        case "medium": return styled(date, .abbreviated, context: context)
        case "long": return styled(date, .long, context: context)
        case "full": return styled(date, .complete, context: context)
        case "year": return pattern(date, "yyyy", context: context)
        default: return nil
        }
    }

    /// "3 days ago" against the build date, in the page's language.
    ///
    /// The unit and the count are chosen here, by elapsed time alone, and the same way as the
    /// theme's script does in the browser (`Intl.RelativeTimeFormat`): left to the calendar, the
    /// same date read "2 weeks ago" in English but "last week" in French, whose weeks start on
    /// Monday. Only the words come from the locale.
    static func relative(_ date: Date, context: TransformContext, hasTime: Bool) -> String {
        let days = localDay(of: date, in: context.timeZone) - localDay(of: context.buildDate, in: context.timeZone)
        let (field, count) = relativeUnit(seconds: date.timeIntervalSince(context.buildDate), days: days, hasTime: hasTime)
        // The words depend only on the unit, the count and the language: formatted once each.
        return RelativeWords.shared.words(field: field, count: count, locale: context.locale.identifier) {
            let component: Calendar.Component = switch field {
            case .second: .second
            case .minute: .minute
            case .hour: .hour
            case .day: .day
            case .week: .weekOfYear
            case .month: .month
            default: .year
            }
            // An anchor exactly `count` units from the build date, so the style can only say that.
            let calendar = context.calendar
            let anchor = calendar.date(byAdding: component, value: count, to: context.buildDate) ?? date
            var style = Date.AnchoredRelativeFormatStyle(anchor: anchor, presentation: .named, unitsStyle: .wide, locale: context.locale, calendar: calendar)
            style.allowedFields = [field]
            return style.format(context.buildDate)
        }
    }

    /// The number of the calendar day `date` falls on in `timeZone`: days since 1970-01-01 there.
    static func localDay(of date: Date, in timeZone: TimeZone) -> Int {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        return Int((local / 86400).rounded(.down))
    }

    /// Within a day, a date with a time says seconds, minutes or hours (by elapsed time); otherwise
    /// the count is of calendar days between the two dates: days under a week ("yesterday",
    /// "in 3 days"), then weeks under 30 days, months under 365, then years, rounded to the nearest.
    static func relativeUnit(seconds: Double, days: Int, hasTime: Bool) -> (Date.AnchoredRelativeFormatStyle.Field, Int) {
        let elapsed = abs(seconds)
        if hasTime && elapsed < 86400 {
            if elapsed < 60 { return (.second, Int(seconds.rounded())) }
            if elapsed < 3600 { return (.minute, Int((seconds / 60).rounded())) }
            return (.hour, Int((seconds / 3600).rounded()))
        }
        let d = Double(days)
        switch abs(days) {
        case ..<7: return (.day, days)
        case ..<30: return (.week, Int((d / 7).rounded()))
        case ..<365: return (.month, Int((d / 30.4375).rounded()))
        default: return (.year, Int((d / 365.25).rounded()))
        }
    }

    /// A date-only style depends on nothing but the local day and the language: formatted once
    /// per day, style and language.
    static func styled(_ date: Date, _ style: Date.FormatStyle.DateStyle, context: TransformContext) -> String {
        styled(date, style, locale: context.locale, timeZone: context.timeZone, calendar: context.calendar)
    }

    /// `styled(_:_:context:)` where no transform context is at hand (a search document's date);
    /// the calendar is made only when the day is not formatted yet.
    static func styled(_ date: Date, _ style: Date.FormatStyle.DateStyle, locale: Locale, timeZone: TimeZone, calendar: Calendar? = nil) -> String {
        let name = switch style {
        case .numeric: "numeric"
        case .abbreviated: "abbreviated"
        case .long: "long"
        case .complete: "complete"
        default: "other"
        }
        // Styles not named here are formatted each time rather than risk a shared key.
        func formatted() -> String {
            let calendar = calendar ?? TransformContext.calendar(locale, timeZone)
            return date.formatted(Date.FormatStyle(date: style, time: .omitted, locale: locale, calendar: calendar, timeZone: timeZone))
        }
        guard name != "other" else { return formatted() }
        let day = localDay(of: date, in: timeZone)
        let key = StyledDay(day: day, style: name, locale: locale.identifier)
        return styledDays.value(key) {
            guard day >= firstGregorianDay else { return ProlepticFormatting.styled(day: day, style: style, locale: locale) }
            return formatted()
        }
    }
    private struct StyledDay: Hashable, Sendable { var day: Int, style: String, locale: String }
    private static let styledDays = Memo<StyledDay, String>()

    /// 1601-01-01, the first day Foundation's formatters give in the proleptic Gregorian calendar
    /// (with a margin over its switch in 1582); days before are formatted by `ProlepticFormatting`.
    static let firstGregorianDay = CivilTime.gregorianInFoundation / 86_400

    /// An ICU pattern such as `d MMMM yyyy`, localized.
    static func pattern(_ date: Date, _ pattern: String, context: TransformContext) -> String {
        // A day later than the first day in UTC is on or after it in any time zone.
        guard date.timeIntervalSince1970 >= Double(CivilTime.gregorianInFoundation + 86_400) else {
            return ProlepticFormatting.pattern(date, pattern, locale: context.locale, timeZone: context.timeZone)
        }
        return FormatterCache.dateFormatter(pattern: pattern, context: context).string(from: date)
    }

    static func iso(_ date: Date, context: TransformContext, hasTime: Bool) -> String {
        CivilTime.iso(date, offset: context.timeZone.secondsFromGMT(for: date), withTime: hasTime)
            ?? FormatterCache.isoFormatter(timeZone: context.timeZone, withTime: hasTime).string(from: date)
    }
}

/// Relative wordings ("3 days ago", "la semaine dernière") by unit, count and language.
final class RelativeWords: @unchecked Sendable {
    static let shared = RelativeWords()
    private let memo = Memo<String, String>()

    func words(field: Date.AnchoredRelativeFormatStyle.Field, count: Int, locale: String, make: () -> String) -> String {
        let unit = switch field {
        case .second: "s"
        case .minute: "m"
        case .hour: "h"
        case .day: "d"
        case .week: "w"
        case .month: "M"
        default: "y"
        }
        return memo.value(unit + String(count) + "\u{1}" + locale, make: make)
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
    private var entries: [Key: ViewObject] = [:]
    /// Build dates some of whose dates were dropped to stay under the limit.
    private var evicted: Set<Double> = []

    func object(for key: Key, make: () -> ViewObject) -> ViewObject {
        if let cached = lock.withLock({ entries[key] }) { return cached }
        let object = make()
        return lock.withLock {
            if entries.count >= Self.limit {
                evicted.formUnion(entries.keys.map(\.buildDate))
                entries.removeAll(keepingCapacity: true)
            }
            // Another thread may have made it meanwhile: keep one object per date.
            if let existing = entries[key] { return existing }
            entries[key] = object
            return object
        }
    }

    /// Every relative form computed so far against `buildDate` ("3 days ago"), for the build
    /// cache to check it would read the same at the next build's date. Builds of this process at
    /// the same build date add theirs, which only makes the check stricter; `complete` is false
    /// when some were dropped.
    func relativeForms(buildDate: Double) -> (forms: [BuildManifest.RelativeDate], complete: Bool) {
        lock.withLock {
            let forms = entries.compactMap { key, object -> BuildManifest.RelativeDate? in
                guard key.buildDate == buildDate, let text = object.valueIfComputed("relative")?.text else { return nil }
                return BuildManifest.RelativeDate(date: key.date, hasTime: key.hasTime, locale: key.locale, timeZone: key.timeZone, text: text)
            }
            return (forms.sorted { ($0.date, $0.locale, $0.timeZone) < ($1.date, $1.locale, $1.timeZone) }, !evicted.contains(buildDate))
        }
    }

}
