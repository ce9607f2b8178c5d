import Foundation

/// Reads the ISO 8601 dates content is written with: `2026-11-01`, `2026-11-01T09:30:00Z`,
/// `2026-11-01T09:30:00+01:00`, `2026-11-01 09:30`, with optional fractional seconds, in the
/// proleptic Gregorian calendar (the one ISO 8601 means, before 1582 too), years 0001 to 9999.
///
/// A date or time without an offset is read in the site's time zone, so `2026-11-01` is midnight
/// where the site is, not in UTC. The instant must lie between 0001-01-01T00:00:00Z and
/// 9999-12-31T23:59:59Z, and also within the years 0001-9999 in that time zone, where pages show
/// it: every form Tessera prints (`<time datetime>`, the sitemap, feeds) is then a valid ISO date.
public enum DateParsing {
    public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        if case .success(let date) = read(text, timeZone: timeZone) { return date }
        return nil
    }

    /// The date `text` names, or what is wrong with it.
    public static func read(_ text: String, timeZone: TimeZone) -> Result<Date, DateProblem> {
        let fields: DateFields
        switch DateFields.read(text) {
        case .success(let read): fields = read
        case .failure(let problem): return .failure(problem)
        }
        if let problem = fields.problem { return .failure(problem) }
        let local = CivilTime.days(year: fields.year, month: fields.month, day: fields.day) * 86_400
            + fields.hour * 3600 + fields.minute * 60 + fields.second
        let fraction = Double(fields.nanosecond) / 1e9
        let date: Date
        if let offset = fields.offset ?? fixedOffset(timeZone) {
            // Fixed offsets (UTC, `Z`, `+01:00`): plain arithmetic, no calendar.
            date = Date(timeIntervalSince1970: Double(local - offset) + fraction)
        } else if local >= CivilTime.gregorianInFoundation + 86_400 {
            // Daylight saving time: the calendar settles the hour skipped or repeated.
            date = calendar(for: timeZone).date(from: fields.components) ?? Date(timeIntervalSince1970: Double(local) + fraction)
        } else {
            // Foundation's calendar is Julian here. Every zone kept one offset (its local mean
            // time) until the 1840s, so the offset at any instant of the day is the offset.
            let offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(local)))
            date = Date(timeIntervalSince1970: Double(local - offset) + fraction)
        }
        if let problem = rangeProblem(date, fields: fields, timeZone: timeZone) { return .failure(problem) }
        return .success(date)
    }

    /// The date a front matter or field value holds, or an error at the value saying what is wrong
    /// with it; `subject` names the value in the message ("'2026-11-31' in field 'updated'").
    static func date(_ node: ContentNode, timeZone: TimeZone, subject: (String) -> String) throws -> Date {
        let problem: DateProblem
        if let raw = node.scalarText {
            switch read(raw, timeZone: timeZone) {
            case .success(let date): return date
            case .failure(let found): problem = found
            }
        } else {
            problem = DateProblem(reason: nil, hint: formatHint)
        }
        let reason = problem.reason.map { ": " + $0 } ?? ""
        throw TesseraError(subject(node.scalarText ?? node.kindDescription) + " is not a date" + reason, at: node.location, hint: problem.hint)
    }

    /// Out of 0001-01-01T00:00:00Z...9999-12-31T23:59:59Z, or out of the years 0001-9999 where
    /// the site shows it. Only instants within two days of an end can be either.
    static func rangeProblem(_ date: Date, fields: DateFields, timeZone: TimeZone) -> DateProblem? {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        guard seconds < CivilTime.first + 2 * 86_400 || seconds >= CivilTime.end - 2 * 86_400 else { return nil }
        let zone = fields.offset == nil ? timeZone.identifier : nil
        if seconds < CivilTime.first || seconds >= CivilTime.end {
            return .outOfRange(utc: CivilTime.text(CivilTime.unbounded(seconds), offset: 0, withTime: true), readIn: zone, before: seconds < CivilTime.first)
        }
        let local = seconds + timeZone.secondsFromGMT(for: date)
        guard CivilTime.components(local) == nil else { return nil }
        let shown = CivilTime.text(CivilTime.unbounded(local), offset: 0, withTime: true).dropLast()
        return .outOfRangeShown(String(shown), timeZone: timeZone.identifier, before: local < CivilTime.first)
    }

    /// The offset of a zone that has only one (UTC, GMT, `GMT+0100`); nil for zones with daylight
    /// saving time or a history of offsets, which the calendar resolves.
    static func fixedOffset(_ zone: TimeZone) -> Int? {
        let identifier = zone.identifier
        guard identifier == "UTC" || identifier == "GMT" || identifier.hasPrefix("GMT+") || identifier.hasPrefix("GMT-") else { return nil }
        return zone.secondsFromGMT()
    }

    private static let calendars = CalendarsByZone()

    /// A Gregorian calendar in `zone`, made once per zone.
    static func calendar(for zone: TimeZone) -> Calendar { calendars.calendar(for: zone) }

    private final class CalendarsByZone: @unchecked Sendable {
        private let memo = Memo<String, Calendar>()

        func calendar(for zone: TimeZone) -> Calendar {
            memo.value(zone.identifier + "\u{1}" + String(zone.secondsFromGMT())) {
                var calendar = Calendar(identifier: .gregorian)
                calendar.timeZone = zone
                return calendar
            }
        }
    }

    /// True when the text carries a time of day, not only a calendar date.
    public static func hasTime(_ text: String) -> Bool {
        // Dates are ASCII: more than `yyyy-mm-dd` once spaces and tabs around are set aside.
        let utf8 = text.utf8
        let leading = utf8.prefix { $0 == 32 || $0 == 9 }.count
        let trailing = utf8.reversed().prefix { $0 == 32 || $0 == 9 }.count
        return utf8.count - leading - trailing > 10
    }

    static let formatHint = "write an ISO 8601 date such as 2026-11-01 or 2026-11-01T09:30:00Z"
}
