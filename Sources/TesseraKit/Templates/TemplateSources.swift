import Foundation

/// The templates one render read, to place its errors: the template, the partials it names, and
/// the partials values named through `{{>*name}}`, which no scan before rendering can know.
///
/// The parser keeps no positions (rendering stays lean), so a problem found while rendering is
/// placed at the first tag of these templates that can have caused it.
struct TemplateSources {
    let template: CompiledTemplate
    let library: TemplateLibrary
    /// The templates searched, in order: the template, its static partials, then each partial
    /// included by value with the partials it names.
    let candidates: [CompiledTemplate]
    /// File of a partial reached only through `{{>*name}}` → which template includes it, where.
    private let inclusions: [String: String]

    init(_ template: CompiledTemplate, library: TemplateLibrary, includes: [DynamicInclude]) {
        self.template = template
        self.library = library
        var candidates = [template] + library.partialClosure(of: template)
        var inclusions: [String: String] = [:]
        for include in includes where include.problem == nil {
            guard let partial = library.partials[include.partial] else { continue }
            let tag = Self.tag(of: include, template: template, library: library)
            for reached in [partial] + library.partialClosure(of: partial) where !candidates.contains(where: { $0.key == reached.key }) {
                candidates.append(reached)
                let at = "{{>*\(include.tag)}}" + (tag.map { " at \($0.template.key).mustache:\($0.tag.line):\($0.tag.column)" } ?? "")
                inclusions[reached.path] = reached.key == partial.key
                    ? "partial '\(partial.name)' is included by \(at)"
                    : "partial '\(reached.name)' is included by partial '\(partial.name)', which \(at) includes"
            }
        }
        self.candidates = candidates
        self.inclusions = inclusions
    }

    /// The `{{>*name}}` tag of `include`, and the template that holds it.
    static func tag(of include: DynamicInclude, template: CompiledTemplate, library: TemplateLibrary) -> (template: CompiledTemplate, tag: MustacheTag)? {
        guard let holder = include.includer.map({ library.partials[$0] }) ?? template else { return nil }
        let tag = holder.tags.first { ($0.kind == .partial || $0.kind == .parent) && $0.name.replacingOccurrences(of: " ", with: "") == "*" + include.tag }
        return tag.map { (holder, $0) }
    }

    /// Where `include`'s tag is.
    func location(of include: DynamicInclude) -> SourceLocation {
        guard let (holder, tag) = Self.tag(of: include, template: template, library: library) else { return SourceLocation(file: template.path) }
        return SourceLocation(file: holder.path, line: tag.line, column: tag.column)
    }

    /// `diagnostics` with, for each placed in a partial that a value named, which template
    /// included it: the partial's name is not in the template, so the reader needs the way there.
    func noted(_ diagnostics: [Diagnostic]) -> [Diagnostic] {
        diagnostics.map { diagnostic in
            guard let file = diagnostic.location?.file, let inclusion = inclusions[file] else { return diagnostic }
            var noted = diagnostic
            noted.message += " (\(inclusion))"
            return noted
        }
    }

    /// Where `{{#tag}}argument` is.
    /// The first line of `argument` is looked for (an argument may span lines), else the first
    /// use of the tag.
    func location(ofLambda tag: String, argument: String) -> SourceLocation {
        let start = "{{#\(tag)}}", first = argument.prefix { $0 != "\n" }
        return firstMatch { $0.range(of: start + first) ?? $0.range(of: start + " " + first) } ?? firstLine { $0.range(of: start) }
    }

    /// Where a translation is asked for: `{{#t}}` followed by `text` (its key, as written).
    func location(ofTranslation text: String) -> SourceLocation {
        firstLine { $0.range(of: "{{#t}}" + text) ?? $0.range(of: "{{#t}} " + text) }
    }

    /// The first tag whose dotted name asks for `part` after its first name.
    func dottedTag(withPart part: String) -> (name: String, location: SourceLocation)? {
        for candidate in candidates {
            if let tag = candidate.tags.first(where: { [.variable, .section, .invertedSection].contains($0.kind) && $0.name.split(separator: ".").dropFirst().contains(Substring(part)) }) {
                return (tag.name, SourceLocation(file: candidate.path, line: tag.line, column: tag.column))
            }
        }
        return nil
    }

    /// Where `name` is printed with `{{name}}` or `{{{name}}}`.
    func location(ofVariable name: String) -> SourceLocation {
        for candidate in candidates {
            if let tag = candidate.tags.first(where: { $0.name == name && $0.kind == .variable }) {
                return SourceLocation(file: candidate.path, line: tag.line, column: tag.column)
            }
        }
        return location(of: name)
    }

    /// Where `name` is first used.
    func location(of name: String) -> SourceLocation {
        for candidate in candidates {
            if let tag = candidate.tags.first(where: { $0.rootName == name && [.variable, .section, .invertedSection].contains($0.kind) }) {
                return SourceLocation(file: candidate.path, line: tag.line, column: tag.column)
            }
        }
        return SourceLocation(file: template.path)
    }

    /// The first line of a candidate where `match` finds something, at the match.
    private func firstLine(_ match: (String) -> Range<String.Index>?) -> SourceLocation {
        firstMatch(match) ?? SourceLocation(file: template.path)
    }

    private func firstMatch(_ match: (String) -> Range<String.Index>?) -> SourceLocation? {
        for candidate in candidates {
            for (number, line) in candidate.text.components(separatedBy: "\n").enumerated() {
                if let range = match(line) {
                    return SourceLocation(file: candidate.path, line: number + 1, column: line.distance(from: line.startIndex, to: range.lowerBound) + 1)
                }
            }
        }
        return nil
    }
}
