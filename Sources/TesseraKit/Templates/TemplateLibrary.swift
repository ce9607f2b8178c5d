import Foundation

/// Every template of a build, compiled once: layouts, section layouts, shells, component bodies
/// and partials, the site's files taking the place of the theme's.
public struct TemplateLibrary: Sendable {
    public private(set) var layouts: [String: CompiledTemplate] = [:]
    public private(set) var sections: [String: CompiledTemplate] = [:]
    public private(set) var shells: [String: CompiledTemplate] = [:]
    public private(set) var components: [String: CompiledTemplate] = [:]
    public private(set) var partials: [String: CompiledTemplate] = [:]
    /// Render hooks (`markdown/heading.mustache`), by the element they write.
    public private(set) var hooks: [String: CompiledTemplate] = [:]
    /// Keys (`shells/card`) of templates that exist but did not compile; already reported, so
    /// nothing that names them is reported again as unknown.
    public private(set) var broken: Set<String> = []
    /// Template key → its own key and those of every partial it uses, directly or not: what a
    /// page depends on when it renders that template. Computed once per build, not per render.
    public private(set) var dependencies: [String: Set<String>] = [:]

    /// Compiles the theme's templates; problems go to `diagnostics`, the templates that compile are kept.
    public static func load(theme: Theme, registry: ComponentRegistry, diagnostics: DiagnosticCollector) -> TemplateLibrary {
        var library = TemplateLibrary()
        var broken = Set<String>()
        func compile(_ folder: Theme.Folder, _ kind: CompiledTemplate.Kind) -> [String: CompiledTemplate] {
            var result: [String: CompiledTemplate] = [:]
            for (relative, path) in theme.files(in: folder, problems: diagnostics) where relative.hasSuffix(".mustache") {
                let name = String(relative.dropLast(".mustache".count))
                if let template = diagnostics.attempt(at: SourceLocation(file: path), {
                    try CompiledTemplate(kind: kind, name: name, path: path, text: try FileTree.readText(path))
                }) {
                    result[name] = template
                } else {
                    broken.insert(kind.folder + "/" + name)
                }
            }
            return result
        }
        library.layouts = compile(.layouts, .layout)
        library.sections = compile(.sections, .section)
        library.shells = compile(.shells, .shell)
        library.partials = compile(.partials, .partial)
        library.hooks = compile(.markdown, .hook)
        for (name, template) in library.hooks where MarkdownHooks.Element(rawValue: name) == nil {
            library.hooks[name] = nil
            let names = MarkdownHooks.Element.allCases.map(\.rawValue)
            diagnostics.report(Diagnostic(
                .error, "'\(name)' is not a Markdown element a render hook can write", at: SourceLocation(file: template.path),
                hint: (Suggestions.didYouMean(name, in: names).map { $0 + " " } ?? "") + "the hooks are markdown/\(names.joined(separator: ", markdown/")) (.mustache)"))
        }
        for definition in registry.definitions.values {
            if let path = definition.templatePath {
                if let template = diagnostics.attempt(at: SourceLocation(file: path), {
                    try CompiledTemplate(kind: .component, name: definition.code, path: path, text: try FileTree.readText(path))
                }) {
                    library.components[definition.code] = template
                } else {
                    broken.insert("components/" + definition.code)
                }
            } else if let text = definition.model?.defaultTemplate {
                library.components[definition.code] = try? CompiledTemplate(kind: .component, name: definition.code, path: "(built in)", text: text)
            }
        }
        library.broken = broken
        library.checkPartialReferences(into: diagnostics)
        library.checkPartialCycles(into: diagnostics)
        library.dependencies = Dictionary(uniqueKeysWithValues: library.all.map { template in
            (template.key, Set([template.key] + library.partialClosure(of: template).map(\.key)))
        })
        return library
    }

    /// Template key → source text, to compare two builds' templates.
    public var sources: [String: String] {
        Dictionary(all.map { ($0.key, $0.text) }, uniquingKeysWith: { first, _ in first })
    }

    public var all: [CompiledTemplate] {
        [layouts, sections, shells, components, partials, hooks].flatMap { $0.values }.sorted { $0.key < $1.key }
    }

    /// A `{{> name}}` with no `partials/name.mustache` would render as nothing; it is an error instead.
    func checkPartialReferences(into diagnostics: DiagnosticCollector) {
        for template in all {
            for tag in template.tags where (tag.kind == .partial || tag.kind == .parent) && !tag.name.hasPrefix("*") {
                guard partials[tag.name] == nil, !broken.contains("partials/" + tag.name) else { continue }
                diagnostics.report(Diagnostic(
                    .error, "unknown partial '\(tag.name)'", at: SourceLocation(file: template.path, line: tag.line, column: tag.column),
                    hint: Suggestions.didYouMean(tag.name, in: partials.keys) ?? "create partials/\(tag.name).mustache in the site or the theme"))
            }
        }
    }

    /// A partial that includes itself, directly or through others, would render forever (the
    /// Mustache library recurses without limit): each cycle is an error naming its path.
    func checkPartialCycles(into diagnostics: DiagnosticCollector) {
        var reported = Set<Set<String>>()
        for start in partials.keys.sorted() {
            // Depth-first over the partial graph from `start`, looking for a way back to it.
            var stack: [(name: String, path: [String])] = [(start, [start])]
            var visited = Set<String>()
            while let (name, path) = stack.popLast() {
                guard let partial = partials[name] else { continue }
                for tag in partial.tags where tag.kind == .partial || tag.kind == .parent {
                    if tag.name == start {
                        let cycle = path + [start]
                        guard reported.insert(Set(path)).inserted else { continue }
                        diagnostics.report(Diagnostic(
                            .error, "partial '\(start)' includes itself: \(cycle.joined(separator: " → "))",
                            at: SourceLocation(file: partial.path, line: tag.line, column: tag.column),
                            hint: "a partial cannot include itself, even through others; render nested items with a container component instead"))
                    } else if visited.insert(tag.name).inserted {
                        stack.append((tag.name, path + [tag.name]))
                    }
                }
            }
        }
    }

    /// The partials a template uses, directly or through other partials.
    func partialClosure(of template: CompiledTemplate) -> [CompiledTemplate] {
        var seen = Set<String>(), result: [CompiledTemplate] = [], queue = template.partialNames
        while let name = queue.popLast() {
            guard seen.insert(name).inserted, let partial = partials[name] else { continue }
            result.append(partial)
            queue.append(contentsOf: partial.partialNames)
        }
        return result
    }
}
