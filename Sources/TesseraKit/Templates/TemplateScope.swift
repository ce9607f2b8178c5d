import Foundation
import Mustache

/// The root of a render's context stack. Mustache asks the root last, so a name the root does not
/// have is a name nothing in the stack has: a missing variable, recorded to be reported as an error.
final class TemplateScope: MustacheParent {
    private var values: [String: Any]
    private(set) var missing: [String] = []
    /// Translation keys `t` could not find, with the error each gave.
    private(set) var missingTranslations: [(key: String, error: TesseraError)] = []

    /// Names that are null rather than missing when absent (a shell's view of fields that only
    /// some of the components it wraps declare).
    private let optionalNames: Set<String>

    init(_ values: [String: Any], optionalNames: Set<String> = []) {
        self.values = values
        self.optionalNames = optionalNames
    }

    /// Plural translations whose count was not a number where they rendered.
    private(set) var invalidCounts: [Translator.CountProblem] = []

    func child(named name: String) -> Any? {
        if let value = values[name] { return value }
        if optionalNames.contains(name) { return ViewValue.null }
        if let problem = Translator.CountProblem(name: name) {
            let root = MustacheTag(kind: .variable, name: problem.variable, line: 0, column: 0).rootName
            if !invalidCounts.contains(problem) && !missing.contains(root) { invalidCounts.append(problem) }
            return ""
        }
        if !missing.contains(name) { missing.append(name) }
        return nil
    }

    var names: [String] { values.keys.sorted() }

    /// Offers `{{#t}}key{{/t}}` and `{{#t}}key count=field{{/t}}`: the translation becomes a
    /// template rendered in place, so its `{name}` placeholders are the context's values, escaped.
    func provideTranslations(_ translator: Translator, fallback: Translator?) {
        values["t"] = MustacheLambda { [unowned self] (text: String) -> Any? in
            let words = text.split(whereSeparator: \.isWhitespace).map(String.init)
            guard let key = words.first else { return "" }
            let count = words.dropFirst().first { $0.hasPrefix("count=") }.map { String($0.dropFirst("count=".count)) }
            do {
                return try translator.template(key, countVariable: count)
            } catch let error as TesseraError {
                if !missingTranslations.contains(where: { $0.key == key }) { missingTranslations.append((key, error)) }
                return (try? fallback?.template(key, countVariable: count)) ?? key
            } catch {
                return key
            }
        }
    }
}
