import Foundation

/// Date styles and ICU patterns for days before 1601, in the proleptic Gregorian calendar.
///
/// Foundation formats days before 1582-10-15 in the Julian calendar (1000-01-01 prints as
/// December 27, 999) and offers no public way to move the switch. A day shifted by whole
/// 400-year cycles (146,097 days) keeps its month, day, weekday, day of the year and week, so it
/// is formatted after 1601, and its year is put back: written by the same formatter, from the
/// middle of the right year, where the Julian and Gregorian calendars agree on the year number.
/// The year thus comes in the locale's own digits and padding (`999`, `٩٩٩`, `0999` for `yyyy`).
enum ProlepticFormatting {
    /// Whole cycles that bring `year` to 1601 or later.
    static func cycles(forYear year: Int) -> Int { year >= 1601 ? 0 : (1601 - year + 399) / 400 }

    /// Noon on July 1 of `year` in UTC, as a date to format only the year of.
    static func midYear(_ year: Int) -> Date {
        Date(timeIntervalSince1970: Double(CivilTime.days(year: year, month: 7, day: 1) * 86_400 + 43_200))
    }

    /// `style` of the local day `day` (days since 1970 where the site is).
    static func styled(day: Int, style: Date.FormatStyle.DateStyle, locale: Locale) -> String {
        let year = CivilTime.unbounded(day * 86_400).year
        let shift = cycles(forYear: year)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        calendar.locale = locale
        let format = Date.FormatStyle(date: style, time: .omitted, locale: locale, calendar: calendar, timeZone: .gmt)
        let shifted = Date(timeIntervalSince1970: Double((day + shift * CivilTime.cycleDays) * 86_400 + 43_200))
        guard shift > 0 else { return shifted.formatted(format) }
        let yearText = yearRuns(midYear(year).formatted(format.attributed)).first ?? ""
        let text = shifted.formatted(format.attributed)
        var result = ""
        for run in text.runs {
            result += run.foundation.dateField == .year ? yearText : String(text[run.range].characters)
        }
        return result
    }

    private static func yearRuns(_ text: AttributedString) -> [String] {
        text.runs.filter { $0.foundation.dateField == .year }.map { String(text[$0.range].characters) }
    }

    /// The ICU pattern `pattern` (`d MMMM yyyy`, `HH:mm zzz`) for `date` in `timeZone`.
    ///
    /// The fields of the day and the time are formatted from the shifted wall-clock time in UTC;
    /// year fields (`y`, `u`, `r`, `U`, and `Y`, the year of the week) from the middle of the right
    /// year; the zone (`z`, `Z`, `O`, `v`, `V`, `X`, `x`) and the modified Julian day (`g`), which
    /// count no calendar, from `date` itself. Each of those is a private-use character in the
    /// pattern formatted, replaced afterwards (a character that is not an ASCII letter is literal).
    static func pattern(_ date: Date, _ pattern: String, locale: Locale, timeZone: TimeZone) -> String {
        let local = date.timeIntervalSince1970 + Double(timeZone.secondsFromGMT(for: date))
        let year = CivilTime.unbounded(Int(local.rounded(.down))).year
        let shift = cycles(forYear: year)
        let shifted = Date(timeIntervalSince1970: local + Double(shift * CivilTime.cycleDays * 86_400))
        var rewritten = "", runs: [String] = [], quoted = false
        let characters = Array(pattern)
        var i = 0
        while i < characters.count {
            let c = characters[i]
            guard !quoted, c.isASCII, c.isLetter else {
                if c == "'" { quoted.toggle() }
                rewritten.append(c)
                i += 1
                continue
            }
            var j = i
            while j < characters.count, characters[j] == c { j += 1 }
            let run = String(characters[i..<j])
            if "yurUYzZOvVXxg".contains(c) {
                rewritten.unicodeScalars.append(placeholder(runs.count))
                runs.append(run)
            } else {
                rewritten += run
            }
            i = j
        }
        var text = FormatterCache.dateFormatter(pattern: rewritten, locale: locale, timeZone: .gmt).string(from: shifted)
        for (index, run) in runs.enumerated() {
            let value: String
            switch run.first {
            case "Y":
                let weekYear = Int(FormatterCache.dateFormatter(pattern: "Y", locale: Locale(identifier: "en_US_POSIX"), timeZone: .gmt).string(from: shifted)) ?? year
                value = FormatterCache.dateFormatter(pattern: run, locale: locale, timeZone: .gmt).string(from: midYear(weekYear - shift * 400))
            case "y", "u", "r", "U":
                value = FormatterCache.dateFormatter(pattern: run, locale: locale, timeZone: .gmt).string(from: midYear(year))
            default:
                value = FormatterCache.dateFormatter(pattern: run, locale: locale, timeZone: timeZone).string(from: date)
            }
            text = text.replacingOccurrences(of: String(Character(placeholder(index))), with: value)
        }
        return text
    }

    private static func placeholder(_ index: Int) -> Unicode.Scalar { Unicode.Scalar(0xE000 + UInt32(index))! }
}
