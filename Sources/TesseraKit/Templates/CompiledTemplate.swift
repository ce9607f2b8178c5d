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

    init(kind: Kind, name: String, path: String, text: String) throws {
        self.kind = kind
        self.name = name
        self.path = path
        self.text = text
        do {
            template = try MustacheTemplate(string: text)
        } catch let error as MustacheTemplate.ParserError {
            throw TesseraError(
                "template syntax error: \(Self.describe(error.error))",
                at: SourceLocation(file: path, line: error.context.lineNumber, column: error.context.columnNumber),
                hint: "check that every {{#section}} and {{^section}} is closed by a matching {{/section}}, and that tags are closed with }}")
        }
        tags = MustacheTag.scan(text)
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
