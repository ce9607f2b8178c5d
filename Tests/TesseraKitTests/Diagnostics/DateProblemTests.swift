import Foundation
import Testing
@testable import TesseraKit

/// Each date value Tessera refuses, with the exact reason (after "is not a date: ") and hint; the
/// site-level cases in `ErrorMessageTests` show them located at the value.
@Suite struct DateProblemTests {
    struct Case: CustomTestStringConvertible, Sendable {
        let text: String
        var zone = "UTC"
        let reason: String?
        let hint: String
        var testDescription: String { text + " in " + zone }
    }

    static let range = "dates run from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z, in the Gregorian calendar"
    static let offsetHint = "write an offset from -18:00 to +18:00, as in 2026-11-01T09:30:00+01:00"

    static let cases: [Case] = [
        Case(text: "next tuesday", reason: nil, hint: "write an ISO 8601 date such as 2026-11-01 or 2026-11-01T09:30:00Z"),
        Case(text: "2026/11/01", reason: nil, hint: "write an ISO 8601 date such as 2026-11-01 or 2026-11-01T09:30:00Z"),
        Case(text: "2026-11-31", reason: "November 2026 has 30 days", hint: "write a day from 01 to 30, as in 2026-11-30"),
        Case(text: "2027-02-29", reason: "February 2027 has 28 days", hint: "write a day from 01 to 28, as in 2027-02-28"),
        Case(text: "1900-02-29", reason: "February 1900 has 28 days", hint: "write a day from 01 to 28, as in 1900-02-28"),
        Case(text: "2026-02-00", reason: "day 00 is out of range (01-28)", hint: "write a day from 01 to 28, as in 2026-02-01"),
        Case(text: "2026-13-01", reason: "month 13 is out of range (01-12)", hint: "write a month from 01 to 12, as in 2026-12-01"),
        Case(text: "2026-00-10", reason: "month 00 is out of range (01-12)", hint: "write a month from 01 to 12, as in 2026-01-10"),
        Case(text: "0000-06-15", reason: "year 0000 is out of range (0001-9999)", hint: "write a year from 0001 to 9999, as in 0001-06-15"),
        Case(text: "10000-01-01", reason: "year 10000 is out of range (0001-9999)", hint: "write a year from 0001 to 9999, as in 9999-12-31"),
        Case(text: "-0001-01-01", reason: "year -0001 is out of range (0001-9999)", hint: "write a year from 0001 to 9999, as in 0001-01-01"),
        Case(text: "2026-11-01T24:00", reason: "hour 24 is out of range (00-23)", hint: "the midnight that ends the day is 00:00 of the next, as in 2026-11-02T00:00"),
        Case(text: "2026-12-31T24:00:00Z", reason: "hour 24 is out of range (00-23)", hint: "the midnight that ends the day is 00:00 of the next, as in 2027-01-01T00:00:00Z"),
        Case(text: "2026-11-01T25:00Z", reason: "hour 25 is out of range (00-23)", hint: "write an hour from 00 to 23, as in 2026-11-01T23:00Z"),
        Case(text: "2026-11-01T09:60", reason: "minute 60 is out of range (00-59)", hint: "write a minute from 00 to 59, as in 2026-11-01T09:59"),
        Case(text: "9999-12-31T23:59:60Z", reason: "second 60 (a leap second) is out of range (00-59)", hint: "write the second before, as in 9999-12-31T23:59:59Z"),
        Case(text: "2016-12-31T23:59:60+00:00", reason: "second 60 (a leap second) is out of range (00-59)", hint: "write the second before, as in 2016-12-31T23:59:59+00:00"),
        Case(text: "2026-06-30T23:59:61Z", reason: "second 61 is out of range (00-59)", hint: "write a second from 00 to 59, as in 2026-06-30T23:59:59Z"),
        Case(text: "2026-11-01T09:30:00+25:00", reason: "the offset +25:00 is out of range (-18:00 to +18:00)", hint: offsetHint),
        Case(text: "2026-11-01T09:30:00-18:30", reason: "the offset -18:30 is out of range (-18:00 to +18:00)", hint: offsetHint),
        Case(text: "2026-11-01T09:30:00+01:75", reason: "the minutes of the offset +01:75 are out of range (00-59)", hint: offsetHint),
        Case(text: "2026-11-01T09:30:00+1", reason: "the offset '+1' is not Z, +hh:mm or -hh:mm", hint: "write Z for UTC or an offset such as +01:00 or -05:00, as in 2026-11-01T09:30:00+01:00"),
        Case(text: "2026-11-01T09:30:00+01:", reason: "the offset '+01:' is not Z, +hh:mm or -hh:mm", hint: "write Z for UTC or an offset such as +01:00 or -05:00, as in 2026-11-01T09:30:00+01:00"),
        // The instant must be in range in UTC: an offset can move it out.
        Case(text: "0001-01-01T00:00:00+18:00", reason: "it is 0000-12-31T06:00:00Z in UTC, before 0001-01-01T00:00:00Z", hint: range),
        Case(text: "9999-12-31T23:59:59-00:01", reason: "it is 10000-01-01T00:00:59Z in UTC, after 9999-12-31T23:59:59Z", hint: range),
        // So can the site's time zone (Paris's local mean time was +00:09:21), for a value without offset...
        Case(text: "0001-01-01", zone: "Europe/Paris", reason: "read in the time zone Europe/Paris, it is 0000-12-31T23:50:39Z in UTC, before 0001-01-01T00:00:00Z", hint: range),
        // ...and a value in range in UTC must be in range where pages show it.
        Case(text: "9999-12-31T23:00:00Z", zone: "Asia/Tokyo", reason: "in the site's time zone Asia/Tokyo it is 10000-01-01T08:00:00, after the year 9999", hint: range + ", and pages show them in the site's time zone"),
    ]

    @Test(arguments: cases)
    func refusesWithTheReasonAndAValidForm(_ testCase: Case) throws {
        let zone = try #require(TimeZone(identifier: testCase.zone))
        let result = DateParsing.read(testCase.text, timeZone: zone)
        guard case .failure(let problem) = result else { Issue.record("\(testCase.text) was read as \(result)"); return }
        #expect(problem == DateProblem(reason: testCase.reason, hint: testCase.hint))
    }

    /// The ends of the range, and offsets that keep the instant in it.
    static let ends: [(String, String, Double)] = [
        ("0001-01-01T00:00:00Z", "UTC", -62_135_596_800.0),
        ("0001-01-01", "UTC", -62_135_596_800.0),
        ("0001-01-02T00:00:00+18:00", "UTC", -62_135_596_800.0 + 6 * 3600), // 0001-01-01T06:00:00Z
        ("0001-01-01", "America/New_York", -62_135_596_800 + 17_762), // local mean time -04:56:02
        ("0001-01-01T00:00:00Z", "Europe/Paris", -62_135_596_800), // shown 0001-01-01T00:09:21 there
        ("9999-12-31T23:59:59Z", "UTC", 253_402_300_799),
        ("9999-12-31T23:59:59.5Z", "UTC", 253_402_300_799.5),
        ("9999-12-31", "Asia/Tokyo", 253_402_300_800 - 86_400 - 32_400), // Japan Standard Time, +09:00
    ]

    @Test(arguments: ends)
    func readsTheEndsOfTheRange(_ text: String, zone: String, epoch: Double) throws {
        let timeZone = try #require(TimeZone(identifier: zone))
        let date = try #require(DateParsing.parse(text, timeZone: timeZone))
        #expect(date.timeIntervalSince1970 == epoch)
    }
}
