import Foundation
import Testing
@testable import TesseraKit

/// Every transformer in every language the localization issue lists, against a reviewed golden
/// table (`Fixtures/transformers-per-language.txt`; `TESSERA_UPDATE_GOLDENS=1` rewrites it).
@Suite struct TransformersPerLanguageTests {
    static let languages = ["en", "fr", "de", "es", "pt", "it", "nl", "ru", "pl", "cs", "ar", "ja", "zh"]
    static let buildDate = DateParsing.parse("2026-11-22T10:00:00Z", timeZone: .gmt)!

    static func transform(_ type: FieldType, _ yaml: String, language: String, format: String? = nil, currency: String? = nil) throws -> String {
        let context = TransformContext(
            locale: Locale(identifier: language), timeZone: TimeZone(identifier: "UTC")!, buildDate: buildDate,
            markdown: MarkdownRenderer(), links: LinkResolver())
        let node = try YAMLParser.parse("v: \(yaml)", file: "t.yml")!["v"]!
        var field = FieldSpec(name: "v", type: type, location: SourceLocation(file: "s.yml"))
        field.format = format
        field.currency = currency
        return try TransformerRegistry.standard[type.rawValue]!.transform(node, field, context).text ?? ""
    }

    static func table(for language: String) throws -> [String] {
        let rows: [(String, FieldType, String, String?, String?)] = [
            ("number", .number, "1234567.891", nil, nil),
            ("number, 1 digit", .number, "0.5", "1", nil),
            ("percent", .percent, "0.42", nil, nil),
            ("currency EUR", .currency, "1234.5", nil, "EUR"),
            ("currency JPY", .currency, "1234", nil, "JPY"),
            ("currency, negative", .currency, "{ amount: -8, currency: USD }", nil, nil),
            ("date short", .date, "2026-11-19T08:00:00Z", "short", nil),
            ("date medium", .date, "2026-11-19T08:00:00Z", "medium", nil),
            ("date long", .date, "2026-11-19T08:00:00Z", "long", nil),
            ("date full", .date, "2026-11-19T08:00:00Z", "full", nil),
            ("date pattern", .date, "2026-11-19T08:00:00Z", "d MMMM yyyy", nil),
            ("3 days ago", .date, "2026-11-19T10:00:00Z", "relative", nil),
            ("2 hours ago", .date, "2026-11-22T08:00:00Z", "relative", nil),
            ("yesterday", .date, "2026-11-21T10:00:00Z", "relative", nil),
            ("in 5 days", .date, "2026-11-27T10:00:00Z", "relative", nil),
            ("list and", .list, "[Swift, Kotlin, Dart]", "and", nil),
            ("list or", .list, "[Swift, Kotlin]", "or", nil),
        ]
        var lines = try rows.map { name, type, value, format, currency in
            "\(language)  \(name): \(try transform(type, value, language: language, format: format, currency: currency))"
        }
        let plurals = PluralRules.forLanguage(language)
        lines.append("\(language)  plural 0 1 2 3 5 11 21 1.5: " + [0, 1, 2, 3, 5, 11, 21, 1.5].map { plurals.category(for: $0).rawValue }.joined(separator: " "))
        return lines
    }

    @Test func everyTransformerInEveryListedLanguage() throws {
        let text = try Self.languages.flatMap(Self.table).joined(separator: "\n") + "\n"
        let golden = Repository.fixture("transformers-per-language.txt")
        if ProcessInfo.processInfo.environment["TESSERA_UPDATE_GOLDENS"] == "1" {
            try Data(text.utf8).write(to: URL(fileURLWithPath: golden))
        }
        let expected = try String(contentsOfFile: golden, encoding: .utf8)
        let actualLines = text.split(separator: "\n"), expectedLines = expected.split(separator: "\n")
        #expect(actualLines.count == expectedLines.count)
        for (actual, wanted) in zip(actualLines, expectedLines) { #expect(actual == wanted) }
    }
}
