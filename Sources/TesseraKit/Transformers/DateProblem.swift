import Foundation

/// What is wrong with a date value, for the error at the value: `reason` follows "is not a date"
/// ("November 2026 has 30 days"; nil when the text is not an ISO 8601 date at all), and `hint`
/// shows a valid form, near the value where one can be made from it.
public struct DateProblem: Error, Equatable, Sendable {
    public var reason: String?
    public var hint: String

    static let shape = DateProblem(reason: nil, hint: DateParsing.formatHint)

    static let range = "dates run from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in the Gregorian calendar"

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    static func yearOutOfRange(_ written: String, _ fields: DateFields? = nil) -> DateProblem {
        let example = fields.map(self.example) ?? (written.hasPrefix("-") ? "0001-01-01" : "9999-12-31")
        return DateProblem(reason: "year \(written) is out of range (0001-9999)", hint: "write a year from 0001 to 9999, as in \(example)")
    }

    static func monthOutOfRange(_ fields: DateFields) -> DateProblem {
        DateProblem(reason: "month \(two(fields.month)) is out of range (01-12)", hint: "write a month from 01 to 12, as in \(example(fields))")
    }

    static func dayOutOfRange(_ fields: DateFields) -> DateProblem {
        let days = CivilTime.daysIn(month: fields.month, year: fields.year)
        let reason = fields.day == 0
            ? "day 00 is out of range (01-\(days))"
            : "\(monthNames[fields.month - 1]) \(four(fields.year)) has \(days) days"
        return DateProblem(reason: reason, hint: "write a day from 01 to \(days), as in \(example(fields))")
    }

    static func hourOutOfRange(_ fields: DateFields) -> DateProblem {
        let reason = "hour \(two(fields.hour)) is out of range (00-23)"
        guard fields.hour == 24, fields.minute == 0, fields.second == 0, fields.nanosecond == 0 else {
            return DateProblem(reason: reason, hint: "write an hour from 00 to 23, as in \(example(fields))")
        }
        // ISO 8601's 24:00, the end of a day, is the start of the next.
        let next = CivilTime.unbounded((CivilTime.days(year: fields.year, month: fields.month, day: fields.day) + 1) * 86_400)
        var midnight = fields
        (midnight.year, midnight.month, midnight.day, midnight.hour) = (next.year, next.month, next.day, 0)
        return DateProblem(reason: reason, hint: "the midnight that ends the day is 00:00 of the next, as in \(example(midnight))")
    }

    static func minuteOutOfRange(_ fields: DateFields) -> DateProblem {
        DateProblem(reason: "minute \(two(fields.minute)) is out of range (00-59)", hint: "write a minute from 00 to 59, as in \(example(fields))")
    }

    static func secondOutOfRange(_ fields: DateFields) -> DateProblem {
        guard fields.second == 60 else {
            return DateProblem(reason: "second \(two(fields.second)) is out of range (00-59)", hint: "write a second from 00 to 59, as in \(example(fields))")
        }
        // Time since 1970 (Foundation's, POSIX's) has no leap seconds: 60 would read as the next
        // minute, and at the end of 9999 as the year 10000.
        return DateProblem(reason: "second 60 (a leap second) is out of range (00-59)", hint: "write the second before, as in \(example(fields))")
    }

    static func offsetShape(_ written: String) -> DateProblem {
        DateProblem(reason: "the offset '\(written)' is not Z, +hh:mm or -hh:mm", hint: "write Z for UTC or an offset such as +01:00 or -05:00, as in 2026-11-01T09:30:00+01:00")
    }

    static func offsetOutOfRange(_ written: String, _ fields: DateFields) -> DateProblem {
        DateProblem(reason: "the offset \(written) is out of range (-18:00 to +18:00)", hint: offsetHint(fields))
    }

    static func offsetMinutes(_ written: String, _ fields: DateFields) -> DateProblem {
        DateProblem(reason: "the minutes of the offset \(written) are out of range (00-59)", hint: offsetHint(fields))
    }

    private static func offsetHint(_ fields: DateFields) -> String {
        var example = fields
        example.zoneText = "+01:00"
        return "write an offset from -18:00 to +18:00, as in \(self.example(example))"
    }

    /// `utc` is the instant in UTC; `readIn` the time zone a value without an offset was read in.
    static func outOfRange(utc: String, readIn zone: String?, before: Bool) -> DateProblem {
        let place = zone.map { "read in the time zone \($0), it is \(utc) in UTC" } ?? "it is \(utc) in UTC"
        return DateProblem(reason: place + (before ? ", before 0001-01-01T00:00:00Z" : ", after 9999-12-31T23:59:59Z"), hint: range)
    }

    /// In range in UTC, but pages in `timeZone` would show it as `shown`, out of the years 0001-9999.
    static func outOfRangeShown(_ shown: String, timeZone: String, before: Bool) -> DateProblem {
        DateProblem(
            reason: "in the site's time zone \(timeZone) it is \(shown), " + (before ? "before the year 0001" : "after the year 9999"),
            hint: range + ", and pages show them in the site's time zone")
    }

    /// The value with each field brought into range: `2026-13-01` gives `2026-12-01`.
    static func example(_ fields: DateFields) -> String {
        let year = min(max(fields.year, 1), 9999), month = min(max(fields.month, 1), 12)
        let day = min(max(fields.day, 1), CivilTime.daysIn(month: month, year: year))
        var text = four(year) + "-" + two(month) + "-" + two(day)
        guard fields.hasTime else { return text }
        text += "T" + two(min(fields.hour, 23)) + ":" + two(min(fields.minute, 59))
        if fields.hasSeconds { text += ":" + two(min(fields.second, 59)) }
        return text + fields.zoneText
    }

    private static func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
    private static func four(_ value: Int) -> String { String(repeating: "0", count: max(0, 4 - String(value).count)) + String(value) }
}
