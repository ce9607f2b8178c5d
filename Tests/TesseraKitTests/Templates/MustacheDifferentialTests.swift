import Foundation
import Mustache
import Testing
@testable import TesseraKit

/// Tessera renders templates with its own Mustache engine; themes were written for swift-mustache.
/// Each case renders with both, on the same data, and the outputs must be the same bytes.
@Suite struct MustacheDifferentialTests {
    /// Test data, convertible to both engines' values.
    indirect enum Data {
        case text(String)
        case flag(Bool)
        case list([Data])
        case object([(String, Data)])

        var any: Any {
            switch self {
            case .text(let text): return text
            case .flag(let flag): return flag
            case .list(let items): return items.map(\.any)
            case .object(let pairs): return Dictionary(pairs.map { ($0.0, $0.1.any) }, uniquingKeysWith: { a, _ in a })
            }
        }

        var view: ViewValue {
            switch self {
            case .text(let text): return .string(text)
            case .flag(let flag): return .bool(flag)
            case .list(let items): return .list(items.map(\.view))
            case .object(let pairs): return .object(ViewObject(pairs.map { ($0.0, $0.1.view) }, isOpen: true))
            }
        }
    }

    static let data: [(String, Data)] = [
        ("name", .text("Ada")),
        ("title", .text("Root title")),
        ("html", .text("<a href=\"x\">'Tom' & \"Jerry\"</a>")),
        // Beyond ASCII, with bytes to escape between: a render's bytes become its text without a second check.
        ("intl", .text("Grüße <b>“Ω”</b> & 東京 'x' 👩‍💻 e\u{301} café\r\nß")),
        ("empty", .text("")),
        ("yes", .flag(true)),
        ("no", .flag(false)),
        ("which", .text("item")),
        ("tags", .list([.text("swift"), .text("<web>"), .text("feeds")])),
        ("none", .list([])),
        ("list", .list([
            .object([("name", .text("one")), ("done", .flag(true))]),
            .object([("name", .text("two")), ("done", .flag(false))]),
            .object([("name", .text("three & more"))]),
        ])),
        ("person", .object([("name", .text("Grace")), ("role", .object([("title", .text("Admiral"))]))])),
    ]

    static let partials: [String: String] = [
        "item": "<p>\n{{name}}\n</p>\n",
        "list": "<ul>\n{{#list}}\n  <li>{{name}}</li>\n{{/list}}\n</ul>\n",
        "inline": "[{{name}}]",
        "parent": "<h1>{{$title}}Default title{{/title}}</h1>\n{{$body}}\n  <p>default body</p>\n{{/body}}\n<footer>{{$footer}}{{name}}{{/footer}}</footer>\n",
        "grandparent": "{{<parent}}{{$footer}}grand footer{{/footer}}{{/parent}}",
        "nested": "<section>\n  {{> item}}\n  {{#yes}}\n  {{> inline}}\n  {{/yes}}\n</section>\n",
        "crlf": "a\r\n{{#yes}}\r\n  b\r\n{{/yes}}\r\n",
        "intl": "« {{intl}} »\n{{{intl}}}\n  — {{#tags}}{{.}}·{{/tags}}\n",
    ]

    static let templates: [String] = [
        "Hello {{name}}!",
        "{{html}} {{{html}}} {{&html}} {{ html }} {{{ html }}}",
        "{{#list}}<li>{{name}}</li>{{/list}}",
        "<ul>\n  {{#list}}\n  <li>{{name}}{{#done}} ✓{{/done}}</li>\n  {{/list}}\n</ul>\n",
        "{{^none}}no items{{/none}}{{^list}}x{{/list}}{{^empty}}not shown{{/empty}}{{^missing}}missing{{/missing}}",
        "{{person.name}} {{person.role.title}} {{#person}}{{name}} {{.name}} {{title}}{{/person}} {{#person.role}}{{title}}{{/person.role}}",
        "{{#tags}}[{{.}}]{{/tags}} {{#tags}}{{{.}}}{{/tags}}",
        "a\n  {{! a comment }}\nb\n{{!\nmulti-line\n}}\nc {{! inline }} d\n",
        "{{=<% %>=}}\n<%name%> {{name}}\n<%={{ }}=%>\n{{name}}\n",
        "{{=| |=}}|#list||name|,|/list|",
        "<div>\n  {{> item}}\n</div>\n",
        "<div>\n    {{> list}}\n</div>\n",
        "before {{> inline}} after\n  {{> inline}}  \n",
        "{{<parent}}\n  {{$title}}Mine{{/title}}\n{{/parent}}\n",
        "{{<parent}}{{$body}}\n  <p>own body</p>\n  <p>{{name}}</p>\n{{/body}}{{/parent}}",
        "{{> grandparent}}",
        "  {{<parent}}\n    {{$title}}Indented{{/title}}\n  {{/parent}}\n",
        "{{$title}}block default {{name}}{{/title}}\n",
        "a\r\n{{#yes}}\r\nyes\r\n{{/yes}}\r\nc",
        "{{> crlf}}",
        "a\n  ",
        "  {{#yes}}x{{/yes}}  \n",
        "{{#yes}}Y{{/yes}}{{#no}}N{{/no}}{{^no}}!N{{/no}}{{#empty}}empty is shown{{/empty}}",
        "{{#list}}{{title}}-{{name}};{{/list}}",
        "{{% CONTENT_TYPE: TEXT }}\n{{html}}\n",
        "{{>*which}} {{> *which}}",
        "{{ name }} {{# list }}{{ name }}{{/ list }}",
        "café {{name}} 🎉\nnaïve {{#tags}}{{.}} {{/tags}}\n",
        "<section>\n  {{> nested}}\n</section>\n",
        "{{#list}}\n  {{#done}}\n    done: {{name}}\n  {{/done}}\n  {{^done}}\n    open: {{name}}\n  {{/done}}\n{{/list}}\n",
        "\t{{#yes}}\n\ttab\n\t{{/yes}}\n",
        "|{{#yes}} {{/yes}}|\n|{{^no}}\n{{/no}}|\n",
        "{{#list}}{{#tags}}{{name}}:{{.}} {{/tags}}{{/list}}",
        "{{#person}}{{#role}}{{name}} as {{title}}{{/role}}{{/person}}",
        "{{#.}}{{name}} {{title}}{{/.}}|{{^.}}never{{/.}}|{{#person}}{{#.}}{{name}}{{/.}}{{^.}}x{{/.}}{{/person}}",
        "{{#.}}{{#list}}{{name}}{{/list}}{{/.}}",
        "no tags at all\n",
        "{{intl}}|{{{intl}}}|{{&intl}}\n  {{> intl}}\n<p>\n    {{> intl}}\n</p>\n",
        "",
    ]

    func tessera(_ template: String) throws -> String {
        let partials = try Self.partials.mapValues { try CompiledTemplate(kind: .partial, name: "p", path: "p", text: $0) }
        let syntax = try MustacheSyntax(parsing: template)
        let scope = TemplateScope(Self.data.map { ($0.0, TemplateValue.view($0.1.view)) })
        return MustacheRendering(partials: partials, root: scope).render(syntax)
    }

    func reference(_ template: String) throws -> String {
        var library = MustacheLibrary()
        for (name, text) in Self.partials { library.register(try MustacheTemplate(string: text), named: name) }
        return try MustacheTemplate(string: template).render(Data.object(Self.data).any, library: library)
    }

    @Test(arguments: templates.indices)
    func rendersAsSwiftMustacheDoes(_ index: Int) throws {
        let template = Self.templates[index]
        let expected = try reference(template)
        let actual = try tessera(template)
        #expect(actual == expected && actual.utf8.elementsEqual(expected.utf8), "template: \(template.debugDescription)\nswift-mustache: \(expected.debugDescription)\ntessera:        \(actual.debugDescription)")
    }

    static let broken: [String] = [
        "{{#list}}never closed",
        "line one\n{{#a}}\n{{/b}}",
        "{{name",
        "{{=<% =}}",
        "{{{name}}",
        "text {{!comment without end",
        "{{<parent}}{{name}}{{/parent}}",
        "{{% UNKNOWN: X }}",
    ]

    @Test(arguments: broken.indices)
    func refusesWhatSwiftMustacheRefusesAtTheSamePlace(_ index: Int) throws {
        let template = Self.broken[index]
        var expected: (Int, Int)?
        do { _ = try MustacheTemplate(string: template) } catch let error as MustacheTemplate.ParserError {
            expected = (error.context.lineNumber, error.context.columnNumber)
        }
        var actual: (Int, Int)?
        do { _ = try MustacheSyntax(parsing: template) } catch let error as MustacheSyntaxError {
            actual = (error.line, error.column)
        }
        #expect(expected != nil, "swift-mustache accepts \(template.debugDescription)")
        #expect(actual.map { [$0.0, $0.1] } == expected.map { [$0.0, $0.1] }, "template: \(template.debugDescription)")
    }

    @Test func transformsAreRefusedWithAReason() {
        #expect(throws: MustacheSyntaxError.self) { try MustacheSyntax(parsing: "{{uppercased(name)}}") }
        do { _ = try MustacheSyntax(parsing: "a {{uppercased(name)}}") } catch let error as MustacheSyntaxError {
            #expect(error.problem == .transformsUnsupported && error.line == 1 && error.column == 5)
        } catch { Issue.record("\(error)") }
    }
}
