import Foundation
import Testing
@testable import TesseraKit

/// Each transformer, through its registry name, on inline input.
@Suite struct TransformerTests {
    static let buildDate = Date(timeIntervalSince1970: 1_763_802_000) // 2025-11-22T09:00:00Z

    func context(_ language: String = "en", links: LinkResolver = LinkResolver(), timeZone: String = "UTC") -> TransformContext {
        TransformContext(
            locale: Locale(identifier: language), timeZone: TimeZone(identifier: timeZone)!, buildDate: Self.buildDate,
            markdown: MarkdownRenderer(), links: links, defaultCurrency: "USD", pageURL: "/blog/post/")
    }

    func transform(_ type: FieldType, _ yaml: String, format: String? = nil, values: [String] = [], currency: String? = nil, context: TransformContext? = nil) throws -> ViewValue {
        let node = try #require(try YAMLParser.parse("v: \(yaml)", file: "t.yml"))["v"]!
        var field = FieldSpec(name: "v", type: type, location: SourceLocation(file: "s.yml"))
        field.format = format
        field.values = values
        field.currency = currency
        let transformer = try #require(TransformerRegistry.standard[type.rawValue])
        return try transformer.transform(node, field, context ?? self.context())
    }

    /// A field's transformer is found by its type's place, not its name: the same transformer,
    /// for every type, in the standard registry and after one is registered over another.
    @Test func aTypesTransformerIsTheOneOfItsName() throws {
        #expect(FieldType.allCases.indices.elementsEqual(FieldType.allCases.map(\.ordinal)))
        var registry = TransformerRegistry.standard
        for type in FieldType.allCases {
            #expect(registry[type]?.name == registry[type.rawValue]?.name, "\(type)")
        }
        #expect(registry[.items] == nil)
        registry.register(Transformer("date") { _, _, _ in .string("replaced") })
        let node = ContentNode(.string("2026-01-02"), at: SourceLocation(file: "t.yml"))
        let field = FieldSpec(name: "v", type: .date, location: SourceLocation(file: "s.yml"))
        #expect(try registry[.date]?.transform(node, field, context()) == .string("replaced"))
        #expect(try TransformerRegistry.standard[.date]?.transform(node, field, context()) != .string("replaced"))
    }

    @Test func text() throws {
        #expect(try transform(.text, "Hello <b>") == .string("Hello <b>"))
        #expect(try transform(.text, "42") == .string("42"))
    }

    @Test func markdownBlockAndInline() throws {
        #expect(try transform(.markdown, "\"Some *text*\"") == .string("<p>Some <em>text</em></p>\n"))
        #expect(try transform(.inlineMarkdown, "\"Two **left**\"") == .string("Two <strong>left</strong>"))
        #expect(throws: TesseraError.self) { try transform(.inlineMarkdown, "\"a\\n\\nb\"") }
    }

    @Test func numberInTheLocale() throws {
        #expect(try transform(.number, "1234.5").text == "1,234.5")
        #expect(try transform(.number, "1234.5", context: context("de")).text == "1.234,5")
        #expect(try transform(.number, "3", format: "2").text == "3.00")
        #expect(try transform(.number, "1234.5")["value"] == .number(1234.5))
    }

    @Test func percentFromFractionOrPercentSign() throws {
        #expect(try transform(.percent, "0.42").text == "42%")
        #expect(try transform(.percent, "\"42%\"").text == "42%")
        #expect(try transform(.percent, "0.42", context: context("fr")).text == "42\u{00A0}%")
        #expect(try transform(.percent, "0.42")["percent"] == .number(42))
    }

    @Test func currencyWithFieldSiteOrInlineCode() throws {
        #expect(try transform(.currency, "12.5").text == "$12.50")
        #expect(try transform(.currency, "12.5", currency: "EUR").text == "€12.50")
        let inline = try transform(.currency, "{ amount: -8, currency: gbp }")
        #expect(inline.text == "-£8.00")
        #expect(inline["negative"] == .bool(true))
        #expect(inline["absolute"] == .string("£8.00"))
        #expect(throws: TesseraError.self) { try transform(.currency, "{ amount: 1, currency: EURO }") }
    }

    @Test func dateFormatsAndRelative() throws {
        let date = try transform(.date, "2025-11-19T08:00:00Z", format: "relative")
        #expect(date.text == "3 days ago")
        #expect(date["iso"] == .string("2025-11-19T08:00:00Z"))
        #expect(try transform(.date, "2025-11-19", format: "long").text == "November 19, 2025")
        #expect(try transform(.date, "2025-11-19", format: "d MMMM yyyy", context: context("fr")).text == "19 novembre 2025")
        #expect(try transform(.date, "2025-11-19", format: "relative", context: context("de")).text == "vor 3 Tagen")
        #expect(try transform(.date, "2025-11-19")["iso"] == .string("2025-11-19"))
    }

    @Test func dateOnlyValuesAreMidnightInTheSiteTimeZone() throws {
        let paris = context(timeZone: "Europe/Paris")
        #expect(try transform(.date, "2025-11-19", format: "iso", context: paris).text == "2025-11-19")
        #expect(try transform(.date, "2025-11-19T23:30:00Z", format: "yyyy-MM-dd HH:mm", context: paris).text == "2025-11-20 00:30")
    }

    @Test func enumExposesAFlagPerValue() throws {
        let tone = try transform(.enum, "warning", values: ["info", "warning"])
        #expect(tone.text == "warning")
        #expect(tone["warning"] == .bool(true))
        #expect(tone["info"] == .bool(false))
    }

    @Test func linksResolveAgainstTheSite() throws {
        let links = LinkResolver(
            basePath: "/docs/", pageURLs: ["/", "/blog/post/", "/about/"],
            pageReferences: ["about.md": "/about/"], files: ["img/a.png"])
        let c = context(links: links)
        #expect(try transform(.link, "/about/", context: c).text == "/docs/about/")
        #expect(try transform(.link, "/about", context: c).text == "/docs/about/")
        #expect(try transform(.link, "\"@/about.md#team\"", context: c).text == "/docs/about/#team")
        #expect(try transform(.link, "../../about/", context: c).text == "/docs/about/")
        #expect(try transform(.link, "https://swift.org", context: c)["external"] == .bool(true))
        #expect(try transform(.link, "mailto:a@b.c", context: c).text == "mailto:a@b.c")
        #expect(try transform(.image, "/img/a.png", context: c)["src"] == .string("/docs/img/a.png"))
        #expect(try transform(.image, "{ src: /img/a.png, alt: A cat }", context: c)["alt"] == .string("A cat"))
        #expect(throws: TesseraError.self) { try transform(.link, "/nope/", context: c) }
        #expect(throws: TesseraError.self) { try transform(.image, "/about/", context: c) }
    }
}

@Suite struct MarkdownRendererTests {
    @Test func smartPunctuationByDefault() throws {
        #expect(try MarkdownRenderer().html("\"Hi\" -- it's...") == "<p>“Hi” – it’s…</p>\n")
        #expect(try MarkdownRenderer(options: .init(smart: false)).html("\"Hi\"") == "<p>&quot;Hi&quot;</p>\n")
    }

    @Test func rawHTMLOmittedUnlessUnsafe() throws {
        #expect(try MarkdownRenderer().html("<script>x()</script>") == "<!-- raw HTML omitted -->\n")
        #expect(try MarkdownRenderer().html("a <b>b</b>") == "<p>a <!-- raw HTML omitted -->b<!-- raw HTML omitted --></p>\n")
        #expect(try MarkdownRenderer(options: .init(unsafe: true)).html("a <b>b</b>") == "<p>a <b>b</b></p>\n")
    }
}

@Suite struct DateParsingTests {
    let utc = TimeZone(identifier: "UTC")!

    @Test(arguments: [
        ("2025-11-01", 1_761_955_200.0),
        ("2025-11-01T09:30:00Z", 1_761_989_400.0),
        ("2025-11-01T09:30Z", 1_761_989_400.0),
        ("2025-11-01 09:30:00", 1_761_989_400.0),
        ("2025-11-01T10:30:00+01:00", 1_761_989_400.0),
        ("2025-11-01T09:30:00.500Z", 1_761_989_400.5),
    ])
    func parses(_ text: String, epoch: Double) throws {
        let date = try #require(DateParsing.parse(text, timeZone: utc))
        #expect(abs(date.timeIntervalSince1970 - epoch) < 0.001)
    }

    @Test(arguments: ["2026-13-01", "2026-02-30", "2025-02-29", "1900-02-29", "next week", "2026-11-01T25:00", "2026/11/01", "2026-11-01T09:30:00+0x"])
    func rejects(_ text: String) {
        #expect(DateParsing.parse(text, timeZone: utc) == nil)
    }

    /// Fixed offsets are computed without a calendar: every day of 1890–2110, and times with
    /// offsets, read as Foundation's calendar reads them.
    @Test func arithmeticMatchesTheCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = utc
        let first = Int(try #require(calendar.date(from: DateComponents(year: 1890, month: 1, day: 1))).timeIntervalSince1970 / 86400)
        let last = Int(try #require(calendar.date(from: DateComponents(year: 2110, month: 12, day: 31))).timeIntervalSince1970 / 86400)
        for number in first...last {
            let day = Date(timeIntervalSince1970: Double(number) * 86400)
            let c = calendar.dateComponents([.year, .month, .day], from: day)
            let text = String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
            if DateParsing.parse(text, timeZone: utc) != day { Issue.record("\(text)"); break }
        }
        #expect(DateParsing.parse("2000-02-29", timeZone: utc) != nil && DateParsing.parse("2400-02-29", timeZone: utc) != nil)
        #expect(DateParsing.parse("2100-02-29", timeZone: utc) == nil)
        let offset = try #require(TimeZone(secondsFromGMT: 19800))
        var local = Calendar(identifier: .gregorian)
        local.timeZone = offset
        let expected = local.date(from: DateComponents(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 58))
        #expect(DateParsing.parse("1999-12-31T23:59:58", timeZone: offset) == expected)
        #expect(DateParsing.parse("1999-12-31T18:29:58Z", timeZone: utc) == expected)
        // A zone with daylight saving time goes through the calendar.
        let paris = try #require(TimeZone(identifier: "Europe/Paris"))
        #expect(DateParsing.parse("2026-07-01T12:00:00", timeZone: paris) == DateParsing.parse("2026-07-01T10:00:00Z", timeZone: utc))
        #expect(DateParsing.parse("2026-12-01T12:00:00", timeZone: paris) == DateParsing.parse("2026-12-01T11:00:00Z", timeZone: utc))
    }

    /// The ISO forms by arithmetic are the formatter's, with and without the time, in zones
    /// with daylight saving time, half and three-quarter hours, west of Greenwich, and at
    /// fractions of a second, every few days from 1601 (where the formatter's calendar is
    /// Gregorian) to 2400. A time at an offset of seconds (a zone's local mean time, Paris's
    /// +00:09:21 until 1911) is given in UTC, as `<time datetime>` has no seconds in offsets.
    @Test func isoFormsByArithmeticMatchTheFormatter() throws {
        let utcFormatter = ISO8601DateFormatter()
        utcFormatter.timeZone = utc
        utcFormatter.formatOptions = [.withInternetDateTime]
        let zones = ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata", "Asia/Kathmandu", "Pacific/Chatham", "America/St_Johns", "Australia/Lord_Howe"]
        for identifier in zones {
            let zone = try #require(TimeZone(identifier: identifier))
            for withTime in [true, false] {
                let formatter = ISO8601DateFormatter()
                formatter.timeZone = zone
                formatter.formatOptions = withTime ? [.withInternetDateTime] : [.withFullDate]
                var seconds = -11_644_473_600.0
                while seconds < 13_569_465_600 {
                    let date = Date(timeIntervalSince1970: seconds)
                    let offset = zone.secondsFromGMT(for: date)
                    let text = CivilTime.iso(date, offset: offset, withTime: withTime)
                    let expected = withTime && offset % 60 != 0 ? utcFormatter.string(from: date) : formatter.string(from: date)
                    if text != expected { Issue.record("\(identifier) \(seconds): \(text ?? "nil") ≠ \(expected)"); break }
                    seconds += 3 * 86_400 + 3_659.75
                }
            }
        }
        #expect(CivilTime.iso(Date(timeIntervalSince1970: -3_786_825_600), offset: 561, withTime: true) == "1850-01-01T00:00:00Z")
        #expect(CivilTime.iso(Date(timeIntervalSince1970: -3_786_825_600), offset: 561, withTime: false) == "1850-01-01")
        #expect(CivilTime.iso(Date(timeIntervalSince1970: -62_135_596_800), offset: 0, withTime: true) == "0001-01-01T00:00:00Z")
        #expect(CivilTime.iso(Date(timeIntervalSince1970: -62_135_596_801), offset: 0, withTime: true) == nil)
        #expect(CivilTime.iso(Date(timeIntervalSince1970: 253_402_300_800), offset: 0, withTime: true) == nil)
        #expect(FeedWriter.rfc3339(Date(timeIntervalSince1970: 1_793_957_400.9)) == "2026-11-06T09:30:00Z", "fractions of a second are dropped")
    }
}
