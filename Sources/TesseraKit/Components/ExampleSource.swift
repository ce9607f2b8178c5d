import Foundation

/// A schema's `example:` as a page would write it in `sections:`, for the gallery to show under
/// each component: the example's own lines from the schema file (comments and quoting kept), after
/// `- component: CODE`.
enum ExampleSource {
    static func yaml(code: String, example: ContentNode, file: String) -> String {
        if let lines = blockLines(of: example, in: file) {
            return "- component: \(code)\n" + lines.map { $0.isEmpty ? "" : "  " + $0 }.joined(separator: "\n") + "\n"
        }
        // A flow mapping (`example: { … }`) or an unreadable file: written from the values.
        let fields = (example.entries ?? []).map { "\($0.key): \(ComponentCatalog.text(of: $0.value))" }
        return "- { component: \(code)" + fields.map { ", " + $0 }.joined() + " }\n"
    }

    /// The same example placed in a page's Markdown body: the item's mapping in a `component`
    /// fence (`MarkdownComponents`).
    static func fence(ofItem item: String) -> String {
        var lines = item.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        while lines.last?.isEmpty == true { lines.removeLast() }
        let mapping = lines.enumerated().map { index, line in
            index == 0 ? String(line.dropFirst(2)) : (line.hasPrefix("  ") ? String(line.dropFirst(2)) : line)
        }
        return "```\(MarkdownComponents.info)\n" + mapping.joined(separator: "\n") + "\n```\n"
    }

    /// The example's lines, dedented, when it is a block mapping starting on its own line.
    static func blockLines(of example: ContentNode, in file: String) -> [String]? {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return nil }
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { String($0.hasSuffix("\r") ? $0.dropLast() : $0) }
        let first = example.location.line - 1
        guard first >= 0, first < lines.count else { return nil }
        let indent = lines[first].prefix { $0 == " " }.count
        guard indent > 0, !lines[first].trimmingCharacters(in: .whitespaces).hasPrefix("{") else { return nil }
        var block: [String] = []
        for line in lines[first...] {
            let leading = line.prefix { $0 == " " }.count
            if !line.trimmingCharacters(in: .whitespaces).isEmpty && leading < indent { break }
            block.append(line.count >= indent ? String(line.dropFirst(indent)) : "")
        }
        while block.last?.isEmpty == true { block.removeLast() }
        return block.isEmpty ? nil : block
    }
}
