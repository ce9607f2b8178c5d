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
        // Only the lines up to the closing fence are looked at: the body (most of the file) is
        // taken whole, so a long post costs one scan of its front matter, not a String per line.
        var utf8 = text
        return try utf8.withUTF8 { bytes in
            var lines: [Range<Int>] = []
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
            func string(_ range: Range<Int>) -> String { String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self) }
            func isFence(_ range: Range<Int>) -> Bool {
                guard range.count == 3 else { return false }
                let a = bytes[range.lowerBound], b = bytes[range.lowerBound + 1], c = bytes[range.lowerBound + 2]
                return a == b && b == c && (a == UInt8(ascii: "-") || a == UInt8(ascii: "."))
            }
            guard let firstRange = nextLine() else { return FrontMatter(yaml: "", yamlLineOffset: 0, body: "", bodyLine: 1) }
            var first = string(firstRange)
            if first.hasPrefix("\u{FEFF}") { first.removeFirst() }
            let opening = first == "---" ? first : first.trimmingCharacters(in: .whitespaces)
            guard opening == "---" else {
                if opening == "+++" {
                    throw TesseraError(
                        "TOML front matter (+++) is not supported", at: SourceLocation(file: file),
                        hint: "write the front matter in YAML between two '---' lines")
                }
                return FrontMatter(yaml: "", yamlLineOffset: 0, body: String(decoding: UnsafeBufferPointer(rebasing: bytes[0...]), as: UTF8.self), bodyLine: 1)
            }
            var closed = false
            while let line = nextLine() {
                // The opening fence is "---" only; the closing one may also be YAML's "...".
                if isFence(line) {
                    closed = true
                    break
                }
                lines.append(line)
            }
            guard closed else {
                throw TesseraError(
                    "front matter is not closed", at: SourceLocation(file: file, line: 1, column: 1),
                    hint: "add a line with '---' after the last front matter key")
            }
            let yaml = lines.map(string).joined(separator: "\n")
            let rest = start <= bytes.count ? UnsafeBufferPointer(rebasing: bytes[start...]) : UnsafeBufferPointer(rebasing: bytes[bytes.count...])
            var body = String(decoding: rest, as: UTF8.self)
            // Line ends are "\n" in the body, as in the front matter.
            if rest.contains(UInt8(ascii: "\r")) {
                body = body.split(separator: "\n", omittingEmptySubsequences: false).map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.joined(separator: "\n")
            }
            return FrontMatter(yaml: yaml, yamlLineOffset: 1, body: body, bodyLine: lines.count + 3)
        }
    }
}
