import Foundation
import Mustache

/// Renders compiled templates and turns what swift-mustache would print as nothing, a variable
/// no context has, into an error at the tag that uses it.
struct TemplateRenderer: Sendable {
    var library: TemplateLibrary
    /// The page language's strings for `{{#t}}…{{/t}}`; nil offers no `t`.
    var translator: Translator?
    /// The default language's, used (with a warning) when a translation is missing and
    /// missing translations are warnings.
    var fallback: Translator?
    var missingTranslations: Diagnostic.Severity = .error

    /// Renders; missing translations that are only warnings go to `warnings`.
    func render(_ template: CompiledTemplate, _ values: [String: Any], context: String, optionalNames: Set<String> = [], warnings: DiagnosticCollector? = nil) throws -> String {
        let scope = TemplateScope(values, optionalNames: optionalNames)
        if let translator { scope.provideTranslations(translator, fallback: missingTranslations == .warning ? fallback : nil) }
        let html = template.template.render(scope, library: library.mustache)
        if !scope.missingTranslations.isEmpty, translator?.table.isIncomplete != true {
            let diagnostics = scope.missingTranslations.map { missing in
                Diagnostic(
                    missingTranslations, "missing translation '\(missing.key)' for language '\(translator?.language ?? "")' in \(context)",
                    at: location(ofTranslation: missing.key, in: template),
                    hint: missing.error.diagnostics.first?.hint)
            }
            if missingTranslations == .error { throw TesseraError(diagnostics: diagnostics) }
            diagnostics.forEach { warnings?.report($0) }
        }
        if !scope.invalidCounts.isEmpty {
            throw TesseraError(diagnostics: scope.invalidCounts.map { problem in
                Diagnostic(
                    .error, "the count of translation '\(problem.key)' in \(context) is not a number: '\(problem.variable)' is absent or not a number field",
                    at: location(ofTranslation: problem.key, in: template),
                    hint: "give count= a number, percent or currency field that has a value (wrap the tag in {{#\(problem.variable)}}…{{/\(problem.variable)}} for optional fields)")
            })
        }
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

    /// Where the template, or one of its partials, asks for translation `key`.
    private func location(ofTranslation key: String, in template: CompiledTemplate) -> SourceLocation {
        for candidate in [template] + library.partialClosure(of: template) {
            let lines = candidate.text.components(separatedBy: "\n")
            for (number, line) in lines.enumerated() {
                if let range = line.range(of: "{{#t}}" + key) ?? line.range(of: "{{#t}} " + key) {
                    return SourceLocation(file: candidate.path, line: number + 1, column: line.distance(from: line.startIndex, to: range.lowerBound) + 1)
                }
            }
        }
        return SourceLocation(file: template.path)
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
