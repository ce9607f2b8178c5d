import Foundation

/// A link to an id of a page (`#setup`, `/guide/#setup`, `@/guide.md#setup`), where it is written.
public struct FragmentLink: Sendable, Equatable, Hashable {
    public var target: LinkResolver.FragmentTarget
    public var location: SourceLocation
}

/// What one page's Markdown and links leave as the page is mapped: its fragment links (its
/// Markdown's, body and fields, and its `link` fields'), and its Markdown's warnings.
final class MarkdownRecorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [FragmentLink] = []
    private var warned: [Diagnostic] = []
    private var plainCode = false
    private var imageFiles: [String] = []

    /// Where a Markdown text is written, to place its links' lines and columns in their file.
    enum Origin: Sendable {
        /// A page's body: its first line and column in the file.
        case text(SourceLocation)
        /// A YAML value holding the Markdown.
        case node(ContentNode)

        func place(line: Int, column: Int) -> SourceLocation {
            switch self {
            case .text(let start):
                var location = start.offset(lines: line - 1)
                location.column = line == 1 ? start.column + column - 1 : column
                return location
            case .node(let node):
                return node.place(ofTextLine: line, column: column)
            }
        }
    }

    func record(_ target: LinkResolver.FragmentTarget, at location: SourceLocation) {
        lock.withLock { recorded.append(FragmentLink(target: target, location: location)) }
    }

    func warn(_ warning: Diagnostic) {
        lock.withLock { warned.append(warning) }
    }

    /// A code block of the page named a language, and no engine was there to colour it.
    func markUnhighlighted() {
        lock.withLock { plainCode = true }
    }

    /// The warnings, each once, in the order they were met.
    var warnings: [Diagnostic] {
        lock.withLock {
            var seen = Set<String>()
            return warned.filter { seen.insert("\($0.location.map { "\($0.file):\($0.line):\($0.column)" } ?? "") \($0.message)").inserted }
        }
    }

    var unhighlighted: Bool { lock.withLock { plainCode } }

    /// The page shows an image: the files made of it are among its outputs.
    func recordImage(_ image: ResponsiveImage) {
        recordImageFiles(image.variants.map(\.variant.path))
    }

    func recordImageFiles(_ paths: [String]) {
        guard !paths.isEmpty else { return }
        lock.withLock { imageFiles += paths }
    }

    /// The output paths of the images the page shows, each once.
    var images: [String] { lock.withLock { Array(Set(imageFiles)).sorted() } }

    /// In the order they were met; each place once.
    var links: [FragmentLink] {
        lock.withLock {
            var seen = Set<FragmentLink>()
            return recorded.filter { seen.insert($0).inserted }
        }
    }
}

/// Fragments are links too: each must name an id its page has. And a page's ids (from its
/// Markdown, its components and its templates) are unique.
enum FragmentCheck {
    /// The values of a page's `id` attributes, in order: `id="…"` after a space, a tab or a line
    /// break, in its HTML as written (text and attribute values hold `&quot;`, never `"`).
    static func ids(in html: Data) -> [String] {
        var ids: [String] = []
        html.withUnsafeBytes { raw in
            let needle = Array("id=\"".utf8)
            var start = 0
            while let offset = ByteSearch.firstOffset(of: needle, in: raw, from: start) {
                start = offset + needle.count
                guard offset > 0, raw[offset - 1] == 0x20 || raw[offset - 1] == 0x0A || raw[offset - 1] == 0x09,
                      let end = ByteSearch.firstIndex(of: UInt8(ascii: "\""), in: raw, from: start) else { continue }
                let value = String(decoding: UnsafeRawBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
                ids.append(value.contains("&") ? Self.unescaped(value) : value)
                start = end + 1
            }
        }
        return ids
    }

    /// What of a Markdown body can change its page's ids or its links to ids, for deciding
    /// whether a body edit may keep the other pages as they are: every line with `#` (ATX
    /// headings, `{#id}`, fragments), `[^` (footnotes), `[!` (alerts), `![` (images) or `id=`
    /// (raw HTML); each setext heading with its underline; and the whole body when it places
    /// a component (whose templates may print ids). More than needed is only slower.
    /// Read as bytes: it runs over every body a first build reads.
    static func structure(ofBody body: String) -> String {
        var body = body
        return body.withUTF8 { String(decoding: structure(ofBody: $0), as: UTF8.self) }
    }

    /// `structure(ofBody:)` of a body's UTF-8 bytes, as bytes: a first build's comparison runs it
    /// over every file's bytes as read, without making a `String` of each.
    static func structure(ofBody bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let count = bytes.count
        // Each line's range, without its line break.
        var lines: [Range<Int>] = []
        lines.reserveCapacity(count / 40 + 1)
        var start = 0
        while start <= count {
            let end = ByteSearch.firstIndex(of: 0x0A, in: bytes, from: start) ?? count
            lines.append(start..<end)
            start = end + 1
        }
        var kept: [Range<Int>] = []
        var paragraphStart = 0
        let component = Array(MarkdownComponents.info.utf8)
        for (index, line) in lines.enumerated() {
            var inner = line.lowerBound
            while inner < line.upperBound, bytes[inner] == 0x20 || bytes[inner] == 0x3E || bytes[inner] == 0x09 { inner += 1 }
            if inner == line.upperBound {
                paragraphStart = index + 1
                continue
            }
            let first = bytes[inner]
            if (first == 0x60 || first == 0x7E), line.upperBound - inner >= 3, bytes[inner + 1] == first, bytes[inner + 2] == first {
                var info = inner
                while info < line.upperBound, bytes[info] == 0x60 || bytes[info] == 0x7E { info += 1 }
                while info < line.upperBound, bytes[info] == 0x20 || bytes[info] == 0x09 { info += 1 }
                if line.upperBound - info >= component.count, bytes[info..<(info + component.count)].elementsEqual(component) { return Array(bytes) }
            }
            if index > paragraphStart, first == 0x3D || first == 0x2D, bytes[inner..<line.upperBound].allSatisfy({ $0 == 0x3D || $0 == 0x2D || $0 == 0x20 }) {
                kept.append(contentsOf: lines[paragraphStart...index])
                paragraphStart = index + 1
                continue
            }
            if Self.mayHoldIDs(UnsafeBufferPointer(rebasing: bytes[line])) { kept.append(line) }
        }
        var out: [UInt8] = []
        out.reserveCapacity(kept.reduce(kept.count) { $0 + $1.count })
        for (index, line) in kept.enumerated() {
            if index > 0 { out.append(0x0A) }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[line]))
        }
        return out
    }

    /// Whether a line holds `#`, `[^`, `[!`, `![` or `id=`. Read as bytes (Foundation's
    /// `contains` took a third of a first build's reading of 2,000 posts).
    static func mayHoldIDs(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        idBytes.withUnsafeBufferPointer { table in
            let marks = table.baseAddress!
            let count = line.count
            var index = 0
            while index < count {
                // Most bytes are none of `#`, `[`, `!`, `=`: one table read each.
                guard marks[Int(line[index])] != 0 else { index &+= 1; continue }
                switch line[index] {
                case UInt8(ascii: "#"): return true
                case UInt8(ascii: "["): if index + 1 < count, line[index + 1] == UInt8(ascii: "^") || line[index + 1] == UInt8(ascii: "!") { return true }
                case UInt8(ascii: "!"): if index + 1 < count, line[index + 1] == UInt8(ascii: "[") { return true }
                default: if index >= 2, line[index - 1] == UInt8(ascii: "d"), line[index - 2] == UInt8(ascii: "i") { return true }
                }
                index &+= 1
            }
            return false
        }
    }

    /// 1 for the bytes `mayHoldIDs` looks at: `#`, `[`, `!` and `=`.
    private static let idBytes: [UInt8] = (0..<256).map { [0x23, 0x5B, 0x21, 0x3D].contains($0) ? 1 : 0 }

    /// An attribute value as the browser reads it: character references decoded (those HTML
    /// escaping writes, `&lt;` `&gt;` `&amp;` `&quot;` `&apos;`, and numeric ones).
    static func unescaped(_ value: String) -> String {
        var out = "", rest = value[...]
        while let amp = rest.firstIndex(of: "&") {
            out += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";"), rest.distance(from: amp, to: semicolon) <= 10 else {
                out += rest[amp...]
                return out
            }
            let name = rest[rest.index(after: amp)..<semicolon]
            let named: [Substring: String] = ["lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'"]
            if let text = named[name] {
                out += text
            } else if name.hasPrefix("#"), let code = name.dropFirst().first == "x" || name.dropFirst().first == "X"
                        ? UInt32(name.dropFirst(2), radix: 16) : UInt32(name.dropFirst()), let scalar = Unicode.Scalar(code) {
                out.unicodeScalars.append(scalar)
            } else {
                out += rest[amp...semicolon]
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return out + rest
    }

    /// Ids written more than once, each once, in the order of their second use.
    static func repeated(_ ids: [String]) -> [String] {
        var seen = Set<String>(), reported = Set<String>(), repeated: [String] = []
        for id in ids where !seen.insert(id).inserted && reported.insert(id).inserted { repeated.append(id) }
        return repeated
    }

    /// An error for each link whose page has HTML this build made but not the id; pages
    /// without HTML here (JSON only, or not built) are not judged.
    static func problems(_ links: [FragmentLink], ids: [String: Set<String>]) -> [Diagnostic] {
        links.compactMap { link in
            // `#top` is the top of every page (HTML's "indicated part of the document").
            guard let known = ids[link.target.page], !known.contains(link.target.id), link.target.id.lowercased() != "top" else { return nil }
            let onPage = link.target.page
            return Diagnostic(
                .error, "no id '\(link.target.id)' on \(onPage) for the link's #\(link.target.id)", at: link.location,
                hint: (Suggestions.didYouMean(link.target.id, in: known).map { $0 + " " } ?? "")
                    + (known.isEmpty ? "the page has no ids" : "link to a heading's id; `tessera build` gives each heading one from its text, or `{#custom-id}`"))
        }
    }
}
