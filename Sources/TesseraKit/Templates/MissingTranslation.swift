import Foundation

/// A `{{#t}}` whose key the language's table could not give, as the render met it.
///
/// A key may be built from values (`{{#t}}goal.status.{{status}}{{/t}}`): it is looked up as
/// rendered, `goal.status.paused`, and the message names that key, since no table can hold the
/// key as written.
struct MissingTranslation {
    /// The key looked up: `goal.status.paused`.
    var key: String
    /// The section's text as written, when it held tags: `goal.status.{{status}}`.
    var written: String?
    /// The translator's error: missing, or plural forms without a count.
    var error: TesseraError
    /// The enum fields the key was built from, with the values they can take.
    var choices: [Choice] = []

    /// An enum field printed inside a built key: `status`, now `paused`, and the keys its other
    /// values build.
    struct Choice: Sendable, Equatable {
        var name: String
        var value: String
        var otherKeys: [String]
    }

    /// What the template writes after `{{#t}}`, to find the tag.
    var tagText: String { written ?? key }

    /// `(built by {{#t}}goal.status.{{status}}{{/t}})` after the key, for a built key.
    var builtBy: String {
        written.map { " (built by {{#t}}\($0){{/t}})" } ?? ""
    }

    /// How to fix a missing key in `table`'s language: add it; for a key built from an enum, the
    /// keys its other values build that the table lacks too, or the pattern that names each key.
    func hint(table: TranslationTable?) -> String? {
        let language = table?.language ?? ""
        let add = "add `\(key): …` to i18n/\(language).yml"
        guard let written else { return error.diagnostics.first?.hint ?? add }
        guard let choice = choices.first else {
            return add + ", and a key for every other value the tags of {{#t}}\(written){{/t}} can print: "
                + "a key built from a value is checked only for the values pages give it"
        }
        let lacking = choice.otherKeys.filter { table?[$0] == nil }
        let flag = "{{#\(choice.name).\(choice.value)}}{{#t}}\(key){{/t}}{{/\(choice.name).\(choice.value)}}"
        return add + (lacking.isEmpty ? "" : ", and for the other values of enum '\(choice.name)': " + lacking.joined(separator: ", "))
            + "; or name each value's key with the enum's flags: " + flag
    }
}
