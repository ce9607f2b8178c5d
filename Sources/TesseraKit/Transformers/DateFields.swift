import Foundation

/// The fields of an ISO 8601 date as written, before they are checked against the calendar:
/// `2026-11-31` reads (its day is checked after), `2026/11/01` does not.
struct DateFields {
    var year = 0, month = 0, day = 0
    var hour = 0, minute = 0, second = 0, nanosecond = 0
    /// Seconds east of UTC when the text gives an offset (`Z`, `+01:00`); nil to read the date in
    /// the site's time zone.
    var offset: Int?
    /// How the text writes the time and the zone, for examples in hints: `T09:30`, `Z`.
    var hasTime = false, hasSeconds = false
    var zoneText = ""

    var components: DateComponents {
        DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second, nanosecond: nanosecond)
    }

    /// A cursor over a date's bytes. A struct, not local functions sharing captured variables:
    /// those were boxed and checked for exclusive access at run time on every digit read.
    private struct Reader {
        let bytes: [UInt8]
        var i = 0

        init(_ text: String) {
            var bytes = Array(text.utf8)
            while let last = bytes.last, last == 32 || last == 9 { bytes.removeLast() }
            if let start = bytes.firstIndex(where: { $0 != 32 && $0 != 9 }), start > 0 { bytes.removeFirst(start) }
            self.bytes = bytes
        }

        mutating func number(_ digits: Int) -> Int? {
            guard i + digits <= bytes.count else { return nil }
            var value = 0
            for k in i..<(i + digits) {
                let c = bytes[k]
                guard c >= 48 && c <= 57 else { return nil }
                value = value * 10 + Int(c - 48)
            }
            i += digits
            return value
        }

        /// The byte at the cursor; nil at the end.
        var current: UInt8? { i < bytes.count ? bytes[i] : nil }

        /// Whether the cursor is past the last byte.
        var atEnd: Bool { i == bytes.count }

        mutating func expect(_ c: UInt8) -> Bool {
            guard i < bytes.count, bytes[i] == c else { return false }
            i += 1
            return true
        }
    }

    static func read(_ text: String) -> Result<DateFields, DateProblem> {
        var r = Reader(text)
        let shape = Result<DateFields, DateProblem>.failure(.shape)
        var fields = DateFields()
        guard let year = r.number(4), r.expect(45) else { return yearProblem(r.bytes).map { .failure($0) } ?? shape }
        guard let month = r.number(2), r.expect(45), let day = r.number(2) else { return shape }
        (fields.year, fields.month, fields.day) = (year, month, day)
        if let c = r.current, c == 84 || c == 116 || c == 32 { // T t space
            r.i += 1
            guard let hour = r.number(2), r.expect(58), let minute = r.number(2) else { return shape }
            (fields.hour, fields.minute, fields.hasTime) = (hour, minute, true)
            if r.expect(58) {
                guard let second = r.number(2) else { return shape }
                (fields.second, fields.hasSeconds) = (second, true)
                if r.expect(46) || r.expect(44) {
                    var fraction = 0.0, scale = 0.1
                    while let c = r.current, c >= 48, c <= 57 {
                        fraction += Double(c - 48) * scale
                        scale /= 10
                        r.i += 1
                    }
                    fields.nanosecond = Int((fraction * 1e9).rounded())
                }
            }
            if r.current == 32 { r.i += 1 }
            if let c = r.current {
                fields.zoneText = String(decoding: r.bytes[r.i...], as: UTF8.self)
                if c == 90 || c == 122 { // Z
                    r.i += 1
                    fields.offset = 0
                } else if c == 43 || c == 45 { // + -
                    let sign = c == 45 ? -1 : 1
                    r.i += 1
                    let hours = r.number(2)
                    let colon = r.expect(58)
                    let minutes = r.number(2)
                    guard let hours, r.atEnd, minutes != nil || !colon else { return .failure(.offsetShape(fields.zoneText)) }
                    guard hours < 18 || (hours == 18 && (minutes ?? 0) == 0) else { return .failure(.offsetOutOfRange(fields.zoneText, fields)) }
                    guard (minutes ?? 0) < 60 else { return .failure(.offsetMinutes(fields.zoneText, fields)) }
                    fields.offset = sign * (hours * 3600 + (minutes ?? 0) * 60)
                } else {
                    return shape
                }
            }
        }
        guard r.atEnd else { return shape }
        return .success(fields)
    }

    /// A year of more than four digits or with a sign (`10000-01-01`, `-0001-01-01`): ISO 8601's
    /// expanded years, out of Tessera's range rather than misspelt.
    private static func yearProblem(_ scalars: [UInt8]) -> DateProblem? {
        let sign = scalars.first.flatMap { $0 == 43 || $0 == 45 ? $0 : nil }
        let start = sign == nil ? 0 : 1
        let digits = scalars[start...].prefix { $0 >= 48 && $0 <= 57 }
        guard digits.count >= 4, start + digits.count < scalars.count, scalars[start + digits.count] == 45,
              digits.count > 4 || sign == 45 else { return nil }
        return .yearOutOfRange(String(decoding: scalars[..<(start + digits.count)], as: UTF8.self))
    }

    /// What is wrong with fields that read but name no date or time: the first field out of range.
    var problem: DateProblem? {
        if year == 0 { return .yearOutOfRange("0000", self) }
        if !(1...12).contains(month) { return .monthOutOfRange(self) }
        if day < 1 || day > CivilTime.daysIn(month: month, year: year) { return .dayOutOfRange(self) }
        if hour > 23 { return .hourOutOfRange(self) }
        if minute > 59 { return .minuteOutOfRange(self) }
        if second > 59 { return .secondOutOfRange(self) }
        return nil
    }
}
