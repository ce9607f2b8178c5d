import Foundation

/// The root of a render's context stack. A name is asked here last, so a name the root does not
/// have is a name nothing in the stack has: a missing variable, recorded to be reported as an error.
///
/// Made for one render and used on its thread, as `MustacheRendering` is: its variables skip
/// the run-time exclusivity check for the same reasons (nine checks a render).
final class TemplateScope {
    /// Looked up in this order: what this render adds (`body`, rendered children), the
    /// component's fields, then what every template of the page gets (`site`, `page`).
    /// Short lists scanned by name: a render looks up every name it prints here, and a hash
    /// per lookup cost more than comparing a few short names.
    /// Names apart from values: a scan that copied each (name, value) pair cost more than the
    /// comparisons.
    private let values: Values
    private let fields: ViewObject?
    private let common: Values
    @exclusivity(unchecked) private(set) var missing: [String] = []
    /// Translation keys `t` could not find, with the error each gave.
    @exclusivity(unchecked) private(set) var missingTranslations: [MissingTranslation] = []

    /// Names that are null rather than missing when absent (a shell's view of fields that only
    /// some of the components it wraps declare).
    private let optionalNames: Set<String>

    init(_ values: [(String, TemplateValue)], fields: ViewObject? = nil, common: Values = Values([]), optionalNames: Set<String> = [], services: Services = .none) {
        self.values = Values(values)
        self.fields = fields
        self.common = common
        self.optionalNames = optionalNames
        self.services = services
    }

    /// What the helpers use, shared by the renders of a page: `t`'s strings (and the default
    /// language's, when a missing translation is a warning), the fingerprinted assets and the
    /// base path, `{{#picture}}` for the page at `pageURL`, and where assets and pictures used
    /// are recorded.
    final class Services: Sendable {
        let translator: Translator?
        let fallback: Translator?
        let fingerprints: AssetFingerprints
        let basePath: String
        let assetUse: AssetUse?
        let pictures: (helper: PictureHelper, pageURL: String, use: PictureUse)?

        init(translator: Translator?, fallback: Translator?, fingerprints: AssetFingerprints, basePath: String, assetUse: AssetUse?, pictures: (helper: PictureHelper, pageURL: String, use: PictureUse)?) {
            self.translator = translator
            self.fallback = fallback
            self.fingerprints = fingerprints
            self.basePath = basePath
            self.assetUse = assetUse
            self.pictures = pictures
        }

        /// No translations, no assets, no pictures.
        static let none = Services(translator: nil, fallback: nil, fingerprints: AssetFingerprints(), basePath: "/", assetUse: nil, pictures: nil)
    }

    /// Named values, the names apart. What every template of a page gets (`site`, `page`) is
    /// split once per page, not once for each of its components' and shells' renders.
    struct Values {
        let names: [String]
        let values: [TemplateValue]

        init(_ pairs: [(String, TemplateValue)]) {
            names = pairs.map(\.0)
            values = pairs.map(\.1)
        }
    }

    /// Plural translations whose count was not a number where they rendered.
    @exclusivity(unchecked) private(set) var invalidCounts: [Translator.CountProblem] = []

    func value(named name: String) -> TemplateValue? {
        // The last of a name wins, as in a dictionary filled in order.
        if let position = values.names.lastIndex(where: { $0.isKey(name) }) { return values.values[position] }
        if let value = fields?[name] { return .view(value) }
        if let position = common.names.firstIndex(where: { $0.isKey(name) }) { return common.values[position] }
        if let helper = helper(named: name) { return .helper(helper) }
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
    var names: [String] { Set(values.names).union(fields?.keys ?? []).union(common.names).union(translator == nil ? [] : ["t"]).sorted() }

    /// `{{#asset}}` / `{{#integrity}}` arguments that name no fingerprinted file.
    @exclusivity(unchecked) private(set) var unknownAssets: [(tag: String, name: String)] = []

    /// The helpers a template calls with a section's text. Offered by the scope itself, after the
    /// values: made once, not per render.
    enum Helper {
        /// `{{#t}}key{{/t}}`, `{{#t}}key count=field{{/t}}`
        case translate
        /// `{{#asset}}assets/site.css{{/asset}}`: the fingerprinted URL, with the base path.
        case asset
        /// `{{#integrity}}assets/site.css{{/integrity}}`: its `sha256-…` hash.
        case integrity
        /// `{{#picture}}/images/team.jpg alt="…"{{/picture}}`: its `<picture>` (`PictureHelper`).
        case picture

        /// Whether the section's tags are filled in before the call (else its text is passed as written).
        var fillsTags: Bool { self == .translate || self == .picture }
    }

    /// `{{#picture}}` calls that failed: the text as written, and why.
    @exclusivity(unchecked) private(set) var pictureProblems: [(argument: String, problem: PictureHelper.Problem)] = []

    private let services: Services
    private var translator: Translator? { services.translator }

    func helper(named name: String) -> Helper? {
        switch name {
        case "t": return translator == nil ? nil : .translate
        case "asset": return .asset
        case "integrity": return .integrity
        case "picture": return services.pictures == nil ? nil : .picture
        default: return nil
        }
    }

    /// Calls `helper` with a section's text. `written` is the text as the template wrote it, when
    /// the section's tags were rendered to make `text` (a translation key built from values), and
    /// `choices` gives the enum fields it printed, for a missing key's hint.
    func call(_ helper: Helper, with text: String, written: String? = nil, choices: () -> [MissingTranslation.Choice] = { [] }) -> LambdaResult {
        switch helper {
        case .asset, .integrity:
            let tag = helper == .asset ? "asset" : "integrity"
            let name = Self.trimmed(text)
            let key = AssetFingerprints.key(name)
            guard let entry = services.fingerprints.entries[key] else {
                if !unknownAssets.contains(where: { $0 == (tag, name) }) { unknownAssets.append((tag, name)) }
                return .literal("")
            }
            services.assetUse?.record(key, entry)
            return .literal(helper == .asset ? services.basePath + entry.path : entry.integrity)
        case .picture:
            guard let pictures = services.pictures else { return .literal("") }
            switch pictures.helper.picture(text, pageURL: pictures.pageURL) {
            case .success(let use):
                pictures.use.record(use)
                return .literal(use.html)
            case .failure(let problem):
                pictureProblems.append((Self.trimmed(written ?? text), problem))
                return .literal("")
            }
        case .translate:
            guard let call = translator?.call(text) else { return .literal("") }
            switch call.template {
            case .success(let template):
                return Self.result(template)
            case .failure(let error):
                if !missingTranslations.contains(where: { $0.key == call.key }) {
                    missingTranslations.append(MissingTranslation(key: call.key, written: written.map(Self.trimmed), error: error, choices: choices()))
                }
                return Self.result((try? services.fallback?.template(call.key, countVariable: call.countVariable)) ?? call.key)
            }
        }
    }

    /// `text` as literal text when it has no Mustache tags, else as a template to render.
    static func result(_ text: String) -> LambdaResult {
        var previous: UInt8 = 0
        for byte in text.utf8 {
            if byte == 0x7B && previous == 0x7B { return .template(text) }
            previous = byte
        }
        return .literal(text)
    }

    /// `text` without the spaces and line breaks around it.
    static func trimmed(_ text: String) -> String {
        guard let (first, last) = text.keptEnds(cutting: { $0 == 32 || $0 == 9 || $0 == 10 || $0 == 13 }) else { return "" }
        if first == text.utf8.startIndex && last == text.utf8.index(before: text.utf8.endIndex) { return text }
        return String(text[first...last])
    }
}
