import Foundation
import Testing
@testable import TesseraKit

/// Dates before Foundation's switch to the Gregorian calendar (1582-10-15; its formatters count
/// earlier days in the Julian calendar) are read and printed in the proleptic Gregorian calendar,
/// the one ISO 8601 and `<time datetime>` mean.
@Suite struct ProlepticCalendarTests {
    /// Computed independently, with Python's `datetime.date`, which is proleptic Gregorian:
    /// `d.toordinal() - 719163` (days since 1970-01-01) and `d.strftime('%A')`. Days around the
    /// 1582 switch, leap days of century years, Britain's 1752 switch and the ends of the range.
    static let days: [(text: String, day: Int, weekday: String)] = [
        ("0001-01-01", -719_162, "Monday"), ("0001-01-02", -719_161, "Tuesday"),
        ("0004-02-29", -718_008, "Sunday"), ("0100-02-28", -682_945, "Sunday"),
        ("0100-03-01", -682_944, "Monday"), ("0400-02-29", -573_372, "Tuesday"),
        ("0999-12-31", -354_286, "Tuesday"), ("1000-01-01", -354_285, "Wednesday"),
        ("1582-10-04", -141_438, "Monday"), ("1582-10-05", -141_437, "Tuesday"),
        ("1582-10-14", -141_428, "Thursday"), ("1582-10-15", -141_427, "Friday"),
        ("1600-02-29", -135_081, "Tuesday"), ("1600-12-31", -134_775, "Sunday"),
        ("1601-01-01", -134_774, "Monday"), ("1752-09-02", -79_378, "Saturday"),
        ("1752-09-14", -79_366, "Thursday"), ("1969-12-31", -1, "Wednesday"),
        ("1970-01-01", 0, "Thursday"), ("2000-02-29", 11_016, "Tuesday"),
        ("9999-12-31", 2_932_896, "Friday"),
    ]

    static let buildDate = Date(timeIntervalSince1970: 1_763_802_000) // 2025-11-22T09:00:00Z

    static func transform(_ value: String, format: String, language: String = "en", zone: String = "UTC") throws -> ViewValue {
        let context = TransformContext(
            locale: Locale(identifier: language), timeZone: TimeZone(identifier: zone)!, buildDate: buildDate,
            markdown: MarkdownRenderer(), links: LinkResolver())
        let node = try #require(try YAMLParser.parse("v: \(value)", file: "t.yml"))["v"]!
        var field = FieldSpec(name: "v", type: .date, location: SourceLocation(file: "s.yml"))
        field.format = format
        return try DateTransformer.date.transform(node, field, context)
    }

    static let months = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"]

    @Test func readsAndPrintsEveryDayAsPythonCountsIt() throws {
        let utc = try #require(TimeZone(identifier: "UTC"))
        for (text, day, weekday) in Self.days {
            let midnight = Date(timeIntervalSince1970: Double(day * 86_400))
            #expect(DateParsing.parse(text, timeZone: utc) == midnight, "\(text)")
            #expect(FeedWriter.rfc3339(midnight) == text + "T00:00:00Z")
            #expect(FeedWriter.rfc822(midnight).hasPrefix(weekday.prefix(3) + ", "), "\(text)")
            let value = try Self.transform(text, format: "full")
            #expect(value["iso"] == .string(text))
            // `full` in English is "Wednesday, January 1, 1000": the weekday is Python's.
            let parts = text.split(separator: "-").map { Int($0)! }
            #expect(value.text == "\(weekday), \(Self.months[parts[1] - 1]) \(parts[2]), \(parts[0])")
        }
    }

    /// The styles and patterns of the languages Tessera ships, with Latin, Arabic-Indic
    /// (ar-EG) and Persian (fa) digits: the year is the locale's own, padded as the pattern says.
    @Test(arguments: [
        ("en", ["1/1/1000", "Jan 1, 1000", "January 1, 1000", "Wednesday, January 1, 1000", "1 January 1000", "1000"]),
        ("fr", ["01/01/1000", "1 janv. 1000", "1 janvier 1000", "mercredi 1 janvier 1000", "1 janvier 1000", "1000"]),
        ("de", ["1.1.1000", "1. Jan. 1000", "1. Januar 1000", "Mittwoch, 1. Januar 1000", "1 Januar 1000", "1000"]),
        ("ja", ["1000/1/1", "1000年1月1日", "1000年1月1日", "1000年1月1日 水曜日", "1 1月 1000", "1000"]),
        ("ar", ["1‏/1‏/1000", "1 يناير، 1000", "1 يناير، 1000", "الأربعاء، 1 يناير، 1000", "1 يناير 1000", "1000"]),
        ("ar-EG", ["١‏/١‏/١٠٠٠", "١ يناير، ١٠٠٠", "١ يناير، ١٠٠٠", "الأربعاء، ١ يناير، ١٠٠٠", "١ يناير ١٠٠٠", "١٠٠٠"]),
        ("fa", ["۱۰۰۰/۱/۱", "۱ ژانویه ۱۰۰۰", "۱ ژانویهٔ ۱۰۰۰", "چهارشنبه ۱ ژانویهٔ ۱۰۰۰", "۱ ژانویهٔ ۱۰۰۰", "۱۰۰۰"]),
    ])
    func formsOfTheYear1000InEachLanguage(_ language: String, expected: [String]) throws {
        let forms = try ["short", "medium", "long", "full", "d MMMM yyyy", "year"].map { try Self.transform("1000-01-01", format: $0, language: language).text ?? "" }
        #expect(forms == expected)
    }

    @Test func threeDigitYearsArePaddedOnlyWherePatternsSay() throws {
        #expect(try Self.transform("0600-07-04", format: "long").text == "July 4, 600")
        #expect(try Self.transform("0600-07-04", format: "d MMMM yyyy").text == "4 July 0600")
        let fields = try Self.transform("0600-07-04", format: "d MMMM y, EEEE, 'day' D").text
        #expect(fields == "4 July 600, Friday, day 185") // Python: date(600, 7, 4) is a Friday, day 185
        #expect(try Self.transform("0600-07-04", format: "yy").text == "00")
        #expect(try Self.transform("0600-07-04", format: "year", language: "ar-EG").text == "٠٦٠٠")
        let arabic = try Self.transform("0600-07-04", format: "medium", language: "ar-EG").text
        #expect(arabic == "٤ يوليو، ٦٠٠")
    }

    /// Python: `date(999, 12, 31).isocalendar()` is (1000, 1, 2); en_GB numbers weeks as ISO 8601.
    @Test func theYearOfTheWeekIsPutBackToo() throws {
        #expect(try Self.transform("0999-12-31", format: "YYYY-'W'ww-e", language: "en_GB").text == "1000-W01-2")
        #expect(try Self.transform("0999-12-27", format: "YYYY-'W'ww", language: "en_GB").text == "0999-W52")
    }

    /// A time in a zone still on local mean time (Paris, +00:09:21): the pattern shows the local
    /// time, the zone is the instant's, and `iso` is given in UTC (no seconds in ISO offsets).
    @Test func timesAndZonesBefore1601() throws {
        let value = try Self.transform("1000-01-01T09:30:00+01:00", format: "yyyy-MM-dd HH:mm:ss xxxxx", zone: "Europe/Paris")
        #expect(value.text == "1000-01-01 08:39:21 +00:09:21")
        #expect(value["iso"] == .string("1000-01-01T08:30:00Z"))
        // ICU's `g` counts days, not a calendar (the Julian day number, 2440588 on 1970-01-01):
        // 1000-01-01 is 354,285 days before 1970-01-01 (Python, above).
        #expect(try Self.transform("1000-01-01T12:00:00Z", format: "g").text == "2086303")
        let dateOnly = try Self.transform("1000-01-01", format: "long", zone: "Europe/Paris")
        #expect(dateOnly.text == "January 1, 1000")
        #expect(dateOnly["iso"] == .string("1000-01-01"))
    }

    /// Python: (date(1000, 1, 1) - date(2025, 11, 22)).days / 365.25 is -1025.87.
    @Test func relativeDatesCountWholeGregorianYears() throws {
        #expect(try Self.transform("1000-01-01", format: "relative").text == "1,026 years ago")
        #expect(try Self.transform("1000-01-01", format: "relative", language: "ar-EG").text == "قبل ١٬٠٢٦ سنة")
    }
}
