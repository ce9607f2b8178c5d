import Foundation

/// A template parsed once per build, with the tags it uses.
public struct CompiledTemplate: Sendable {
    public enum Kind: String, Sendable {
        case layout, section, shell, component, partial
        /// A render hook of `markdown/`: how one kind of Markdown element is written.
        case hook

        var folder: String {
            switch self {
            case .partial: "partials"
            case .hook: "markdown"
            default: rawValue + "s"
            }
        }
    }

    /// Shared by the template's copies (`CopyOnWrite`): a page's render looks up a template for
    /// each component and shell it renders, and a lookup is a copy.
    private struct Stored: Sendable {
        let kind: Kind
        let name: String
        var path: String
        let text: String
        let syntax: MustacheSyntax
        let tags: [MustacheTag]
        let key: String
    }

    private var stored: CopyOnWrite<Stored>

    public var kind: Kind { stored.read.kind }
    public var name: String { stored.read.name }
    /// The file it came from; "(built in)" for templates Tessera supplies.
    public var path: String {
        get { stored.read.path }
        _modify { yield &stored.write.path }
    }
    /// The source, to tell whether a template changed between two builds.
    public var text: String { stored.read.text }
    var syntax: MustacheSyntax { stored.read.syntax }
    var tags: [MustacheTag] { stored.read.tags }

    /// `layouts/page`, `components/notice`: how dependencies and messages name a template.
    public var key: String { stored.read.key }

    /// Partials and parents it names, directly.
    var partialNames: [String] {
        tags.filter { $0.kind == .partial || $0.kind == .parent }.map(\.name)
    }

    /// Sections nested deeper than this are refused: templates are parsed and rendered by
    /// recursion, and no real template comes near it.
    static let maxSectionDepth = 100

    init(kind: Kind, name: String, path: String, text: String) throws {
        let tags = MustacheTag.scan(text)
        var open: [MustacheTag] = []
        for tag in tags {
            switch tag.kind {
            case .section, .invertedSection, .parent, .block:
                open.append(tag)
                if open.count > Self.maxSectionDepth {
                    throw TesseraError(
                        "sections nested more than \(Self.maxSectionDepth) deep", at: SourceLocation(file: path, line: tag.line, column: tag.column),
                        hint: "split the template into partials or components")
                }
            case .closeSection:
                if let index = open.lastIndex(where: { $0.name == tag.name }) { open.removeSubrange(index...) }
            default: break
            }
        }
        let syntax: MustacheSyntax
        do {
            syntax = try MustacheSyntax(parsing: text)
        } catch let error as MustacheSyntaxError {
            var location = SourceLocation(file: path, line: error.line, column: error.column)
            var message = "template syntax error: \(error.message)"
            // The end of the file is where the parser notices; the tag left open is what to fix.
            if error.problem == .expectedSectionEnd, let unclosed = open.last {
                location = SourceLocation(file: path, line: unclosed.line, column: unclosed.column)
                message = "template syntax error: the section '\(unclosed.name)' opened here is never closed"
            }
            throw TesseraError(
                message, at: location,
                hint: error.problem == .transformsUnsupported
                    ? "templates print values as view data gives them: choose a field's type and format in the component's schema instead"
                    : "check that every {{#section}} and {{^section}} is closed by a matching {{/section}}, and that tags are closed with }}")
        }
        stored = CopyOnWrite(Stored(kind: kind, name: name, path: path, text: text, syntax: syntax, tags: tags, key: kind.folder + "/" + name))
    }
}
