import Foundation

/// Reads the ISO 8601 dates content is written with: `2026-11-01`, `2026-11-01T09:30:00Z`,
/// `2026-11-01T09:30:00+01:00`, `2026-11-01 09:30`, with optional fractional seconds.
///
/// A date or time without an offset is read in the site's time zone, so `2026-11-01` is midnight
/// where the site is, not in UTC.
public enum DateParsing {
    public static func parse(_ text: String, timeZone: TimeZone) -> Date? {
        var scalars = Array(text.utf8)
        while let last = scalars.last, last == 32 || last == 9 { scalars.removeLast() }
        if let start = scalars.firstIndex(where: { $0 != 32 && $0 != 9 }), start > 0 { scalars.removeFirst(start) }
        var i = 0
        func number(_ digits: Int) -> Int? {
            guard i + digits <= scalars.count else { return nil }
            var value = 0
            for k in i..<(i + digits) {
                let c = scalars[k]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += digits
            return value
        }
        func expect(_ c: UInt8) -> Bool {
            guard i < scalars.count, scalars[i] == c else { return false }
            i += 1
            return true
        }
        guard let year = number(4), expect(45), let month = number(2), expect(45), let day = number(2) else { return nil }
        var components = DateComponents(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        var zone = timeZone
        if i < scalars.count {
            guard scalars[i] == 84 || scalars[i] == 116 || scalars[i] == 32 else { return nil } // T t space
            i += 1
            guard let hour = number(2), expect(58), let minute = number(2) else { return nil }
            components.hour = hour
            components.minute = minute
            if expect(58) {
                guard let second = number(2) else { return nil }
                components.second = second
                if expect(46) || expect(44) {
                    var fraction = 0.0, scale = 0.1
                    while i < scalars.count, scalars[i] >= 48, scalars[i] <= 57 {
                        fraction += Double(scalars[i] - 48) * scale
                        scale /= 10
                        i += 1
                    }
                    components.nanosecond = Int((fraction * 1e9).rounded())
                }
            }
            if i < scalars.count, scalars[i] == 32 { i += 1 }
            if i < scalars.count {
                if scalars[i] == 90 || scalars[i] == 122 { // Z
                    i += 1
                    zone = TimeZone(secondsFromGMT: 0)!
                } else if scalars[i] == 43 || scalars[i] == 45 { // + -
                    let sign = scalars[i] == 45 ? -1 : 1
                    i += 1
                    guard let hours = number(2) else { return nil }
                    _ = expect(58)
                    let minutes = number(2) ?? 0
                    guard let offsetZone = TimeZone(secondsFromGMT: sign * (hours * 3600 + minutes * 60)) else { return nil }
                    zone = offsetZone
                } else {
                    return nil
                }
            }
        }
        guard i == scalars.count else { return nil }
        guard (1...12).contains(month), (1...31).contains(day),
              (0...23).contains(components.hour ?? 0), (0...59).contains(components.minute ?? 0),
              (0...60).contains(components.second ?? 0) else { return nil }
        guard day <= daysIn(month: month, year: year) else { return nil }  // rejects 2026-02-30
        if let offset = fixedOffset(zone) {
            // Fixed offsets (UTC, `Z`, `+01:00`): plain arithmetic, no calendar.
            let days = daysSince1970(year: year, month: month, day: day)
            let seconds = Double(days * 86400 + (components.hour ?? 0) * 3600 + (components.minute ?? 0) * 60 + (components.second ?? 0) - offset)
            return Date(timeIntervalSince1970: seconds + Double(components.nanosecond ?? 0) / 1e9)
        }
        return calendar(for: zone).date(from: components)
    }

    /// The offset of a zone that has only one (UTC, GMT, `GMT+0100`); nil for zones with daylight
    /// saving time or a history of offsets, which the calendar resolves.
    static func fixedOffset(_ zone: TimeZone) -> Int? {
        let identifier = zone.identifier
        guard identifier == "UTC" || identifier == "GMT" || identifier.hasPrefix("GMT+") || identifier.hasPrefix("GMT-") else { return nil }
        return zone.secondsFromGMT()
    }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's `days_from_civil`).
    static func daysSince1970(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146097 + dayOfEra - 719468
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
