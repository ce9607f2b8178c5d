import Foundation

/// The root of a render's context stack. A name is asked here last, so a name the root does not
/// have is a name nothing in the stack has: a missing variable, recorded to be reported as an error.
final class TemplateScope {
    private var values: [String: TemplateValue]
    private(set) var missing: [String] = []
    /// Translation keys `t` could not find, with the error each gave.
    private(set) var missingTranslations: [(key: String, error: TesseraError)] = []

    /// Names that are null rather than missing when absent (a shell's view of fields that only
    /// some of the components it wraps declare).
    private let optionalNames: Set<String>

    init(_ values: [String: TemplateValue], optionalNames: Set<String> = []) {
        self.values = values
        self.optionalNames = optionalNames
    }

    /// Plural translations whose count was not a number where they rendered.
    private(set) var invalidCounts: [Translator.CountProblem] = []

    func value(named name: String) -> TemplateValue? {
        if let value = values[name] { return value }
        if optionalNames.contains(name) { return .null }
        if let problem = Translator.CountProblem(name: name) {
            let root = MustacheTag(kind: .variable, name: problem.variable, line: 0, column: 0).rootName
            if !invalidCounts.contains(problem) && !missing.contains(root) { invalidCounts.append(problem) }
            return .text("")
        }
        if !missing.contains(name) { missing.append(name) }
        return nil
    }

    /// What a template receives, for hints; the asset helpers are documented, not listed.
    var names: [String] { values.keys.filter { $0 != "asset" && $0 != "integrity" }.sorted() }

    /// `{{#asset}}` / `{{#integrity}}` arguments that name no fingerprinted file.
    private(set) var unknownAssets: [(tag: String, name: String)] = []

    /// Offers `{{#asset}}assets/site.css{{/asset}}` (the fingerprinted URL, with the base path)
    /// and `{{#integrity}}assets/site.css{{/integrity}}` (its `sha256-…` hash).
    func provideAssets(_ fingerprints: AssetFingerprints, basePath: String, use: AssetUse?) {
        for tag in ["asset", "integrity"] {
            values[tag] = .lambda { [unowned self] text in
                let name = text.trimmingCharacters(in: .whitespacesAndNewlines)
                let key = AssetFingerprints.key(name)
                guard let entry = fingerprints.entries[key] else {
                    if !unknownAssets.contains(where: { $0 == (tag, name) }) { unknownAssets.append((tag, name)) }
                    return .literal("")
                }
                use?.record(key, entry)
                return .literal(tag == "asset" ? basePath + entry.path : entry.integrity)
            }
        }
    }

    /// Offers `{{#t}}key{{/t}}` and `{{#t}}key count=field{{/t}}`: the translation becomes a
    /// template rendered in place, so its `{name}` placeholders are the context's values, escaped.
    func provideTranslations(_ translator: Translator, fallback: Translator?) {
        values["t"] = .lambda { [unowned self] text in
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let key = words.first else { return .literal("") }
            let count = words.dropFirst().first { $0.hasPrefix("count=") }.map { String($0.dropFirst("count=".count)) }
            do {
                return Self.result(try translator.template(key, countVariable: count))
            } catch let error as TesseraError {
                if !missingTranslations.contains(where: { $0.key == key }) { missingTranslations.append((key, error)) }
                return Self.result((try? fallback?.template(key, countVariable: count)) ?? key)
            } catch {
                return .literal(key)
            }
        }
    }

    /// `text` as literal text when it has no Mustache tags, else as a template to render.
    static func result(_ text: String) -> LambdaResult {
        text.contains("{{") ? .template(text) : .literal(text)
    }
}
