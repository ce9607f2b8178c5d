import Foundation

/// What a code fence's info string asks for: its language, then options, Hugo's way or
/// Astro's, with or without braces:
///
/// ````markdown
/// ```swift {linenos=true hl_lines=[2,"4-5"] linenostart=10 title="Sources/App.swift"}
/// ```ts title="client.ts" {3,6-7}
/// ```diff
/// ````
///
/// A word it does not know, or a value it cannot read, is a warning (`problems`) and is left out.
struct CodeFenceInfo: Equatable {
    /// The first word, as written; nil for a fence without one.
    var language: String?
    var lineNumbers = false
    var firstLineNumber = 1
    /// Lines to mark, counted from the block's first line (1), whatever `firstLineNumber` is.
    var markedLines: Set<Int> = []
    var title: String?
    var problems: [Problem] = []

    struct Problem: Equatable {
        var message: String
        var hint: String
        /// Where in the info string the problem starts (in characters).
        var offset: Int
    }

    /// Names that mean "no highlighting": the block is plain, and no warning says otherwise.
    static let plainNames: Set<String> = ["text", "txt", "plain", "plaintext", "none", "nohighlight", "output"]

    /// Names people write that Pygments spells another way.
    static let aliases: [String: String] = [
        "mustache": "handlebars", "hbs": "handlebars", "kt": "kotlin", "kts": "kotlin", "proto": "protobuf",
        "tf": "terraform", "ps": "powershell", "pwsh": "powershell", "jsonc": "json", "shellsession": "console",
        "mjs": "javascript", "cjs": "javascript", "vue": "html", "svelte": "html",
    ]

    static let options = ["linenos", "hl_lines", "linenostart", "title"]

    /// The name the engine is asked for: lowercased, through `aliases`; nil for a plain block
    /// or a word that cannot be a language's name (`<script>`, a path).
    var engineLanguage: String? {
        guard let language else { return nil }
        let lowered = language.lowercased()
        guard !Self.plainNames.contains(lowered), Self.isPlausibleLanguage(lowered) else { return nil }
        return Self.aliases[lowered] ?? lowered
    }

    /// Letters, digits and `+ # . _ -`, at most 40 of them: what language names are made of.
    static func isPlausibleLanguage(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.count <= 40 && name.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x61...0x7A).contains(byte) || (0x41...0x5A).contains(byte)
                || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    init(_ info: String) {
        let characters = Array(info)
        var index = 0
        func skipSpace() { while index < characters.count, characters[index] == " " || characters[index] == "\t" || characters[index] == "," { index += 1 } }
        skipSpace()
        let languageStart = index
        while index < characters.count, characters[index] != " ", characters[index] != "\t", characters[index] != "{", characters[index] != "," { index += 1 }
        if index > languageStart { language = String(characters[languageStart..<index]) }
        if let language, !Self.isPlausibleLanguage(language) {
            problems.append(Problem(
                message: "`\(language.prefix(40))` is not a language name; the block is shown as plain text",
                hint: "write the language first, as in ```swift; options follow it", offset: languageStart))
        }
        while index < characters.count {
            skipSpace()
            guard index < characters.count else { break }
            if characters[index] == "{" || characters[index] == "}" {
                index += 1
                continue
            }
            let start = index
            // A bare line or range (`{3,6-7}`): lines to mark.
            if characters[index].isNumber {
                while index < characters.count, characters[index].isNumber || characters[index] == "-" { index += 1 }
                mark(String(characters[start..<index]), at: start)
                continue
            }
            while index < characters.count, characters[index].isLetter || characters[index].isNumber || characters[index] == "_" || characters[index] == "-" { index += 1 }
            let key = String(characters[start..<index])
            var value: String?
            if index < characters.count, characters[index] == "=" {
                index += 1
                value = readValue(characters, &index)
            }
            if key.isEmpty {
                // Something that is no option at all: skipped to the next space.
                while index < characters.count, characters[index] != " ", characters[index] != "\t" { index += 1 }
                problems.append(Problem(
                    message: "`\(String(characters[start..<index]).prefix(40))` in the code fence is not an option",
                    hint: "options are written key=value: \(Self.options.joined(separator: ", "))", offset: start))
                continue
            }
            set(key, value, at: start)
        }
    }

    /// A quoted string, a bracketed list, or a word.
    private func readValue(_ characters: [Character], _ index: inout Int) -> String {
        guard index < characters.count else { return "" }
        let open = characters[index]
        if open == "\"" || open == "'" {
            index += 1
            let start = index
            while index < characters.count, characters[index] != open { index += 1 }
            defer { index = min(index + 1, characters.count) }
            return String(characters[start..<index])
        }
        if open == "[" {
            let start = index + 1
            while index < characters.count, characters[index] != "]" { index += 1 }
            defer { index = min(index + 1, characters.count) }
            return String(characters[start..<index])
        }
        let start = index
        while index < characters.count, characters[index] != " ", characters[index] != "\t", characters[index] != ",", characters[index] != "}" { index += 1 }
        return String(characters[start..<index])
    }

    private mutating func set(_ key: String, _ value: String?, at offset: Int) {
        switch key.lowercased() {
        case "linenos", "linenumbers", "showlinenumbers":
            switch (value ?? "true").lowercased() {
            case "true", "table", "inline", "yes", "1", "": lineNumbers = true
            case "false", "no", "0": lineNumbers = false
            default:
                problems.append(Problem(message: "linenos=\(value ?? "") is not true or false", hint: "write linenos=true, or linenos alone", offset: offset))
            }
        case "linenostart", "start", "startlinenumber":
            if let number = value.flatMap({ Int($0) }), number >= 0, number < 1_000_000_000 {
                firstLineNumber = number
                lineNumbers = true
            } else {
                problems.append(Problem(message: "\(key)=\(value ?? "") is not a line number", hint: "write linenostart=10", offset: offset))
            }
        case "hl_lines", "hl-lines", "mark", "highlight":
            mark(value ?? "", at: offset)
        case "title", "filename", "file":
            if let value, !value.isEmpty { title = value } else {
                problems.append(Problem(message: "\(key) has no value", hint: "write title=\"main.swift\"", offset: offset))
            }
        default:
            problems.append(Problem(
                message: "unknown option `\(key.prefix(40))` in the code fence",
                hint: Suggestions.didYouMean(key, in: Self.options) ?? "the options are \(Self.options.joined(separator: ", "))", offset: offset))
        }
    }

    /// Adds `2`, `4-6`, `"2 4-6"` or `2,"4-6"`: lines and ranges apart by spaces or commas.
    private mutating func mark(_ list: String, at offset: Int) {
        let parts = list.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "\"" || $0 == "'" })
        if parts.isEmpty {
            problems.append(Problem(message: "no lines to highlight", hint: "write hl_lines=[2,\"4-6\"] or {2,4-6}", offset: offset))
        }
        for part in parts {
            let ends = part.split(separator: "-", omittingEmptySubsequences: false)
            guard ends.count <= 2, let first = Int(ends[0]), let last = Int(ends[ends.count - 1]), first >= 1, first <= last, last - first < 100_000 else {
                problems.append(Problem(
                    message: "`\(part.prefix(40))` is not a line or a range of lines", hint: "lines count from 1; a range is written 4-6", offset: offset))
                continue
            }
            markedLines.formUnion(first...last)
        }
    }
}
