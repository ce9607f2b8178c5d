import Foundation

/// The `format:` of a schema field, checked when the schema loads: a format that is not one of
/// the type's would otherwise render wrong text on every page (a misspelt date style read as an
/// ICU pattern prints garbage).
enum FieldFormat {
    /// Letters that are ICU date fields; any other letter in a pattern is a mistake.
    static let dateFieldLetters = Set("GyYuUrQqMLlwWdDFgEecabBhHKkjJCmsSAzZOvVXx")

    static func check(_ format: String, for type: FieldType, at location: SourceLocation) throws {
        switch type {
        case .date: try checkDate(format, at: location)
        case .number, .percent, .currency:
            guard let digits = Int(format), (0...10).contains(digits) else {
                throw TesseraError(
                    "'\(format)' is not a format for a \(type.rawValue) field", at: location,
                    hint: "a \(type.rawValue) format is a count of fraction digits from 0 to 10, for example `format: 2`")
            }
        case .list:
            guard format == "and" || format == "or" else {
                throw TesseraError(
                    "'\(format)' is not a format for a list field", at: location,
                    hint: (Suggestions.didYouMean(format, in: ["and", "or"]).map { $0 + " " } ?? "") + "a list prints as a phrase with `format: and` or `format: or`")
            }
        default:
            throw TesseraError(
                "a \(type.rawValue) field takes no format", at: location,
                hint: "remove `format:`; dates, numbers, percentages, currencies and lists have formats")
        }
    }

    /// A style name, or an ICU pattern whose letters are all date fields (text in quotes).
    static func checkDate(_ format: String, at location: SourceLocation) throws {
        let styles = DateTransformer.styles + ["year", "timestamp"]
        if styles.contains(format) { return }
        // A lowercase word near a style is a misspelt style, even where its letters are fields.
        if format.allSatisfy({ $0.isLowercase && $0.isLetter }),
           let near = Suggestions.nearest(to: format, in: styles, limit: 1).first,
           Suggestions.editDistance(format, near) <= 2 {
            throw TesseraError("unknown date format '\(format)'", at: location, hint: "did you mean '\(near)'? the styles are \(styles.joined(separator: ", "))")
        }
        var quoted = false
        for character in format {
            if character == "'" { quoted.toggle(); continue }
            guard !quoted, character.isASCII, character.isLetter else { continue }
            guard dateFieldLetters.contains(character) else {
                throw TesseraError(
                    "unknown date format '\(format)': '\(character)' is not a date field", at: location,
                    hint: "use a style (\(styles.joined(separator: ", "))) or an ICU pattern such as `d MMMM yyyy`; put literal words in single quotes")
            }
        }
        if quoted {
            throw TesseraError("unknown date format '\(format)': a quote is not closed", at: location, hint: "close the quoted text with '")
        }
    }
}
