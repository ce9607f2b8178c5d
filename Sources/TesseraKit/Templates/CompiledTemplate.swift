import Foundation
import Mustache

/// A template parsed once per build, with the tags it uses.
public struct CompiledTemplate: Sendable {
    public enum Kind: String, Sendable {
        case layout, section, shell, component, partial

        var folder: String { self == .partial ? "partials" : rawValue + "s" }
    }

    public var kind: Kind
    public var name: String
    /// The file it came from; "(built in)" for templates Tessera supplies.
    public var path: String
    /// The source, to tell whether a template changed between two builds.
    public let text: String
    let template: MustacheTemplate
    let tags: [MustacheTag]

    /// `layouts/page`, `components/notice`: how dependencies and messages name a template.
    public var key: String { kind.folder + "/" + name }

    /// Partials and parents it names, directly.
    var partialNames: [String] {
        tags.filter { $0.kind == .partial || $0.kind == .parent }.map(\.name)
    }

    /// Sections nested deeper than this are refused: swift-mustache parses and renders them by
    /// recursion, and no real template comes near it.
    static let maxSectionDepth = 100

    init(kind: Kind, name: String, path: String, text: String) throws {
        self.kind = kind
        self.name = name
        self.path = path
        self.text = text
        let tags = MustacheTag.scan(text)
        self.tags = tags
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
        do {
            let marked = SubKeys.marked(text)
            // A template that does not parse is parsed again as written, so the error's column is
            // the one in the file.
            template = marked == text ? try MustacheTemplate(string: text) : try (try? MustacheTemplate(string: marked)) ?? MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            var location = SourceLocation(file: path, line: error.context.lineNumber, column: error.context.columnNumber)
            var message = "template syntax error: \(Self.describe(error.error))"
            // The end of the file is where the parser notices; the tag left open is what to fix.
            if case .expectedSectionEnd = error.error as? MustacheTemplate.Error, let unclosed = open.last {
                location = SourceLocation(file: path, line: unclosed.line, column: unclosed.column)
                message = "template syntax error: the section '\(unclosed.name)' opened here is never closed"
            }
            throw TesseraError(
                message, at: location,
                hint: "check that every {{#section}} and {{^section}} is closed by a matching {{/section}}, and that tags are closed with }}")
        }
    }

    static func describe(_ error: Error) -> String {
        switch error as? MustacheTemplate.Error {
        case .sectionCloseNameIncorrect: return "a closing tag does not match the section it closes"
        case .unfinishedName: return "a tag is not finished"
        case .expectedSectionEnd: return "a section is not closed"
        case .invalidSetDelimiter: return "a set-delimiter tag is malformed"
        case .transformAppliedToInheritanceSection: return "a transform is applied to an inheritance section"
        case .illegalTokenInsideInheritSection, .textInsideInheritSection: return "a partial with inheritance holds something other than blocks"
        case .invalidConfigVariableSyntax, .unrecognisedConfigVariable: return "an unknown {{% pragma }}"
        case nil: return "\(error)"
        }
    }
}
