import Foundation

/// Splits a Markdown file into its YAML front matter and its body.
struct FrontMatter {
    /// The YAML between the fences, empty when the file has none.
    var yaml: String
    /// Lines before the YAML in the file, to map YAML positions back to the file.
    var yamlLineOffset: Int
    var body: String
    /// 1-based line of the body's first line in the file.
    var bodyLine: Int

    static func split(_ text: String, file: String) throws -> FrontMatter {
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> Substring in
            line.hasSuffix("\r") ? line.dropLast() : line
        }
        if let first = lines.first, first.hasPrefix("\u{FEFF}") { lines[0] = first.dropFirst() }
        guard let first = lines.first, first.trimmingCharacters(in: .whitespaces) == "---" else {
            if lines.first?.trimmingCharacters(in: .whitespaces) == "+++" {
                throw TesseraError(
                    "TOML front matter (+++) is not supported", at: SourceLocation(file: file),
                    hint: "write the front matter in YAML between two '---' lines")
            }
            return FrontMatter(yaml: "", yamlLineOffset: 0, body: text, bodyLine: 1)
        }
        guard let close = lines.indices.dropFirst().first(where: { lines[$0] == "---" || lines[$0] == "..." }) else {
            throw TesseraError(
                "front matter is not closed", at: SourceLocation(file: file, line: 1, column: 1),
                hint: "add a line with '---' after the last front matter key")
        }
        let yaml = lines[1..<close].joined(separator: "\n")
        let body = lines[(close + 1)...].joined(separator: "\n")
        return FrontMatter(yaml: yaml, yamlLineOffset: 1, body: body, bodyLine: close + 2)
    }
}
