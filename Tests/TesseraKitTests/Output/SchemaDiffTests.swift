import Foundation
import Testing
@testable import TesseraKit

/// `schema diff` judges each change of a field by what an app built against the old schema does
/// with the new content: decode it or not, and show the right text or not. One pair of builds
/// holds a component per change: `text-to-markdown` has `f: text` in the old site and
/// `f: markdown` in the new one.
@Suite struct SchemaDiffTests {
    static let types = ["text", "markdown", "inline-markdown", "number", "percent", "currency", "date", "link", "image", "enum", "items"]

    /// Old type (row) to new type (column), in the order of `types`: D fails to decode, W
    /// decodes but shows wrong text, C compatible.
    static let verdicts = [
        "text":            ". D D D D D D D D C D",
        "markdown":        "D . C D D D D D D D D",
        "inline-markdown": "D W . D D D D D D D D",
        "number":          "D D D . W W D D D D D",
        "percent":         "D D D W . W D D D D D",
        "currency":        "D D D D D . D D D D D",
        "date":            "D D D D D D . D D D D",
        "link":            "D D D D D D D . D D D",
        "image":           "D D D D D D D D . D D",
        "enum":            "D D D D D D D D D . D",
        "items":           "D D D D D D D D D D .",
    ]

    static func field(_ type: String) -> String {
        switch type {
        case "enum": "{ type: enum, values: [a, b] }"
        case "items": "{ type: items }"
        default: type
        }
    }

    /// Components beyond the type pairs: name → (old fields, new fields).
    static let others: [String: (String, String)] = [
        "enum-value-added": ("e: { type: enum, values: [a, b] }", "e: { type: enum, values: [a, b, c] }"),
        "enum-value-removed": ("e: { type: enum, values: [a, b] }", "e: { type: enum, values: [a] }"),
        "made-required": ("f: text", "f: { type: text, required: true }"),
        "made-optional": ("f: { type: text, required: true }", "f: text"),
        "field-added": ("f: text", "f: text\n  g: number"),
        "field-removed": ("f: text\n  g: number", "f: text"),
        "format-changed": ("d: { type: date, format: relative }", "d: { type: date, format: long }"),
    ]

    static func site(new: Bool) -> [String: String] {
        var files: [String: String] = [:]
        func component(_ code: String, _ fields: String) {
            files["themes/mini/components/\(code).yml"] = "fields:\n  \(fields)\n"
            files["themes/mini/components/\(code).mustache"] = "x"
        }
        for old in types {
            for newType in types where newType != old {
                component("\(old)-to-\(newType)", "f: " + field(new ? newType : old))
            }
        }
        for (code, fields) in others { component(code, new ? fields.1 : fields.0) }
        return files
    }

    static let diff: Result<SchemaDiff, Error> = Result {
        try SchemaDiff.compare(old: try CodegenTests.schema(site(new: false)), new: try CodegenTests.schema(site(new: true)))
    }

    static func changes(of code: String) throws -> [String] {
        try diff.get().changes.map(\.description).filter { $0.contains("of '\(code)'") || $0.contains("to '\(code)'") }
    }

    @Test func everyPairOfFieldTypesHasItsVerdict() throws {
        for old in Self.types {
            let row = Self.verdicts[old]!.split(separator: " ")
            for (index, new) in Self.types.enumerated() where new != old {
                let changes = try Self.changes(of: "\(old)-to-\(new)")
                let expected = switch row[index] {
                case "D": "breaking: field 'f' of '\(old)-to-\(new)' changed type from \(old) to \(new): an app built for the old schema fails to decode it"
                case "W": "breaking: field 'f' of '\(old)-to-\(new)' changed type from \(old) to \(new): an app built for the old schema decodes it but shows wrong text"
                default: "compatible: field 'f' of '\(old)-to-\(new)' changed type from \(old) to \(new): an app built for the old schema still decodes it and shows it rightly"
                }
                #expect(changes.count == 1 && changes[0].hasPrefix(expected), "\(old) → \(new): \(changes)")
            }
        }
    }

    /// The whole message of each kind of verdict, and of the changes that are not of type.
    @Test(arguments: [
        ("percent-to-number", "breaking: field 'f' of 'percent-to-number' changed type from percent to number: an app built for the old schema decodes it but shows wrong text (it was a percentage such as 27% (value 0.27), and is a number such as 1,280)"),
        ("number-to-currency", "breaking: field 'f' of 'number-to-currency' changed type from number to currency: an app built for the old schema decodes it but shows wrong text (it was a number such as 1,280, and is an amount with its currency such as €12.50)"),
        ("currency-to-number", "breaking: field 'f' of 'currency-to-number' changed type from currency to number: an app built for the old schema fails to decode it (it expects an object with text, value and currency, and gets an object with text and value)"),
        ("text-to-inline-markdown", "breaking: field 'f' of 'text-to-inline-markdown' changed type from text to inline-markdown: an app built for the old schema fails to decode it (it expects a string, and gets an object with html and text)"),
        ("inline-markdown-to-markdown", "breaking: field 'f' of 'inline-markdown-to-markdown' changed type from inline-markdown to markdown: an app built for the old schema decodes it but shows wrong text (it was inline HTML without paragraphs, and is block HTML in paragraphs)"),
        ("markdown-to-inline-markdown", "compatible: field 'f' of 'markdown-to-inline-markdown' changed type from markdown to inline-markdown: an app built for the old schema still decodes it and shows it rightly (inline HTML shows where block HTML did)"),
        ("text-to-enum", "compatible: field 'f' of 'text-to-enum' changed type from text to enum: an app built for the old schema still decodes it and shows it rightly (text, now one of a and b)"),
        ("enum-to-text", "breaking: field 'f' of 'enum-to-text' changed type from enum to text: an app built for the old schema fails to decode it (it expects one of a and b, and gets any text)"),
        ("items-to-text", "breaking: field 'f' of 'items-to-text' changed type from items to text: an app built for the old schema fails to decode it (it expects a list of components, and gets a string)"),
        ("enum-value-added", "compatible: enum value 'c' was added to field 'e' of 'enum-value-added'"),
        ("enum-value-removed", "breaking: enum value 'b' of field 'e' of 'enum-value-removed' was removed"),
        ("made-required", "breaking: field 'f' of 'made-required' was optional and is now required"),
        ("made-optional", "breaking: field 'f' of 'made-optional' was required and is now optional: apps that rely on it may find it missing"),
        ("field-added", "compatible: field 'g' was added to 'field-added'"),
        ("field-removed", "breaking: field 'g' of 'field-removed' was removed"),
        ("format-changed", "compatible: field 'd' of 'format-changed' changed format from relative to long: an app built for the old schema shows the same value, worded by the new format"),
    ])
    func theMessageSaysWhatAnAppBuiltForTheOldSchemaDoes(_ code: String, _ expected: String) throws {
        #expect(try Self.changes(of: code) == [expected])
    }

    /// A schema written before fields carried their declared type is compared by JSON shape, as
    /// before: a percent and a number are then the same.
    @Test func aSchemaWithoutDeclaredTypesIsComparedByShape() throws {
        func withoutTypes(_ value: Any) -> Any {
            if let object = value as? [String: Any] { return object.filter { $0.key != "x-tessera-type" }.mapValues(withoutTypes) }
            if let array = value as? [Any] { return array.map(withoutTypes) }
            return value
        }
        let new = try JSONSerialization.jsonObject(with: try CodegenTests.schema(Self.site(new: true)))
        let untyped = try JSONSerialization.data(withJSONObject: withoutTypes(new))
        #expect(!String(decoding: untyped, as: UTF8.self).contains("x-tessera-type"))
        let diff = try SchemaDiff.compare(old: untyped, new: try CodegenTests.schema(Self.site(new: false)))
        let messages = diff.changes.map(\.description)
        #expect(!messages.contains { $0.contains("'number-to-percent'") }, "\(messages.filter { $0.contains("percent") })")
        #expect(messages.contains("breaking: field 'f' of 'text-to-number' changed type from number to text: an app built for the old schema fails to decode it (it expects an object with text and value, and gets a string)"))
    }
}
