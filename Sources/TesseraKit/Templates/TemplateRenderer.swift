import Foundation

/// Renders compiled templates and turns what Mustache would print as nothing, a variable no
/// context has, into an error at the tag that uses it.
struct TemplateRenderer: Sendable {
    let library: TemplateLibrary
    /// The page language's strings for `{{#t}}…{{/t}}`; nil offers no `t`.
    var translator: Translator? { services.translator }
    /// Set once, as `services` is made from it.
    let missingTranslations: Diagnostic.Severity
    var fingerprints: AssetFingerprints { services.fingerprints }
    /// Where the partials `{{>*name}}` includes are recorded.
    let partialUse: DynamicPartialUse?
    /// What the helpers of every render use (`t`'s strings and their fallback, the assets and
    /// their base path, `{{#picture}}`): made once for the renderer, one reference for each
    /// render's scope, where setting six values took a dozen reference counts there and a
    /// dozen more when the scope went (a feed page renders about forty templates).
    private let services: TemplateScope.Services

    /// `fallback`: the default language's strings, used (with a warning) when a translation is
    /// missing and missing translations are warnings. `assetUse`: where the assets templates
    /// ask for are recorded. `pictures`: `{{#picture}}`, for the page at `pageURL`, and where its
    /// pictures are recorded.
    init(
        library: TemplateLibrary, translator: Translator? = nil, fallback: Translator? = nil, missingTranslations: Diagnostic.Severity = .error,
        fingerprints: AssetFingerprints = AssetFingerprints(), basePath: String = "/", assetUse: AssetUse? = nil, partialUse: DynamicPartialUse? = nil,
        pictures: (helper: PictureHelper, pageURL: String, use: PictureUse)? = nil
    ) {
        self.library = library
        self.missingTranslations = missingTranslations
        self.partialUse = partialUse
        services = TemplateScope.Services(
            translator: translator, fallback: missingTranslations == .warning ? fallback : nil,
            fingerprints: fingerprints, basePath: basePath, assetUse: assetUse, pictures: pictures)
    }

    /// Renders; missing translations that are only warnings go to `warnings`. `context` names the
    /// template in messages, made only for one (a component's name in quotes was three string
    /// appends for each of a feed page's forty renders).
    func render(
        _ template: CompiledTemplate, _ values: [(String, TemplateValue)], fields: ViewObject? = nil, common: TemplateScope.Values = TemplateScope.Values([]), context: @autoclosure () -> String,
        optionalNames: Set<String> = [], warnings: DiagnosticCollector? = nil
    ) throws -> String {
        let scope = TemplateScope(values, fields: fields, common: common, optionalNames: optionalNames, services: services)
        let rendering = MustacheRendering(partials: library.partials, root: scope)
        let html = rendering.render(template.syntax)
        for include in rendering.includes where include.problem == nil {
            partialUse?.record(library.dependencies["partials/" + include.partial] ?? ["partials/" + include.partial])
        }
        // Only a render with a problem needs to know where its tags are.
        lazy var sources = TemplateSources(template, library: library, includes: rendering.includes)
        func failure(_ diagnostics: [Diagnostic]) -> TesseraError { TesseraError(diagnostics: sources.noted(diagnostics)) }
        if let name = rendering.tooDeep {
            let include = rendering.includes.last { $0.partial == name && $0.includer == name }
            throw failure([Diagnostic(
                .error, "partials nested more than \(MustacheRendering.maxPartialDepth) deep through '\(name)' in \(context())",
                at: include.map(sources.location(of:)) ?? SourceLocation(file: template.path),
                hint: "a dynamic partial ({{>*name}}) includes itself; render nested items with a container component instead")])
        }
        let unincluded = rendering.includes.filter { $0.problem != nil }
        if !unincluded.isEmpty {
            throw failure(unincluded.map { include in
                let tag = "{{>*\(include.tag)}}"
                if case .notAName(let kind) = include.problem {
                    return Diagnostic(
                        .error, "\(tag) needs the name of a partial, but '\(include.tag)' is \(kind), in \(context())", at: sources.location(of: include),
                        hint: "give it a text or enum value naming a file of partials/, such as '\(library.partials.keys.sorted().first ?? "card")'")
                }
                return Diagnostic(
                    .error, "\(tag) names the partial '\(include.partial)', which does not exist, in \(context())", at: sources.location(of: include),
                    hint: (Suggestions.didYouMean(include.partial, in: library.partials.keys).map { $0 + " " } ?? "")
                        + "create partials/\(include.partial).mustache in the site or the theme, or give '\(include.tag)' the name of one: "
                        + (library.partials.isEmpty ? "there are none yet" : library.partials.keys.sorted().joined(separator: ", ")))
            })
        }
        if !rendering.unprintable.isEmpty {
            throw failure(rendering.unprintable.map { value in
                // `{{.}}` in a section prints the section's value, whose parts are `{{.part}}`.
                let prefix = value.name == "." ? "" : value.name
                switch value.kind {
                case "list":
                    return Diagnostic(
                        .error, "'\(value.name)' is a list and has no text to print in \(context())", at: sources.location(ofVariable: value.name),
                        hint: "iterate it: {{#\(value.name)}}{{.}}{{/\(value.name)}}, or print one item's part inside the section")
                case "view data":
                    return Diagnostic(
                        .error, "'\(value.name)' outside a section is the view data of \(context()), an object, and has no text to print",
                        at: sources.location(ofVariable: value.name),
                        hint: "print one of its values, such as {{\(value.parts.first ?? "title")}}; \(template.kind == .layout ? "a layout" : "this template") receives: \(value.parts.joined(separator: ", "))")
                default:
                    return Diagnostic(
                        .error, "'\(value.name)' is an object and has no text to print in \(context())", at: sources.location(ofVariable: value.name),
                        hint: "print one of its parts, such as {{\(prefix).\(value.parts.first ?? "part")}}" + (value.parts.isEmpty ? "" : "; its parts are: " + value.parts.joined(separator: ", ")))
                }
            })
        }
        if !rendering.missingParts.isEmpty {
            throw failure(rendering.missingParts.map { miss in
                let tag = sources.dottedTag(withPart: miss.name)
                let owner = tag.map { name in
                    let parts = name.name.split(separator: ".")
                    return parts.prefix { $0 != miss.name }.joined(separator: ".")
                }
                let available = miss.available.filter { !$0.isEmpty }
                return Diagnostic(
                    .error, "'\(miss.name)' is not a part of \(owner.map { "'\($0)'" } ?? "this value") in \(context())",
                    at: tag?.location ?? SourceLocation(file: template.path),
                    hint: (Suggestions.didYouMean(miss.name, in: available).map { $0 + " " } ?? "")
                        + (available.isEmpty ? "it has no parts" : "its parts are: " + available.joined(separator: ", ")))
            })
        }
        if !scope.unknownAssets.isEmpty {
            throw failure(scope.unknownAssets.map { (tag, name) in
                Diagnostic(
                    .error, "no stylesheet or script '\(name)' to fingerprint for {{#\(tag)}} in \(context())", at: sources.location(ofLambda: tag, argument: name),
                    hint: Suggestions.didYouMean(name, in: fingerprints.entries.keys).map { $0 + " " } ?? "{{#asset}} takes the path of a .css or .js file of static/, such as assets/site.css")
            })
        }
        if !scope.pictureProblems.isEmpty {
            throw failure(scope.pictureProblems.map { call in
                Diagnostic(.error, call.problem.message + " in \(context())", at: sources.location(ofLambda: "picture", argument: call.argument), hint: call.problem.hint)
            })
        }
        // A key that exists but is used wrongly (plural forms without count=) is a template error,
        // whatever `missingTranslations` says.
        let misused = scope.missingTranslations.filter { translator?.table[$0.key] != nil }
        if !misused.isEmpty {
            throw failure(misused.map { use in
                Diagnostic(
                    .error, (use.error.diagnostics.first?.message ?? "translation '\(use.key)' cannot be used here") + use.builtBy + " in \(context())",
                    at: sources.location(ofTranslation: use.tagText), hint: use.error.diagnostics.first?.hint)
            })
        }
        let missing = scope.missingTranslations.filter { translator?.table[$0.key] == nil }
        if !missing.isEmpty, translator?.table.isIncomplete != true {
            let diagnostics = missing.map { missing in
                Diagnostic(
                    missingTranslations, "missing translation '\(missing.key)'\(missing.builtBy) for language '\(translator?.language ?? "")' in \(context())",
                    at: sources.location(ofTranslation: missing.tagText), hint: missing.hint(table: translator?.table))
            }
            if missingTranslations == .error { throw failure(diagnostics) }
            sources.noted(diagnostics).forEach { warnings?.report($0) }
        }
        if !scope.invalidCounts.isEmpty {
            throw failure(scope.invalidCounts.map { problem in
                Diagnostic(
                    .error, "the count of translation '\(problem.key)' in \(context()) is not a number: '\(problem.variable)' is absent or not a number field",
                    at: sources.location(ofTranslation: problem.key),
                    hint: "give count= a number, percent or currency field that has a value (wrap the tag in {{#\(problem.variable)}}…{{/\(problem.variable)}} for optional fields)")
            })
        }
        guard scope.missing.isEmpty else {
            throw failure(scope.missing.map { name in
                // A shell wraps many components: the same mistake is one error, not one per component.
                if template.kind == .shell {
                    let names = ["body", "component", "page", "site", "t"]
                    return Diagnostic(
                        .error, "'\(name)' is not a value of shell '\(template.name)' nor a field of any component", at: sources.location(of: name),
                        hint: (Suggestions.didYouMean(name, in: names).map { $0 + " " } ?? "")
                            + "a shell receives: \(names.joined(separator: ", ")) and the fields of the component it wraps")
                }
                return Diagnostic(
                    .error, "'\(name)' is not a value of \(context())", at: sources.location(of: name),
                    hint: (Suggestions.didYouMean(name, in: scope.names).map { $0 + " " } ?? "")
                        + "\(template.kind == .layout ? "a layout" : "this template") receives: \(scope.names.joined(separator: ", "))")
            })
        }
        return html
    }
}
