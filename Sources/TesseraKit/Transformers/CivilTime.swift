import Foundation

/// Dates of the proleptic Gregorian calendar by arithmetic, for years 0001 to 9999: the ISO forms
/// every page prints (dates in view data, the sitemap, feeds, the JSON index) without a
/// formatter, which costs microseconds each and counts days before 1582-10-15 in the Julian
/// calendar, where ISO 8601 and `<time datetime>` mean the Gregorian calendar extended backwards.
enum CivilTime {
    /// 0001-01-01T00:00:00Z and 10000-01-01T00:00:00Z in seconds since 1970: the instants Tessera
    /// reads and prints are in `first..<end`.
    static let first = -62_135_596_800
    static let end = 253_402_300_800
    /// 1601-01-01T00:00:00Z: from here on Foundation's calendar is Gregorian, with a margin of a
    /// few years over its switch in 1582 that also covers any time zone's offset.
    static let gregorianInFoundation = -11_644_473_600
    /// Days in 400 Gregorian years: a shift by whole cycles keeps the weekday, the month layout
    /// and the leap years of every date.
    static let cycleDays = 146_097

    /// Year, month, day and second of the day of `seconds` since 1970 (already shifted to local
    /// time); nil outside the years 0001...9999.
    static func components(_ seconds: Int) -> (year: Int, month: Int, day: Int, second: Int)? {
        guard seconds >= first, seconds < end else { return nil }
        return unbounded(seconds)
    }

    /// `components` for any instant (years 0000 and 10000 among them), to show a value out of
    /// range in an error.
    static func unbounded(_ seconds: Int) -> (year: Int, month: Int, day: Int, second: Int) {
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
    /// `ISO8601DateFormatter` writes them from 1601 on: whole seconds, rounded down. `offset` is
    /// the time zone's offset at `date` in seconds. An offset that is not whole minutes (a zone's
    /// local mean time, before it took a standard time) cannot be written in ISO 8601 or in
    /// `<time datetime>`: the time is then given in UTC. Nil outside the years 0001...9999.
    static func iso(_ date: Date, offset: Int, withTime: Bool) -> String? {
        let seconds = date.timeIntervalSince1970.rounded(.down)
        guard seconds >= Double(first), seconds < Double(end) else { return nil }
        let offset = withTime && offset % 60 != 0 ? 0 : offset
        guard let parts = components(Int(seconds) + offset) else { return nil }
        return text(parts, offset: offset, withTime: withTime)
    }

    /// The ISO text of `parts` (any year, padded to four digits) at `offset` whole minutes.
    /// Written as bytes: made of `String`s joined with `+` (a dozen of them), it took 6,800
    /// instructions, and every date a page shows has one.
    static func text(_ parts: (year: Int, month: Int, day: Int, second: Int), offset: Int, withTime: Bool) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(32)
        let year = String(parts.year)
        bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: max(0, 4 - year.count)))
        bytes.append(contentsOf: year.utf8)
        bytes.append(UInt8(ascii: "-"))
        two(parts.month, into: &bytes)
        bytes.append(UInt8(ascii: "-"))
        two(parts.day, into: &bytes)
        if withTime {
            let second = parts.second
            bytes.append(UInt8(ascii: "T"))
            two(second / 3600, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            two(second / 60 % 60, into: &bytes)
            bytes.append(UInt8(ascii: ":"))
            two(second % 60, into: &bytes)
            if offset == 0 {
                bytes.append(UInt8(ascii: "Z"))
            } else {
                let minutes = abs(offset) / 60
                bytes.append(offset < 0 ? UInt8(ascii: "-") : UInt8(ascii: "+"))
                two(minutes / 60, into: &bytes)
                bytes.append(UInt8(ascii: ":"))
                two(minutes % 60, into: &bytes)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// A field of two digits, a leading zero below 10 (as `value < 10 ? "0\(value)" : String(value)`
    /// for any value).
    private static func two(_ value: Int, into bytes: inout [UInt8]) {
        guard value >= 0, value < 100 else {
            bytes.append(contentsOf: (value < 10 ? "0\(value)" : String(value)).utf8)
            return
        }
        bytes.append(UInt8(ascii: "0") + UInt8(value / 10))
        bytes.append(UInt8(ascii: "0") + UInt8(value % 10))
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func days(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}
