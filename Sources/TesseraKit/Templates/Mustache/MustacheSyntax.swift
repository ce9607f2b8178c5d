import Foundation

/// A Mustache template parsed into nodes, with every name split into its parts once.
///
/// Tessera renders its own templates: resolving names through typed view data instead of `Any`
/// casts is what makes feed pages fast (swift-mustache's lookups were a fifth of a feed build). The
/// grammar and the whitespace rules are swift-mustache 2.1's, which the templates were written
/// for: a differential test renders the same templates with both.
struct MustacheSyntax: Sendable {
    let nodes: [MustacheNode]
    /// What a render's output buffer starts with: the template's own text and a little per tag
    /// (a component renders a few hundred bytes; a fixed 4 KB each was a malloc of its own).
    private(set) var sizeHint = 64
}

/// A name as a template writes it: `title`, `page.date.iso`, `.` (the current value) or `.title`
/// (only the current value, not the contexts around it).
struct MustacheName: Sendable, Hashable {
    /// As written, for messages.
    let text: String
    /// `page.date.iso` → ["page", "date", "iso"]; empty for `.`.
    let parts: [String]
    /// `.title`: looked up on the innermost value only.
    let currentOnly: Bool
    /// A part after the first that the value lacks is an error (a template's names); translations,
    /// whose plural forms ask for the one category a count has, are lenient.
    let strict: Bool

    init(_ text: String, strict: Bool = true) {
        self.text = text
        self.strict = strict
        self.parts = text == "." ? [] : text.split(separator: ".").map(String.init)
        self.currentOnly = text.first == "." && text != "."
    }
}

/// One piece of a parsed template.
///
/// The cases with large payloads are boxed, each on its own, and text is not: a wholly `indirect`
/// enum keeps its case in the spare high bits of the box pointer, so no plain pointer to a box
/// remains, and leak checkers (LeakSanitizer under `make fuzz`) report the nodes of templates
/// that live on, such as the translations parsed once per process, as leaked. With text inline,
/// no bit of its first word is spare, the case takes a byte of its own and every pointer stays
/// plain.
enum MustacheNode: Sendable {
    case text(String)
    indirect case variable(MustacheName, escaped: Bool)
    /// `{{#name}}…{{/name}}`; `source` is the text between the tags, which a lambda receives.
    indirect case section(MustacheName, [MustacheNode], source: String)
    indirect case invertedSection(MustacheName, [MustacheNode])
    /// `{{> name}}` and, with overrides, `{{< name}}{{$block}}…{{/block}}{{/name}}`. `dynamic`
    /// (`{{>*name}}`) takes the partial's name from the value `name`. `indentation` is set for a
    /// partial alone on its line.
    indirect case partial(String, dynamic: Bool, indentation: String?, overrides: [String: [MustacheNode]]?)
    /// `{{$name}}default{{/name}}`: the default unless a template that includes this one overrides it.
    indirect case block(String, defaultNodes: [MustacheNode], indentation: String?)
    /// `{{% CONTENT_TYPE: TEXT }}` stops escaping for the rest of the template; `HTML` restores it.
    case contentType(escapes: Bool)
}

/// A template that does not parse: what, and where (1-based line and column, in characters).
struct MustacheSyntaxError: Error, Equatable {
    enum Problem: Sendable, Equatable {
        case sectionCloseNameIncorrect, unfinishedName, expectedSectionEnd, invalidSetDelimiter
        case illegalTokenInsideInheritSection, transformsUnsupported, unrecognisedConfigVariable, invalidConfigVariableSyntax
    }
    var problem: Problem
    var line: Int
    var column: Int

    var message: String {
        switch problem {
        case .sectionCloseNameIncorrect: return "a closing tag does not match the section it closes"
        case .unfinishedName: return "a tag is not finished"
        case .expectedSectionEnd: return "a section is not closed"
        case .invalidSetDelimiter: return "a set-delimiter tag is malformed"
        case .illegalTokenInsideInheritSection: return "a partial with inheritance holds something other than blocks"
        case .transformsUnsupported: return "transforms such as uppercased(name) are not supported"
        case .invalidConfigVariableSyntax, .unrecognisedConfigVariable: return "an unknown {{% pragma }}"
        }
    }
}

extension MustacheSyntax {
    /// Parses `text`; throws `MustacheSyntaxError`. `strict`: see `MustacheName.strict`.
    init(parsing text: String, strict: Bool = true) throws {
        var parser = MustacheParser(text, strict: strict)
        do {
            nodes = try parser.parse(MustacheParser.State()).nodes
            sizeHint = max(64, Self.textSize(of: nodes) + Self.textSize(of: nodes) / 4)
        } catch let problem as MustacheSyntaxError.Problem {
            let (line, column) = parser.lineAndColumn()
            throw MustacheSyntaxError(problem: problem, line: line, column: column)
        }
    }
}

extension MustacheSyntax {
    /// The bytes of text the nodes print at least once, and 16 per other node.
    private static func textSize(of nodes: [MustacheNode]) -> Int {
        var size = 0
        for node in nodes {
            switch node {
            case .text(let text): size += text.utf8.count
            case .section(_, let inner, _), .invertedSection(_, let inner), .block(_, let inner, _): size += 16 + textSize(of: inner)
            default: size += 16
            }
        }
        return size
    }
}

extension MustacheSyntaxError.Problem: Error {}
