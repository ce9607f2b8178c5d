import Foundation

/// A heading of a Markdown text: its level (1–6), its text as plain text, and the id its HTML
/// element has (`<h2 id="why-it-matters">`), which a link's `#fragment` names.
public struct MarkdownHeading: Sendable, Equatable, Hashable {
    public var level: Int
    public var text: String
    public var id: String
    /// The line it starts on, counted from the Markdown's first (1-based; 0 when unknown).
    public var line: Int

    public init(level: Int, text: String, id: String, line: Int = 0) {
        self.level = level
        self.text = text
        self.id = id
        self.line = line
    }
}

/// The HTML of a Markdown text and what a page needs to know of it.
public struct MarkdownDocument: Sendable, Equatable {
    public var html: String
    /// In the order they are written.
    public var headings: [MarkdownHeading]
    /// Components placed in the text, in order (see `MarkdownComponents`); empty unless asked for.
    public var components: [MarkdownComponents.Placed] = []
    /// Code blocks taken out of the text with the components, in order (`MarkdownComponents.codeMarker`).
    public var code: [RenderedCode] = []
}

/// The ids of a text's headings: `{#custom-id}` where one is written at a heading's end, else
/// GitHub's slug of its text, unique in the text (a second `Setup` is `setup-1`, as on GitHub).
enum HeadingIDs {
    /// GitHub's slug: lowercased; letters, marks and digits of any script, `-` and `_` kept;
    /// each space a `-`; anything else dropped. `Héllo, World!` → `héllo-world`,
    /// `Swift 6: what's new?` → `swift-6-whats-new`. Empty for a heading of punctuation alone.
    static func slug(_ text: String) -> String {
        asciiSlug(text) ?? slugByScalars(text)
    }

    /// `slugByScalars` for ASCII text (almost every heading), by bytes; nil for any other text.
    /// ASCII lowercases to ASCII, and its only letters, digits and connector are `a`–`z`,
    /// `0`–`9` and `_`. By scalars, a heading's slug cost 19,000 instructions (a general
    /// category looked up for each), 7% of rendering a plain post's Markdown.
    static func asciiSlug(_ text: String) -> String? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"): bytes.append(byte)
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): bytes.append(byte | 0x20)
            case UInt8(ascii: " "), UInt8(ascii: "-"): bytes.append(UInt8(ascii: "-"))
            case 0x80...: return nil
            default: break
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The slug by Unicode's general categories, for any text.
    static func slugByScalars(_ text: String) -> String {
        var slug = String.UnicodeScalarView()
        for scalar in text.lowercased().unicodeScalars {
            switch scalar.properties.generalCategory {
            case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
                 .nonspacingMark, .spacingMark, .enclosingMark, .decimalNumber, .letterNumber, .otherNumber, .connectorPunctuation:
                slug.append(scalar)
            case .spaceSeparator where scalar == " ", .dashPunctuation where scalar == "-":
                slug.append("-")
            default:
                break
            }
        }
        return String(slug)
    }

    /// A `{#custom-id}` at the end of a heading's text: the text without it and the id, or a
    /// problem when the braces hold no usable id. Nil when the text does not end so.
    static func custom(in text: String) -> (text: String, id: Result<String, IDProblem>)? {
        guard text.hasSuffix("}"), let open = text.range(of: "{#", options: .backwards) else { return nil }
        let id = String(text[open.upperBound..<text.index(before: text.endIndex)])
        let rest = String(text[..<open.lowerBound])
        let trimmed = String(rest.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
        if id.isEmpty { return (trimmed, .failure(IDProblem(id: id, reason: "it is empty"))) }
        if let bad = id.unicodeScalars.first(where: { !isIDScalar($0) }) {
            let shown = bad.properties.isWhitespace ? "a space" : "'\(bad)'"
            return (trimmed, .failure(IDProblem(id: id, reason: "an id cannot hold \(shown)")))
        }
        return (trimmed, .success(id))
    }

    struct IDProblem: Error, Equatable {
        var id: String
        var reason: String
    }

    /// Letters and digits of any script, `-`, `_`, `:` and `.`: an id a URL's fragment and a
    /// CSS selector can name without escaping.
    static func isIDScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .nonspacingMark, .spacingMark, .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return scalar == "-" || scalar == "_" || scalar == ":" || scalar == "."
        }
    }

    /// Ids for headings whose custom ids (nil where none is written) are given: custom ids as
    /// written, the others their slug made unique against every id before and every custom id.
    /// Footnotes' ids (`fn-…`, `fnref-…`) are reserved when the text has footnotes.
    static func assign(slugs: [String], custom: [String?], reservingFootnotes: Bool) -> [String] {
        var taken = Set(custom.compactMap { $0 })
        var ids: [String] = []
        ids.reserveCapacity(slugs.count)
        for (slug, custom) in zip(slugs, custom) {
            if let custom {
                ids.append(custom)
                continue
            }
            var base = slug.isEmpty ? "section" : slug
            if reservingFootnotes && (base.hasPrefix("fn-") || base.hasPrefix("fnref-")) { base = "section-" + base }
            var id = base
            var number = 0
            while taken.contains(id) {
                number += 1
                id = base + "-\(number)"
            }
            taken.insert(id)
            ids.append(id)
        }
        return ids
    }
}
