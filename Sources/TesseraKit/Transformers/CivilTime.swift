import Foundation

/// Gregorian dates by arithmetic: the ISO forms every page prints (dates in view data, the
/// sitemap, feeds, the JSON index) without a formatter, which costs microseconds each.
enum CivilTime {
    /// Year, month, day and second of the day of `seconds` since 1970 (already shifted to local
    /// time); nil before 1601 (Foundation counts days before 1582 in the Julian calendar) or after 9999.
    static func components(_ seconds: Int) -> (year: Int, month: Int, day: Int, second: Int)? {
        guard seconds >= -11_644_473_600, seconds < 253_402_300_800 else { return nil }
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let second = seconds - days * 86_400
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day, second)
    }

    /// `2026-11-01T09:30:00+01:00` (`Z` for a zero offset), or `2026-11-01` without the time, as
    /// `ISO8601DateFormatter` writes them: whole seconds, rounded down. `offset` is the time zone's
    /// offset at `date` in seconds; nil when arithmetic does not cover the case (an offset that is
    /// not whole minutes, or a year outside 1601...9999).
    static func iso(_ date: Date, offset: Int, withTime: Bool) -> String? {
        guard offset % 60 == 0, let (year, month, day, second) = components(Int(date.timeIntervalSince1970.rounded(.down)) + offset) else { return nil }
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        let dateText = String(year) + "-" + two(month) + "-" + two(day)
        guard withTime else { return dateText }
        var zone = "Z"
        if offset != 0 {
            let minutes = abs(offset) / 60
            zone = (offset < 0 ? "-" : "+") + two(minutes / 60) + ":" + two(minutes % 60)
        }
        return dateText + "T" + two(second / 3600) + ":" + two(second / 60 % 60) + ":" + two(second % 60) + zone
    }
}
