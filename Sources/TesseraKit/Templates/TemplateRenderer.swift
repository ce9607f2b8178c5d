import Foundation

/// Renders compiled templates and turns what Mustache would print as nothing, a variable no
/// context has, into an error at the tag that uses it.
struct TemplateRenderer: Sendable {
    var library: TemplateLibrary
    /// The page language's strings for `{{#t}}…{{/t}}`; nil offers no `t`.
    var translator: Translator?
    /// The default language's, used (with a warning) when a translation is missing and
    /// missing translations are warnings.
    var fallback: Translator?
    var missingTranslations: Diagnostic.Severity = .error
    var fingerprints = AssetFingerprints()
    var basePath = "/"
    /// Where the assets templates ask for are recorded.
    var assetUse: AssetUse?

    /// Renders; missing translations that are only warnings go to `warnings`.
    func render(
        _ template: CompiledTemplate, _ values: [(String, TemplateValue)], fields: ViewObject? = nil, common: [(String, TemplateValue)] = [], context: String,
        optionalNames: Set<String> = [], warnings: DiagnosticCollector? = nil
    ) throws -> String {
        let scope = TemplateScope(values, fields: fields, common: common, optionalNames: optionalNames)
        if let translator { scope.provideTranslations(translator, fallback: missingTranslations == .warning ? fallback : nil) }
        scope.provideAssets(fingerprints, basePath: basePath, use: assetUse)
        let rendering = MustacheRendering(partials: library.partials, root: scope)
        let html = rendering.render(template.syntax)
        if let name = rendering.tooDeep {
            throw TesseraError(
                "partials nested more than \(MustacheRendering.maxPartialDepth) deep through '\(name)' in \(context)", at: SourceLocation(file: template.path),
                hint: "a dynamic partial ({{>*name}}) includes itself; render nested items with a container component instead")
        }
        if !rendering.unprintable.isEmpty {
            throw TesseraError(diagnostics: rendering.unprintable.map { value in
                Diagnostic(
                    .error, "'\(value.name)' is \(value.kind == "list" ? "a list" : "an object") and has no text to print in \(context)",
                    at: location(ofVariable: value.name, in: template),
                    hint: value.kind == "list"
                        ? "iterate it: {{#\(value.name)}}{{.}}{{/\(value.name)}}, or print one item's part inside the section"
                        : "print one of its parts, such as {{\(value.name).\(value.parts.first ?? "part")}}" + (value.parts.isEmpty ? "" : "; its parts are: " + value.parts.joined(separator: ", ")))
            })
        }
        if !rendering.missingParts.isEmpty {
            throw TesseraError(diagnostics: rendering.missingParts.map { miss in
                let tag = dottedTag(withPart: miss.name, in: template)
                let owner = tag.map { name in
                    let parts = name.name.split(separator: ".")
                    return parts.prefix { $0 != miss.name }.joined(separator: ".")
                }
                let available = miss.available.filter { !$0.isEmpty }
                return Diagnostic(
                    .error, "'\(miss.name)' is not a part of \(owner.map { "'\($0)'" } ?? "this value") in \(context)",
                    at: tag.map { SourceLocation(file: $0.file, line: $0.line, column: $0.column) } ?? SourceLocation(file: template.path),
                    hint: (Suggestions.didYouMean(miss.name, in: available).map { $0 + " " } ?? "")
                        + (available.isEmpty ? "it has no parts" : "its parts are: " + available.joined(separator: ", ")))
            })
        }
        if !scope.unknownAssets.isEmpty {
            throw TesseraError(diagnostics: scope.unknownAssets.map { (tag, name) in
                Diagnostic(
                    .error, "no stylesheet or script '\(name)' to fingerprint for {{#\(tag)}} in \(context)", at: location(ofLambda: tag, argument: name, in: template),
                    hint: Suggestions.didYouMean(name, in: fingerprints.entries.keys).map { $0 + " " } ?? "{{#asset}} takes the path of a .css or .js file of static/, such as assets/site.css")
            })
        }
        // A key that exists but is used wrongly (plural forms without count=) is a template error,
        // whatever `missingTranslations` says.
        let misused = scope.missingTranslations.filter { translator?.table[$0.key] != nil }
        if !misused.isEmpty {
            throw TesseraError(diagnostics: misused.map { use in
                Diagnostic(
                    .error, (use.error.diagnostics.first?.message ?? "translation '\(use.key)' cannot be used here") + " in \(context)",
                    at: location(ofTranslation: use.key, in: template), hint: use.error.diagnostics.first?.hint)
            })
        }
        let missing = scope.missingTranslations.filter { translator?.table[$0.key] == nil }
        if !missing.isEmpty, translator?.table.isIncomplete != true {
            let diagnostics = missing.map { missing in
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
                // A shell wraps many components: the same mistake is one error, not one per component.
                if template.kind == .shell {
                    let names = ["body", "component", "page", "site", "t"]
                    return Diagnostic(
                        .error, "'\(name)' is not a value of shell '\(template.name)' nor a field of any component", at: location(of: name, in: template),
                        hint: (Suggestions.didYouMean(name, in: names).map { $0 + " " } ?? "")
                            + "a shell receives: \(names.joined(separator: ", ")) and the fields of the component it wraps")
                }
                return Diagnostic(
                    .error, "'\(name)' is not a value of \(context)", at: location(of: name, in: template),
                    hint: (Suggestions.didYouMean(name, in: scope.names).map { $0 + " " } ?? "")
                        + "\(template.kind == .layout ? "a layout" : "this template") receives: \(scope.names.joined(separator: ", "))")
            })
        }
        return html
    }

    /// Where the template, or one of its partials, uses `{{#tag}}argument`.
    private func location(ofLambda tag: String, argument: String, in template: CompiledTemplate) -> SourceLocation {
        for candidate in [template] + library.partialClosure(of: template) {
            for (number, line) in candidate.text.components(separatedBy: "\n").enumerated() {
                if let range = line.range(of: "{{#\(tag)}}" + argument) {
                    return SourceLocation(file: candidate.path, line: number + 1, column: line.distance(from: line.startIndex, to: range.lowerBound) + 1)
                }
            }
        }
        return SourceLocation(file: template.path)
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

    /// The first tag of the template or its partials whose dotted name asks for `part` after its first name.
    private func dottedTag(withPart part: String, in template: CompiledTemplate) -> (name: String, file: String, line: Int, column: Int)? {
        for candidate in [template] + library.partialClosure(of: template) {
            if let tag = candidate.tags.first(where: { [.variable, .section, .invertedSection].contains($0.kind) && $0.name.split(separator: ".").dropFirst().contains(Substring(part)) }) {
                return (tag.name, candidate.path, tag.line, tag.column)
            }
        }
        return nil
    }

    /// Where the template, or one of its partials, prints `name` with `{{name}}` or `{{{name}}}`.
    private func location(ofVariable name: String, in template: CompiledTemplate) -> SourceLocation {
        for candidate in [template] + library.partialClosure(of: template) {
            if let tag = candidate.tags.first(where: { $0.name == name && $0.kind == .variable }) {
                return SourceLocation(file: candidate.path, line: tag.line, column: tag.column)
            }
        }
        return location(of: name, in: template)
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
