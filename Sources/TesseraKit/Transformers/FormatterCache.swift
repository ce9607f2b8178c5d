import Foundation

/// Date formatters are costly to create and not safe to share between threads, so each thread
/// keeps its own, one per locale, time zone and pattern.
enum FormatterCache {
    static func dateFormatter(pattern: String, context: TransformContext) -> DateFormatter {
        dateFormatter(pattern: pattern, locale: context.locale, timeZone: context.timeZone, calendar: context.calendar)
    }

    /// A formatter of `pattern` in the Gregorian calendar (Julian before 1582-10-15: see
    /// `ProlepticFormatting`).
    static func dateFormatter(pattern: String, locale: Locale, timeZone: TimeZone, calendar: Calendar? = nil) -> DateFormatter {
        let key = "tessera.date|\(locale.identifier)|\(timeZone.identifier)|\(pattern)"
        if let cached = Thread.current.threadDictionary[key] as? DateFormatter { return cached }
        let formatter = DateFormatter()
        formatter.locale = locale
        formatter.timeZone = timeZone
        formatter.calendar = calendar ?? TransformContext.calendar(locale, timeZone)
        formatter.dateFormat = pattern
        Thread.current.threadDictionary[key] = formatter
        return formatter
    }

    static func isoFormatter(timeZone: TimeZone, withTime: Bool) -> ISO8601DateFormatter {
        let key = "tessera.iso|\(timeZone.identifier)|\(withTime)"
        if let cached = Thread.current.threadDictionary[key] as? ISO8601DateFormatter { return cached }
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = timeZone
        formatter.formatOptions = withTime ? [.withInternetDateTime] : [.withFullDate]
        Thread.current.threadDictionary[key] = formatter
        return formatter
    }
}
