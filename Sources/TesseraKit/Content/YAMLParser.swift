import Foundation
import Yams

/// Parses YAML (and JSON, which YAML reads too) into located `ContentNode`s.
enum YAMLParser {
    /// - Parameters:
    ///   - lineOffset: lines before the document in its file (front matter starts after `---`).
    static func parse(_ text: String, file: String, lineOffset: Int = 0) throws -> ContentNode? {
        // The fast reader bounds its own nesting, far below the limit: what it reads needs no
        // measuring. Anything else is measured before Yams and Tessera recurse through it.
        if let fast = FastYAML.parse(text, file: file, lineOffset: lineOffset) { return fast }
        if let (line, column) = YAMLLimits.firstTooDeep(text) {
            throw TesseraError(
                "YAML nested more than \(YAMLLimits.maxDepth) levels deep", at: SourceLocation(file: file, line: line + lineOffset, column: column),
                hint: "flatten the structure; no page, feed or schema needs this depth")
        }
        return try parseWithYams(text, file: file, lineOffset: lineOffset)
    }

    /// Every document through Yams, for the tests that check `FastYAML` against it.
    static func parseWithYams(_ text: String, file: String, lineOffset: Int = 0) throws -> ContentNode? {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw YAMLDiagnosis.error(for: error, in: text, file: file, lineOffset: lineOffset)
        }
        guard let node else { return nil }
        var budget = YAMLLimits.maxValues(forLength: text.utf8.count)
        return try convert(node, file: file, lineOffset: lineOffset, budget: &budget, source: SourceLines(text))
    }

    /// Parses a document that must be a mapping (site.yml, front matter, schemas); empty means `{}`.
    static func parseMapping(_ text: String, file: String, lineOffset: Int = 0, what: String) throws -> ContentNode {
        let start = SourceLocation(file: file, line: lineOffset + 1)
        guard let node = try parse(text, file: file, lineOffset: lineOffset) else {
            return ContentNode(.map([]), at: start)
        }
        if node.isNull { return ContentNode(.map([]), at: node.location) }
        guard node.entries != nil else {
            throw TesseraError(
                "\(what) must be a mapping of keys to values, found \(node.kindDescription)",
                at: node.location,
                hint: "write it as `key: value` lines")
        }
        return node
    }

    private static func location(_ mark: Mark?, file: String, lineOffset: Int) -> SourceLocation {
        SourceLocation(file: file, line: (mark?.line ?? 1) + lineOffset, column: mark?.column ?? 1)
    }

    /// The document's lines, split only if a block scalar needs them.
    final class SourceLines {
        let text: String
        lazy var lines: [Substring] = text.split(separator: "\n", omittingEmptySubsequences: false)
        init(_ text: String) { self.text = text }
    }

    /// Where a quoted or block scalar's text begins, for errors inside it (Markdown links).
    private static func locateText(of scalar: Node.Scalar, at here: SourceLocation, mark: Mark?, source: SourceLines, into node: inout ContentNode) {
        switch scalar.style {
        case .singleQuoted, .doubleQuoted:
            node.textStart = SourceLocation(file: here.file, line: here.line, column: here.column + 1)
        case .literal, .folded:
            guard let markLine = mark?.line else { return }
            let lines = source.lines
            // The first non-blank line below the indicator holds the text; its indentation is the block's.
            var index = markLine
            while index < lines.count, lines[index].allSatisfy({ $0 == " " }) { index += 1 }
            guard index < lines.count else { return }
            let indent = lines[index].prefix { $0 == " " }.count
            node.textStart = SourceLocation(file: here.file, line: here.line + (index - (markLine - 1)), column: indent + 1)
            node.textIndent = indent + 1
        default:
            break
        }
    }

    private static func convert(_ node: Node, file: String, lineOffset: Int, budget: inout Int, source: SourceLines) throws -> ContentNode {
        let here = location(node.mark, file: file, lineOffset: lineOffset)
        budget -= 1
        guard budget >= 0 else {
            throw TesseraError(
                "this YAML expands to too many values: aliases (*name) repeat a large anchor over and over", at: here,
                hint: "write the values out, or use fewer aliases of large anchors (&name)")
        }
        switch node {
        case .scalar(let scalar):
            // Raw ones were refused with the file; these come from escapes (`"a\0b"`).
            if let control = ControlCharacters.first(in: scalar.string) { throw ControlCharacters.error(control, at: here, escaped: true) }
            var result = ContentNode(scalarValue(scalar, node: node), at: here)
            if scalar.style != .plain { locateText(of: scalar, at: here, mark: node.mark, source: source, into: &result) }
            return result
        case .sequence(let sequence):
            return ContentNode(.list(try sequence.map { try convert($0, file: file, lineOffset: lineOffset, budget: &budget, source: source) }), at: here)
        case .mapping(let mapping):
            var entries: [ContentNode.Entry] = []
            var seen: [String: SourceLocation] = [:]
            for (keyNode, valueNode) in mapping {
                let keyLocation = location(keyNode.mark, file: file, lineOffset: lineOffset)
                guard let key = keyNode.scalar?.string else {
                    throw TesseraError("a mapping key must be plain text", at: keyLocation)
                }
                if let first = seen[key] {
                    throw TesseraError(
                        "duplicate key '\(key)'", at: keyLocation,
                        hint: "'\(key)' is already set at line \(first.line); keep one of them")
                }
                seen[key] = keyLocation
                entries.append(.init(key: key, keyLocation: keyLocation, value: try convert(valueNode, file: file, lineOffset: lineOffset, budget: &budget, source: source)))
            }
            return ContentNode(.map(entries), at: here)
        }
    }

    /// The plain scalars starting with a letter that YAML 1.1 (as Yams reads it) resolves to
    /// booleans or null.
    static let resolvingWords: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "y", "Y", "n", "N",
    ]

    /// Whether a plain scalar is text whatever Yams's tag resolution (regular expressions)
    /// would say. Text that starts with a letter and is not one of YAML's words for booleans and
    /// null resolves to nothing else; and only digits and `+ - . ~ < =` start YAML's numbers,
    /// dates, null, merge and value scalars, so other characters (`/about/`, `(c) 2026`, `$5`)
    /// start text.
    static func isText(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        if first >= 0x80 || (first | 0x20 >= 0x61 && first | 0x20 <= 0x7A) {
            // YAML's words are five letters at most: longer text needs no lookup.
            return text.utf8.count > 5 || !resolvingWords.contains(text)
        }
        return !(first >= 0x30 && first <= 0x39) && !"+-.~<=".utf8.contains(first)
    }

    static func scalarValue(_ scalar: Node.Scalar, node: Node) -> ContentNode.Value {
        // Quoted scalars are always text: `title: "2026"` stays a string.
        if scalar.style == .singleQuoted || scalar.style == .doubleQuoted || scalar.style == .literal || scalar.style == .folded {
            return .string(scalar.string)
        }
        if isText(scalar.string) { return .string(scalar.string) }
        if let value = commonScalar(scalar.string) { return value }
        let tag = Tag.Name(rawValue: node.tag.description)
        // YAML 1.1 reads `16:9` as a base-60 number (969); nobody writing content means that.
        if (tag == .int || tag == .float) && scalar.string.contains(":") { return .string(scalar.string) }
        switch tag {
        case .null: return .null
        case .bool: return node.bool.map(ContentNode.Value.bool) ?? .string(scalar.string)
        case .int: return node.int.map(ContentNode.Value.int) ?? .string(scalar.string)
        case .float: return node.float.map(ContentNode.Value.double) ?? .string(scalar.string)
        case .timestamp: return .timestamp(scalar.string)
        default: return .string(scalar.string)
        }
    }

    /// The shapes most content has, typed without Yams's regular expressions, as Yams types them:
    /// `12`, `-3` (int), `0.75`, `-499.5` (float), `2026-11-01`, `2026-11-01T09:30:00Z` (timestamp).
    /// Nil for anything else (octal `017`, `1_000`, `1e3`, `+4`…), which Yams resolves.
    static func commonScalar(_ text: String) -> ContentNode.Value? {
        var utf8 = text.utf8[...]
        guard let first = utf8.first else { return nil }
        let isDigit = { (byte: UInt8) in byte >= 0x30 && byte <= 0x39 }
        if first == 0x2D { utf8 = utf8.dropFirst() }  // -
        let digits = utf8.prefix(while: isDigit)
        guard !digits.isEmpty, digits.count <= 15 else { return nil }
        let rest = utf8.dropFirst(digits.count)
        // A leading zero is octal (or a float) for YAML 1.1: only `0` itself is taken here.
        if digits.first == 0x30 && (digits.count > 1 || first == 0x2D) { return nil }
        if rest.isEmpty { return Int(text).map(ContentNode.Value.int) }
        if rest.first == 0x2E {  // .
            let fraction = rest.dropFirst()
            guard !fraction.isEmpty, fraction.count <= 15, fraction.allSatisfy(isDigit) else { return nil }
            return Double(text).map(ContentNode.Value.double)
        }
        // dddd-dd-dd, optionally Thh:mm:ss and Z.
        guard first != 0x2D, digits.count == 4 else { return nil }
        let bytes = Array(rest)
        func digitsAt(_ range: Range<Int>) -> Bool { range.upperBound <= bytes.count && bytes[range].allSatisfy(isDigit) }
        guard bytes.count >= 6, bytes[0] == 0x2D, digitsAt(1..<3), bytes[3] == 0x2D, digitsAt(4..<6) else { return nil }
        if bytes.count == 6 { return .timestamp(text) }
        guard bytes.count == 16 || bytes.count == 15, bytes[6] == 0x54, digitsAt(7..<9), bytes[9] == 0x3A, digitsAt(10..<12), bytes[12] == 0x3A, digitsAt(13..<15),
              bytes.count == 15 || bytes[15] == 0x5A else { return nil }
        return .timestamp(text)
    }
}
