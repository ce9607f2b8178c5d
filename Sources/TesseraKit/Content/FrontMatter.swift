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

    /// Where a file's front matter is, found from its bytes: by `split`, and by the build cache,
    /// which must see exactly the front matter the build reads.
    enum Location {
        /// No `---` opening line: all body.
        case none
        /// A `+++` opening line (TOML, refused).
        case toml
        /// `---` never closed.
        case unclosed
        /// The YAML lines (without line ends) and where the body starts.
        case found(yaml: [Range<Int>], bodyStart: Int)
    }

    /// Only the lines up to the closing fence are looked at: the body (most of the file) is left
    /// alone, so a long post costs one scan of its front matter, not a String per line.
    static func locate(_ bytes: UnsafeBufferPointer<UInt8>) -> Location {
        var start = 0
        /// The next line's byte range without its "\n" (and without a "\r" before it).
        func nextLine() -> Range<Int>? {
            guard start <= bytes.count else { return nil }
            var end = start
            while end < bytes.count, bytes[end] != UInt8(ascii: "\n") { end += 1 }
            let range = start..<(end > start && bytes[end - 1] == UInt8(ascii: "\r") ? end - 1 : end)
            start = end + 1
            return range
        }
        func isFence(_ range: Range<Int>) -> Bool {
            guard range.count == 3 else { return false }
            let a = bytes[range.lowerBound], b = bytes[range.lowerBound + 1], c = bytes[range.lowerBound + 2]
            return a == b && b == c && (a == UInt8(ascii: "-") || a == UInt8(ascii: "."))
        }
        guard let firstRange = nextLine() else { return .none }
        var first = String(decoding: UnsafeBufferPointer(rebasing: bytes[firstRange]), as: UTF8.self)
        if first.hasPrefix("\u{FEFF}") { first.removeFirst() }
        let opening = first == "---" ? first : first.trimmingCharacters(in: .whitespaces)
        guard opening == "---" else { return opening == "+++" ? .toml : .none }
        var lines: [Range<Int>] = []
        while let line = nextLine() {
            // The opening fence is "---" only; the closing one may also be YAML's "...".
            if isFence(line) { return .found(yaml: lines, bodyStart: min(start, bytes.count)) }
            lines.append(line)
        }
        return .unclosed
    }

    static func split(_ text: String, file: String) throws -> FrontMatter {
        var utf8 = text
        return try utf8.withUTF8 { bytes in
            switch locate(bytes) {
            case .none:
                return FrontMatter(yaml: "", yamlLineOffset: 0, body: text, bodyLine: 1)
            case .toml:
                throw TesseraError(
                    "TOML front matter (+++) is not supported", at: SourceLocation(file: file),
                    hint: "write the front matter in YAML between two '---' lines")
            case .unclosed:
                throw TesseraError(
                    "front matter is not closed", at: SourceLocation(file: file, line: 1, column: 1),
                    hint: "add a line with '---' after the last front matter key")
            case let .found(lines, bodyStart):
                // Lines one after the other, each ended by a bare "\n", are one slice of the text.
                let contiguous = zip(lines, lines.dropFirst()).allSatisfy { $1.lowerBound == $0.upperBound + 1 }
                let yaml = contiguous
                    ? lines.first.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0.lowerBound..<lines[lines.count - 1].upperBound]), as: UTF8.self) } ?? ""
                    : lines.map { String(decoding: UnsafeBufferPointer(rebasing: bytes[$0]), as: UTF8.self) }.joined(separator: "\n")
                let rest = UnsafeBufferPointer(rebasing: bytes[bodyStart...])
                var body = String(decoding: rest, as: UTF8.self)
                // Line ends are "\n" in the body, as in the front matter.
                if FileTree.containsByte(UInt8(ascii: "\r"), UnsafeRawBufferPointer(rest)) {
                    body = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.joined(separator: "\n")
                }
                return FrontMatter(yaml: yaml, yamlLineOffset: 1, body: body, bodyLine: lines.count + 3)
            }
        }
    }
}
