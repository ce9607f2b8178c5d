import Foundation

/// One rule for every URL that content gives: `link` fields, `image` fields and the links and
/// images of Markdown. Script URLs (`javascript:`, `vbscript:`) and `data:` URLs are refused,
/// however they are disguised (case, whitespace, control characters, HTML entities); images may
/// use `data:` URLs of the common raster formats.
enum URLSafety {
    static let refusedSchemes: Set<String> = ["javascript", "vbscript", "data"]
    static let imageDataTypes = ["image/png", "image/jpeg", "image/gif", "image/webp"]

    /// Why `url` is refused, or nil when it is allowed.
    static func problem(with url: String, isImage: Bool) -> String? {
        let seen = browserView(of: url)
        guard let colon = seen.firstIndex(of: ":") else { return nil }
        let scheme = seen[..<colon]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || "+.-".contains($0)) }),
              refusedSchemes.contains(String(scheme)) else { return nil }
        if scheme == "data" && isImage {
            let rest = seen[seen.index(after: colon)...]
            if imageDataTypes.contains(where: { rest.hasPrefix($0 + ";") || rest.hasPrefix($0 + ",") }) { return nil }
            return "a data: URL that is not a PNG, JPEG, GIF or WebP image"
        }
        return "a \(scheme): URL, which runs code or hides content in the page"
    }

    /// The URL as a browser's parser would read its scheme: character references decoded, ASCII
    /// whitespace and control characters dropped, lowercased.
    static func browserView(of url: String) -> String {
        var decoded = ""
        var index = url.startIndex
        while index < url.endIndex {
            if url[index] == "&", let (character, next) = entity(in: url, at: index) {
                decoded.append(contentsOf: character)
                index = next
            } else {
                decoded.append(url[index])
                index = url.index(after: index)
            }
        }
        return String(decoded.unicodeScalars.filter { $0.value > 0x20 && !(0x7F...0x9F).contains($0.value) }.map(Character.init)).lowercased()
    }

    private static let namedEntities: [String: String] = [
        "colon": ":", "tab": "\t", "newline": "\n", "nbsp": " ", "amp": "&", "sol": "/", "period": ".", "lpar": "(", "rpar": ")",
    ]

    /// A character reference at `index` (`&#58;`, `&#x3a`, `&colon;`), with the index after it.
    private static func entity(in text: String, at index: String.Index) -> (String, String.Index)? {
        var cursor = text.index(after: index)
        guard cursor < text.endIndex else { return nil }
        if text[cursor] == "#" {
            cursor = text.index(after: cursor)
            var hex = false
            if cursor < text.endIndex, text[cursor] == "x" || text[cursor] == "X" { hex = true; cursor = text.index(after: cursor) }
            let start = cursor
            while cursor < text.endIndex, text[cursor].isHexDigit && (hex || text[cursor].isNumber) { cursor = text.index(after: cursor) }
            guard cursor > start, let value = UInt32(text[start..<cursor], radix: hex ? 16 : 10) else { return nil }
            if cursor < text.endIndex, text[cursor] == ";" { cursor = text.index(after: cursor) }
            return (Unicode.Scalar(value).map { String(Character($0)) } ?? "", cursor)
        }
        let start = cursor
        while cursor < text.endIndex, text[cursor].isLetter { cursor = text.index(after: cursor) }
        guard let replacement = namedEntities[text[start..<cursor].lowercased()] else { return nil }
        if cursor < text.endIndex, text[cursor] == ";" { cursor = text.index(after: cursor) }
        return (replacement, cursor)
    }
}
