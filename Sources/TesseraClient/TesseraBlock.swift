import Foundation

/// One block of a page's `body`, by its `kind`.
public enum TesseraBlock: Decodable, Sendable, Equatable {
    /// Rendered Markdown, as HTML.
    case markdown(html: String)
    case component(TesseraComponentData)
    case code(TesseraCodeBlock)
    /// A kind this client does not know; apps skip it (its content is not decoded, so a newer
    /// block shape can never fail the page).
    case unknown(kind: String)

    private enum CodingKeys: String, CodingKey { case kind, html, component }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try container.decode(String.self, forKey: .kind)
        switch kind {
        case "markdown": self = .markdown(html: try container.decode(String.self, forKey: .html))
        case "component": self = .component(try container.decode(TesseraComponentData.self, forKey: .component))
        case "code": self = .code(try TesseraCodeBlock(from: decoder))
        default: self = .unknown(kind: kind)
        }
    }
}

/// A code block, optionally highlighted by the generator.
public struct TesseraCodeBlock: Decodable, Sendable, Equatable {
    /// A highlighted run: the token type ("keyword", "string"…) and its text.
    public struct Token: Sendable, Equatable {
        public let type: String
        public let text: String
    }

    public let code: String
    /// The fence's language ("swift"); nil for plain text.
    public let language: String?
    /// The language's display name ("Swift").
    public let languageName: String?
    /// The code as highlighted runs; concatenating their texts gives `code`.
    public let tokens: [Token]?
    public let title: String?
    public let firstLineNumber: Int?
    /// Line numbers (1-based, relative to the block) to emphasise.
    public let markedLines: [Int]?

    private enum CodingKeys: String, CodingKey { case code, language, languageName, tokens, title, firstLineNumber, markedLines }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        code = try c.decode(String.self, forKey: .code)
        language = try c.decodeIfPresent(String.self, forKey: .language)
        languageName = try c.decodeIfPresent(String.self, forKey: .languageName)
        // Tokens are `[type, text]` pairs; one of another length is dropped rather than failing the
        // page, since the plain `code` is always there to show instead.
        tokens = try c.decodeIfPresent([[String]].self, forKey: .tokens)?.compactMap { pair in
            pair.count == 2 ? Token(type: pair[0], text: pair[1]) : nil
        }
        title = try c.decodeIfPresent(String.self, forKey: .title)
        firstLineNumber = try c.decodeIfPresent(Int.self, forKey: .firstLineNumber)
        markedLines = try c.decodeIfPresent([Int].self, forKey: .markedLines)
    }
}
