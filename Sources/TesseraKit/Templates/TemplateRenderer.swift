import Foundation
import Mustache

/// Renders compiled templates and turns what swift-mustache would print as nothing, a variable
/// no context has, into an error at the tag that uses it.
struct TemplateRenderer: Sendable {
    var library: TemplateLibrary

    func render(_ template: CompiledTemplate, _ values: [String: Any], context: String) throws -> String {
        let scope = TemplateScope(values)
        let html = template.template.render(scope, library: library.mustache)
        guard scope.missing.isEmpty else {
            throw TesseraError(diagnostics: scope.missing.map { name in
                Diagnostic(
                    .error, "'\(name)' is not a value of \(context)", at: location(of: name, in: template),
                    hint: Suggestions.didYouMean(name, in: scope.names).map { $0 + " " } ?? ""
                        + "\(template.kind == .layout ? "a layout" : "this template") receives: \(scope.names.joined(separator: ", "))")
            })
        }
        return html
    }

    /// Where the template, or one of its partials, first uses `name`.
    private func location(of name: String, in template: CompiledTemplate) -> SourceLocation {
        for candidate in [template] + library.partialClosure(of: template) {
            if let tag = candidate.tags.first(where: { $0.rootName == name && [.variable, .section, .invertedSection].contains($0.kind) }) {
                return SourceLocation(file: candidate.path, line: tag.line, column: tag.column)
            }
        }
        return SourceLocation(file: template.path)
    }
}
