import Foundation

/// What a template can be given: view data, final text, rendered components, or a helper such as
/// `{{#t}}`. A closed set, so a lookup is a `switch`, never a dynamic cast.
enum TemplateValue {
    case view(ViewValue)
    /// Text as it is: a shell's `body`, a section's rendered header, an item's `index`.
    case text(String)
    /// Rendered components or sections: `{{{items}}}` prints them all, `{{#items}}` iterates them.
    case rendered(RenderedList)
    /// An item of a list being iterated, by its place: the list and an index are two words,
    /// where the item itself (five strings) made every value of a render's stack ten words.
    case item(RenderedList, Int)
    /// One of the root scope's helpers (`t`, `asset`, `integrity`): `{{#t}}key{{/t}}` calls it
    /// with the section's text, as a Mustache lambda.
    case helper(TemplateScope.Helper)

    static var null: TemplateValue { .view(.null) }

    /// A part of this value: a key of an object, a part of a formatted value or a list item.
    /// `subKey` is true for every name after the first of `a.b.c`: a part the value lacks is
    /// then a mistake, recorded with the parts it has.
    func child(_ name: String, subKey: Bool, rendering: MustacheRendering) -> TemplateValue? {
        switch self {
        case .view(.object(let object)):
            if let value = object[name] { return .view(value) }
            if subKey && !object.isOpen { rendering.recordMissingPart(name, available: object.keys) }
            return nil
        case .view(.formatted(let text, let object)):
            if name == "text" { return .text(text) }
            if let value = object[name] { return .view(value) }
            if subKey { rendering.recordMissingPart(name, available: ["text"] + object.keys) }
            return nil
        case .item(let list, let index):
            if let value = list.items[index].part(name) { return value }
            if subKey { rendering.recordMissingPart(name, available: RenderedList.Item.parts) }
            return nil
        default:
            return nil
        }
    }
}

/// What a helper returns: text printed as it is, or a template rendered in place (a translation
/// with `{name}` placeholders).
enum LambdaResult {
    case literal(String)
    case template(String)
}

/// One render of a template and the partials it includes: the context stack, and what went wrong.
///
/// Its variables skip Swift's run-time exclusivity check, which this class needs no more than a
/// struct does: one render on one thread owns it, only its own methods touch them, one at a
/// time, and none holds an access across a call that could reach it. The stack is read by every
/// tag's lookup (0.7% of a feed build's instructions were its checks), and the check on the
/// problems recorded was one more per lookup.
final class MustacheRendering {
    let partials: [String: CompiledTemplate]
    let root: TemplateScope
    /// The values sections pushed, innermost last; the root scope is below them all.
    @exclusivity(unchecked) private var stack: [TemplateValue] = []
    @exclusivity(unchecked) private var partialDepth = 0

    /// Sub-keys a value lacked (`{{date.isoo}}`): the name, and the parts the value has.
    @exclusivity(unchecked) private(set) var missingParts: [SubKeyMiss] = []
    /// Lists and objects printed as text (`{{tags}}`): the tag's name and what the value is.
    @exclusivity(unchecked) private(set) var unprintable: [(name: String, kind: String, parts: [String])] = []
    /// Partials nested past `maxPartialDepth` through `{{>*name}}`.
    @exclusivity(unchecked) private(set) var tooDeep: String?
    /// Every `{{>*name}}` met, once each: what it included, or why nothing.
    @exclusivity(unchecked) private(set) var includes: [DynamicInclude] = []
    /// The partial being rendered; nil in the template itself.
    @exclusivity(unchecked) private var currentPartial: String?

    static let maxPartialDepth = 100

    init(partials: [String: CompiledTemplate], root: TemplateScope) {
        self.partials = partials
        self.root = root
    }

    /// How the nodes render here: set per template, partials and blocks add to it.
    struct Environment {
        var escapes = true
        /// Set inside a partial that stands alone on an indented line.
        var indentation: String?
        /// Blocks a `{{<parent}}` overrides.
        var overrides: [String: [MustacheNode]]?
    }

    /// `escaping: false` prints values as they are: plain text such as an accessibility label.
    func render(_ syntax: MustacheSyntax, escaping: Bool = true) -> String {
        // Twice the template's own text: values and partials make the output longer, and the
        // hint alone left nearly every render to grow its memory once.
        let out = RenderOutput(capacity: syntax.sizeHint * 2)
        render(syntax.nodes, Environment(escapes: escaping), into: out)
        return out.string
    }

    func recordMissingPart(_ name: String, available: [String]) {
        let miss = SubKeyMiss(name: name, available: available)
        if !missingParts.contains(miss) { missingParts.append(miss) }
    }

    // MARK: Nodes

    private func render(_ nodes: [MustacheNode], _ environment: Environment, into out: RenderOutput) {
        var environment = environment
        guard let indentation = environment.indentation, !indentation.isEmpty else {
            for node in nodes { render(node, &environment, into: out) }
            return
        }
        // In an indented partial, a node's output that starts a line is indented (per render of
        // a node list, as swift-mustache does): when what this list wrote before it ends with a
        // line break, a `Character` of its own ("\r\n" is one, and ends no line here).
        let start = out.count
        for node in nodes {
            let piece = out.count
            render(node, &environment, into: out)
            guard out.count > piece, piece > start, out.byte(at: piece - 1) == 0x0A, piece - 1 == start || out.byte(at: piece - 2) != 0x0D else { continue }
            out.insert(indentation, at: piece)
        }
    }

    private func render(_ node: MustacheNode, _ environment: inout Environment, into out: RenderOutput) {
        switch node {
        case .text(let text):
            out.append(text)

        case .variable(let name, let escaped):
            if isViewData(name) {
                // `{{.}}` at the top is the view data itself: an object, with no text to print.
                if !unprintable.contains(where: { $0.name == name.text }) { unprintable.append((name.text, "view data", root.names)) }
                break
            }
            print(lookup(name), name: name, escaped: escaped && environment.escapes, environment, into: out)

        case .section(let name, let nodes, let source):
            if isViewData(name) {
                // `{{#.}}` at the top: the view data, an object, is already the context.
                render(nodes, environment, into: out)
                break
            }
            switch lookup(name) {
            case nil, .view(.null), .view(.components), .view(.bool(false)):
                break
            case .view(.bool(true)):
                render(nodes, environment, into: out)
            case .view(.list(let items)):
                for item in items { inside(.view(item)) { render(nodes, environment, into: out) } }
            case .rendered(let list):
                for index in list.items.indices { inside(.item(list, index)) { render(nodes, environment, into: out) } }
            case .helper(let helper):
                apply(call(helper, nodes, source: source, environment), escaped: false, environment, into: out)
            case let value?:
                inside(value) { render(nodes, environment, into: out) }
            }

        case .invertedSection(let name, let nodes):
            // `{{^.}}` at the top: the view data is an object, which is never empty.
            if isViewData(name) { break }
            switch lookup(name) {
            case nil, .view(.null), .view(.components), .view(.bool(false)):
                render(nodes, environment, into: out)
            case .view(.list(let items)) where items.isEmpty:
                render(nodes, environment, into: out)
            case .rendered(let list) where list.items.isEmpty:
                render(nodes, environment, into: out)
            default:
                break
            }

        case .partial(let written, let dynamic, let indentation, let overrides):
            var name = written
            if dynamic {
                guard let named = partialName(written) else { return }
                name = named
            }
            guard let partial = partials[name] else { return }
            guard partialDepth < Self.maxPartialDepth else {
                tooDeep = tooDeep ?? name
                return
            }
            var inner = Environment(escapes: true, indentation: environment.indentation, overrides: environment.overrides)
            if let indentation { inner.indentation = (environment.indentation ?? "") + indentation }
            if let overrides {
                // The outermost template's blocks win over those of the templates it includes.
                inner.overrides = (environment.overrides ?? [:]).merging(overrides) { outer, _ in outer }
            }
            let includer = currentPartial
            currentPartial = name
            partialDepth += 1
            render(partial.syntax.nodes, inner, into: out)
            partialDepth -= 1
            currentPartial = includer

        case .block(let name, let defaultNodes, let indentation):
            var inner = environment
            if let indentation { inner.indentation = (environment.indentation ?? "") + indentation }
            render(environment.overrides?[name] ?? defaultNodes, inner, into: out)

        case .contentType(let escapes):
            environment.escapes = escapes
        }
    }

    /// `.` outside every section: the template's view data, which the root scope holds.
    private func isViewData(_ name: MustacheName) -> Bool {
        name.parts.isEmpty && stack.isEmpty
    }

    /// The partial `{{>*written}}` names, recorded with the template that holds the tag; nil when
    /// the value is absent (nothing to include, as a section over it renders nothing), is not
    /// text, or names no partial (those two are errors the renderer reports at the tag).
    private func partialName(_ written: String) -> String? {
        let name = MustacheName(written)
        var include = DynamicInclude(tag: written, includer: currentPartial, partial: "")
        if isViewData(name) {
            include.problem = .notAName("the template's view data, an object")
        } else {
            switch lookup(name) {
            case nil, .view(.null)?, .view(.components)?:
                return nil
            case .view(.string(let text))?, .view(.formatted(let text, _))?, .text(let text)?:
                include.partial = text
            case .view(.number(let number))?:
                include.partial = ViewValue.number(number).text ?? ""
            case .view(.bool)?:
                include.problem = .notAName("true or false")
            case .view(.list)?, .rendered?:
                include.problem = .notAName("a list")
            case .view(.object)?, .item?:
                include.problem = .notAName("an object")
            case .helper?:
                include.problem = .notAName("a helper")
            }
        }
        if include.problem == nil && partials[include.partial] == nil { include.problem = .unknownPartial }
        if !includes.contains(include) { includes.append(include) }
        return include.problem == nil ? include.partial : nil
    }

    /// Calls a helper with a section's text. A translation key built from values
    /// (`{{#t}}goal.status.{{status}}{{/t}}`) is rendered first, unescaped, so the key looked up
    /// is `goal.status.paused`; the enum values such a tag can take go along for the hint. A
    /// picture's path and options are filled in the same way.
    private func call(_ helper: TemplateScope.Helper, _ nodes: [MustacheNode], source: String, _ environment: Environment) -> LambdaResult {
        guard helper.fillsTags, nodes.contains(where: { if case .text = $0 { false } else { true } }) else {
            return root.call(helper, with: source)
        }
        var plain = environment
        plain.escapes = false
        let written = RenderOutput(capacity: 64)
        render(nodes, plain, into: written)
        let key = written.string
        return root.call(helper, with: key, written: source) {
            // Asked only when the key is missing: the enum tags of the key, and the key each
            // other value builds (the same nodes with that value in the tag's place).
            var choices: [MissingTranslation.Choice] = []
            for (index, node) in nodes.enumerated() {
                guard case .variable(let name, _) = node, case .view(.formatted(let value, let object))? = lookup(name),
                      object.keys.first == "value", object[value] == .bool(true) else { continue }
                let otherKeys = object.keys.dropFirst().filter { $0 != value }.map { other in
                    var nodes = nodes
                    nodes[index] = .text(other)
                    let rendered = RenderOutput(capacity: 64)
                    render(nodes, plain, into: rendered)
                    return rendered.string
                }
                choices.append(MissingTranslation.Choice(name: name.text, value: value, otherKeys: otherKeys))
            }
            return choices
        }
    }

    private func inside(_ value: TemplateValue, _ body: () -> Void) {
        stack.append(value)
        body()
        stack.removeLast()
    }

    private func print(_ value: TemplateValue?, name: MustacheName, escaped: Bool, _ environment: Environment, into out: RenderOutput) {
        switch value {
        case nil, .view(.null)?, .view(.components)?:
            break
        case .view(.bool(let flag))?:
            out.append(flag ? "true" as StaticString : "false")
        case .view(.string(let text))?, .view(.formatted(let text, _))?, .text(let text)?:
            append(text, escaped: escaped, into: out)
        case .view(let number)? where number.isNumber:
            out.append(number.text ?? "")
        case .view(.list)?:
            if !unprintable.contains(where: { $0.name == name.text }) { unprintable.append((name.text, "list", [])) }
        case .view(.object(let object))?:
            if !unprintable.contains(where: { $0.name == name.text }) { unprintable.append((name.text, "object", object.keys)) }
        case .item?:
            if !unprintable.contains(where: { $0.name == name.text }) { unprintable.append((name.text, "object", RenderedList.Item.parts)) }
        case .rendered(let list)?:
            append(list.renderText, escaped: escaped, into: out)
        case .helper(let helper)?:
            apply(root.call(helper, with: ""), escaped: escaped, environment, into: out)
        case .view?:
            break
        }
    }

    /// A helper's result: literal text, or a template rendered in the current context.
    private func apply(_ result: LambdaResult, escaped: Bool, _ environment: Environment, into out: RenderOutput) {
        switch result {
        case .literal(let text):
            append(text, escaped: escaped, into: out)
        case .template(let text):
            guard let syntax = MustacheSyntax.cached(escaped ? HTMLEscape.escaped(text) : text) else { return }
            render(syntax.nodes, environment, into: out)
        }
    }

    @inline(__always)
    private func append(_ text: String, escaped: Bool, into out: RenderOutput) {
        if escaped { HTMLEscape.append(text, to: out) } else { out.append(text) }
    }

    // MARK: Names

    /// The value `name` stands for: its first part looked up from the innermost value out to the
    /// root scope (which records a name nothing has), each later part on the value found.
    func lookup(_ name: MustacheName) -> TemplateValue? {
        guard let first = name.parts.first else { return stack.last }
        var value: TemplateValue?
        if name.currentOnly {
            value = stack.last.map { $0.child(first, subKey: false, rendering: self) } ?? root.value(named: first)
        } else {
            for frame in stack.reversed() {
                if let found = frame.child(first, subKey: false, rendering: self) { value = found; break }
            }
            if value == nil { value = root.value(named: first) }
        }
        var index = 1
        while index < name.parts.count {
            guard let current = value else { return nil }
            value = current.child(name.parts[index], subKey: name.strict, rendering: self)
            index += 1
        }
        return value
    }
}

/// A sub-key a value lacked: the name, and the parts it has.
struct SubKeyMiss: Sendable, Equatable {
    var name: String
    var available: [String]
}

extension ViewValue {
    var isNumber: Bool {
        if case .number = self { return true }
        return false
    }
}

extension MustacheSyntax {
    private static let cache = ParsedTemplates()

    /// `text` parsed once per process (translations with placeholders render on every page),
    /// with lenient sub-keys; nil when it does not parse.
    static func cached(_ text: String) -> MustacheSyntax? {
        cache.syntax(text)
    }

    private final class ParsedTemplates: @unchecked Sendable {
        private let memo = Memo<String, MustacheSyntax?>(limit: 20_000)

        func syntax(_ text: String) -> MustacheSyntax? {
            memo.value(text) { try? MustacheSyntax(parsing: text, strict: false) }
        }
    }
}
