import Foundation
import Testing
import Synchronization
@testable import TesseraKit

/// Code blocks highlighted at build time by the worker (tree-sitter where its grammar is
/// installed, else Pygments), through the real pipeline: the HTML, the page JSON's tokens, the
/// warnings, the engine's absence, and the build cache.
@Suite struct CodeHighlightingTests {
    static func post(_ body: String) -> String { "---\ntitle: Post\n---\n" + body }

    /// The `<main>` of a page of the mini theme.
    static func main(_ site: TemporarySite, _ path: String = "post/index.html") throws -> String {
        let html = try site.read(path)
        guard let start = html.range(of: "<main>"), let end = html.range(of: "</main>") else { return html }
        return String(html[start.upperBound..<end.lowerBound])
    }

    /// The page's JSON body blocks of kind `code`.
    static func codeBlocks(_ site: TemporarySite, _ path: String = "post/index.json") throws -> [[String: Any]] {
        let json = try JSONSerialization.jsonObject(with: Data(try site.read(path).utf8)) as? [String: Any]
        return (json?["body"] as? [[String: Any]] ?? []).filter { $0["kind"] as? String == "code" }
    }

    /// Swift has a tree-sitter grammar (installed by `make deps`): its highlight query's captures
    /// are written with Pygments' classes.
    @Test func aSwiftFenceIsParsedByTreeSitterAndWrittenWithPygmentsClasses() throws {
        let site = try TemporarySite(["content/post.md": Self.post("Intro.\n\n```swift\nfunc load() async throws {\n    print(\"Got \\(count)\")\n}\n```\n")])
        try site.build()
        #expect(try Self.main(site) == """
            <p>Intro.</p>
            <pre class="highlight" tabindex="0"><code class="language-swift"><span class="kd">func</span> <span class="nf">load</span><span class="p">()</span> \
            <span class="k">async</span> <span class="k">throws</span> <span class="p">{</span>
                <span class="nf">print</span><span class="p">(</span><span class="s">&quot;Got </span><span class="si">\\(</span><span class="n">count</span>\
            <span class="si">)</span><span class="s">&quot;</span><span class="p">)</span>
            <span class="p">}</span>
            </code></pre>

            """)
        #expect(CodeHighlighter(cacheDirectory: nil).identity.contains("with tree-sitter 0.25.2,"))
    }

    /// YAML is parsed by tree-sitter too: keys keep Pygments' tag class (`nt`), and numbers,
    /// booleans, `null`, strings, anchors and tags are coloured.
    @Test func aYAMLFenceIsParsedByTreeSitterWithItsKeysAsTags() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```yaml\nname: \"T\" # c\nitems:\n  - { n: 3, on: true }\nbase: &b\n  a: null\nref: *b\n```\n")])
        try site.build()
        #expect(try Self.main(site) == """
            <pre class="highlight" tabindex="0"><code class="language-yaml"><span class="nt">name</span><span class="p">:</span> \
            <span class="s">&quot;T&quot;</span> <span class="c"># c</span>
            <span class="nt">items</span><span class="p">:</span>
              <span class="p">-</span> <span class="p">{</span> <span class="nt">n</span><span class="p">:</span> <span class="m">3</span><span class="p">,</span> \
            <span class="nt">on</span><span class="p">:</span> <span class="kc">true</span> <span class="p">}</span>
            <span class="nt">base</span><span class="p">:</span> <span class="p">&amp;</span><span class="nl">b</span>
              <span class="nt">a</span><span class="p">:</span> <span class="kc">null</span>
            <span class="nt">ref</span><span class="p">:</span> <span class="p">*</span><span class="nl">b</span>
            </code></pre>

            """)
    }

    /// Kotlin has no grammar in Tessera's list: Pygments lexes it.
    @Test func aLanguageWithoutAGrammarIsLexedByPygments() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```kotlin\nsuspend fun load(): List<String> = listOf(\"a$b\")\n```\n")])
        try site.build()
        #expect(try Self.main(site) == """
            <pre class="highlight" tabindex="0"><code class="language-kotlin"><span class="kd">suspend</span> <span class="kd">fun</span> \
            <span class="nf">load</span><span class="p">():</span> <span class="n">List</span><span class="o">&lt;</span><span class="kt">String</span>\
            <span class="o">&gt;</span> <span class="o">=</span> <span class="n">listOf</span><span class="p">(</span><span class="s">&quot;a</span>\
            <span class="si">$</span><span class="n">b</span><span class="s">&quot;</span><span class="p">)</span>
            </code></pre>

            """)
    }

    @Test func thePageJSONCarriesTheLanguageAndTokenRunsThatMakeUpTheCode() throws {
        let code = "const m: Map<string, number[]> = new Map();\nconsole.log(`${m.size} é 🎉`);\n"
        let site = try TemporarySite(["content/post.md": Self.post("Before.\n\n```ts {linenos=true linenostart=5 hl_lines=[2] title=\"a.ts\"}\n\(code)```\n\nAfter.\n")])
        try site.build()
        let json = try JSONSerialization.jsonObject(with: Data(try site.read("post/index.json").utf8)) as? [String: Any]
        let body = try #require(json?["body"] as? [[String: Any]])
        #expect(body.map { $0["kind"] as? String } == ["markdown", "code", "markdown"])
        let block = body[1]
        #expect(block["language"] as? String == "ts" && block["languageName"] as? String == "TypeScript")
        #expect(block["code"] as? String == code && block["title"] as? String == "a.ts")
        #expect(block["firstLineNumber"] as? Int == 5 && block["markedLines"] as? [Int] == [2])
        let tokens = try #require(block["tokens"] as? [[String]])
        #expect(tokens.map { $0[1] }.joined() == code)
        #expect(tokens.contains(["Keyword", "const"]) && tokens.contains(["Name.Class", "Map"]) && tokens.contains(["Literal.String.Interpol", "${"]))
        #expect(tokens.allSatisfy { $0.count == 2 && !$0[1].isEmpty })
        // The web page has the block where the JSON has it, between the paragraphs.
        let html = try Self.main(site)
        #expect(html.hasPrefix("<p>Before.</p>\n<figure class=\"code-block\"><figcaption>a.ts</figcaption>\n<pre class=\"highlight\" tabindex=\"0\"><code class=\"language-ts\">"))
        #expect(html.contains("<span class=\"line hl\"><span class=\"ln\" aria-hidden=\"true\">6</span>"))
        #expect(html.hasSuffix("</code></pre>\n</figure>\n<p>After.</p>\n"))
    }

    /// The languages the issue names, by their usual names and aliases: each gets a lexer and
    /// tokens of more than one type.
    @Test func everyCommonLanguageAndAliasIsHighlighted() throws {
        let samples: [(String, String)] = [
            ("swift", "let a = 1"), ("objective-c", "@interface A : NSObject\n@end"), ("objc", "int a = 1;"), ("kotlin", "val a = 1"), ("kt", "fun f() = 1"),
            ("java", "class A { int a = 1; }"), ("typescript", "let a: number = 1;"), ("ts", "const a = 1;"), ("javascript", "const a = 1;"), ("js", "let a = 'x';"),
            ("jsx", "const a = <div className=\"x\">hi</div>;"), ("tsx", "const a: JSX.Element = <b>hi</b>;"), ("python", "def f(): return 1"), ("go", "func f() int { return 1 }"),
            ("rust", "fn main() { let a = 1; }"), ("c", "int main(void) { return 0; }"), ("cpp", "auto a = std::string(\"x\");"), ("csharp", "var a = 1;"),
            ("ruby", "def f; 1; end"), ("php", "<?php echo 1; ?>"), ("sh", "echo \"$HOME\""), ("bash", "if [ -f x ]; then echo y; fi"), ("zsh", "echo $PATH"),
            ("console", "$ tessera build\nBuilt 3 pages"), ("powershell", "Get-ChildItem -Path ."), ("sql", "SELECT a FROM t WHERE b = 1;"), ("yaml", "a: 1 # c"), ("yml", "a: [1, 2]"),
            ("json", "{\"a\": 1}"), ("toml", "[a]\nb = 1"), ("xml", "<a b=\"c\">d</a>"), ("html", "<p class=\"a\">b</p>"), ("css", "a { color: red; }"),
            ("scss", "$a: 1px; .b { margin: $a; }"), ("markdown", "# Title\n\n*a*"), ("mustache", "{{#items}}{{name}}{{/items}}"), ("dockerfile", "FROM swift:6\nRUN make"),
            ("makefile", "all:\n\tswift build"), ("diff", "-a\n+b"), ("graphql", "query { a { b } }"), ("dart", "void main() { var a = 1; }"), ("lua", "local a = 1"),
            ("haskell", "main = print 1"), ("elixir", "defmodule A do\nend"), ("scala", "object A { val a = 1 }"), ("r", "a <- c(1, 2)"), ("zig", "const a: u8 = 1;"),
            ("hcl", "resource \"a\" \"b\" { c = 1 }"), ("protobuf", "message A { int32 b = 1; }"),
        ]
        let body = samples.map { "```\($0.0)\n\($0.1)\n```\n" }.joined(separator: "\n")
        let site = try TemporarySite(["content/post.md": Self.post(body)])
        #expect(site.diagnostics() == [])
        try site.build()
        let blocks = try Self.codeBlocks(site)
        #expect(blocks.count == samples.count)
        for (block, sample) in zip(blocks, samples) {
            let tokens = block["tokens"] as? [[String]] ?? []
            #expect(block["languageName"] != nil && Set(tokens.map { $0[0] }).count > 1, "\(sample.0): \(block)")
            #expect(tokens.map { $0[1] }.joined() == sample.1 + "\n", "\(sample.0)")
        }
    }

    @Test func anUnknownLanguageIsAWarningAtTheFenceWithTheNearestNameAndThePlainCode() throws {
        let site = try TemporarySite(["content/post.md": Self.post("Text.\n\n  ```swfit\n  let a = 1 < 2\n  ```\n")])
        #expect(site.diagnostics() == [
            "content/post.md:6:6: warning: unknown language `swfit`: the block is shown as plain text\n    hint: did you mean 'swift' or 'swig'?",
        ])
        try site.build()
        #expect(try Self.main(site).contains("<pre class=\"highlight\" tabindex=\"0\"><code class=\"language-swfit\">let a = 1 &lt; 2\n</code></pre>"))
        let block = try #require(try Self.codeBlocks(site).first)
        #expect(block["tokens"] == nil && block["language"] as? String == "swfit")
    }

    @Test func plainNamesAndBlocksWithoutALanguageAreNeverWarnedAbout() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```\nx\n```\n\n```text\ny\n```\n\n    indented\n")])
        #expect(site.diagnostics() == [])
        try site.build()
        #expect(try Self.main(site) == """
            <pre class="highlight" tabindex="0"><code>x
            </code></pre>
            <pre class="highlight" tabindex="0"><code class="language-text">y
            </code></pre>
            <pre class="highlight" tabindex="0"><code>indented
            </code></pre>

            """)
    }

    @Test func misspeltAndMalformedOptionsAreWarningsAtTheirColumn() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```swift {linenostrat=3 hl_lines=[x] linenos=maybe}\nlet a = 1\n```\n")])
        #expect(site.diagnostics() == [
            "content/post.md:4:11: warning: unknown option `linenostrat` in the code fence\n    hint: did you mean 'linenostart' or 'linenos'?",
            "content/post.md:4:25: warning: `x` is not a line or a range of lines\n    hint: lines count from 1; a range is written 4-6",
            "content/post.md:4:38: warning: linenos=maybe is not true or false\n    hint: write linenos=true, or linenos alone",
        ])
    }

    /// What a fence's info string holds ends up escaped in attributes and text, never as markup.
    @Test func hostileInfoStringsAreEscapedAndNeverReachTheEngineAsNames() throws {
        let fences = [
            "<script>alert(1)</script>", "swift\" onmouseover=\"alert(1)", "swift title=\"<img src=x onerror=alert(1)>\"",
            "swift {title='</figcaption><script>x</script>'}", "../../etc/passwd", "a\u{00A0}b", String(repeating: "x", count: 5_000),
            "swift {hl_lines=[99999999999999999999]}", "swift {linenostart=-4}", "swift {{{{", "swift }", "swift hl_lines=\"3-1\"",
        ]
        let body = fences.map { "```\($0)\nlet a = 1\n```\n" }.joined(separator: "\n")
        let site = try TemporarySite(["content/post.md": Self.post(body)])
        try site.build()
        let html = try Self.main(site)
        #expect(!html.contains("<script") && !html.contains("<img") && !html.contains("onmouseover=\""))
        #expect(html.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(try Self.codeBlocks(site).count == fences.count)
        // Each problem is a warning, and none is an error: the page is built.
        let warnings = site.diagnostics()
        #expect(warnings.allSatisfy { $0.contains(": warning: ") } && warnings.count >= 6, "\(warnings)")
    }

    @Test func diffLinesAreMarkedAsAWhole() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```diff\n--- a\n+++ b\n-old\n+new\n same\n```\n")])
        try site.build()
        #expect(try Self.main(site) == """
            <pre class="highlight" tabindex="0"><code class="language-diff"><span class="line"><span class="gd">--- a</span></span>
            <span class="line"><span class="gi">+++ b</span></span>
            <span class="line gd"><span class="gd">-old</span></span>
            <span class="line gi"><span class="gi">+new</span></span>
            <span class="line"> same</span>
            </code></pre>

            """)
    }

    @Test func theCodeBlockHookGetsTheHighlightedLinesAndTokens() throws {
        let site = try TemporarySite([
            "content/post.md": Self.post("```py {linenos=true hl_lines=[2]}\nx = 1\ny = 'a'\n```\n"),
            "themes/mini/markdown/codeblock.mustache": "<ol data-lang=\"{{languageName}}\">{{#lines}}<li value=\"{{number}}\"{{#marked}} class=\"hl\"{{/marked}}>{{{html}}}</li>{{/lines}}</ol><p>{{#tokens}}[{{type}}={{text}}]{{/tokens}}</p>\n",
        ])
        try site.build()
        #expect(try Self.main(site) == """
            <ol data-lang="Python"><li value="1"><span class="n">x</span> <span class="o">=</span> <span class="m">1</span></li>\
            <li value="2" class="hl"><span class="n">y</span> <span class="o">=</span> <span class="s">'a'</span></li></ol>\
            <p>[Name=x][Text= ][Operator==][Text= ][Literal.Number=1][Text=
            ][Name=y][Text= ][Operator==][Text= ][Literal.String=&#39;a&#39;][Text=
            ]</p>

            """)
    }

    @Test func fullContentFeedsCarryTheHighlightedCode() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\nbaseURL: https://example.com/\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nfeeds: { content: full }\n",
            "content/index.md": "---\ntitle: Home\nfeeds: [atom]\nsections:\n  - query: { under: blog, component: heading, fields: { title: title } }\n---\n",
            "content/blog/post.md": "---\ntitle: Post\ndate: 2026-11-01\n---\n```swift\nlet a = 1\n```\n",
        ])
        try site.build()
        let feed = try site.read("atom.xml")
        #expect(feed.contains("&lt;span class=&quot;k&quot;&gt;let&lt;/span&gt;"), "\(feed)")
    }

    @Test func turnedOffCodeIsPlainWithoutAWarning() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nmarkdown: { highlight: false }\n", "content/post.md": Self.post("```swift\nlet a = 1\n```\n"),
        ])
        #expect(site.diagnostics() == [])
        try site.build()
        #expect(try Self.main(site) == "<pre class=\"highlight\" tabindex=\"0\"><code class=\"language-swift\">let a = 1\n</code></pre>\n")
        #expect(try Self.codeBlocks(site).first?["tokens"] == nil)
    }

    // MARK: Without the engine

    /// A Python that cannot import Pygments: the system's, with its site folders left out.
    static func pythonWithoutPygments(in site: TemporarySite) throws -> String {
        let path = site.root + "/bin/python-bare"
        try site.write("bin/python-bare", "#!/bin/sh\nexec python3 -S -I \"$@\"\n")
        chmod(path, 0o755)
        return path
    }

    @Test(arguments: [false, true])
    func withoutPygmentsTheBuildSaysSoOnceAndWritesPlainCode(pythonMissing: Bool) throws {
        let site = try TemporarySite([
            "content/post.md": Self.post("```swift\nlet a = 1\n```\n"), "content/other.md": "---\ntitle: Other\n---\n```ts\nlet b = 2\n```\n",
        ])
        var options = site.options()
        options.python = pythonMissing ? site.root + "/no/python3" : try Self.pythonWithoutPygments(in: site)
        options.cacheDirectory = site.root + "/.tessera/cache"
        let report = try SiteBuilder(options: options).build()
        #expect(report.warnings.count == 1)
        let warning = try #require(report.warnings.first)
        #expect(warning.message.hasPrefix("code blocks are shown without colours: "))
        #expect(warning.message.contains(pythonMissing ? "Python could not be started" : "cannot import Pygments"), "\(warning.message)")
        #expect(warning.hint?.contains("python3 -m pip install pygments==2.21.0") == true)
        #expect(try Self.main(site) == "<pre class=\"highlight\" tabindex=\"0\"><code class=\"language-swift\">let a = 1\n</code></pre>\n")
        // The next build says it again (the pages are made again, not kept silently plain).
        let again = try SiteBuilder(options: options).build()
        #expect(again.warnings.map(\.message) == [warning.message])
        // With Pygments back, the build colours the code: the engine is part of what the cache compares.
        options.python = nil
        let fixed = try SiteBuilder(options: options).build()
        #expect(fixed.warnings.isEmpty)
        #expect(try Self.main(site).contains("<span class=\"k\">let</span>"))
        #expect(try site.differencesFromAFullBuild() == [])
    }

    /// A Python whose `tree_sitter` fails to import (a package of that name first on its path).
    static func pythonWithoutTreeSitter(in site: TemporarySite) throws -> String {
        try site.write("bin/shadow/tree_sitter/__init__.py", "raise ImportError('hidden by the test')\n")
        try site.write("bin/python-no-tree-sitter", "#!/bin/sh\nPYTHONPATH='\(site.root)/bin/shadow' exec python3 \"$@\"\n")
        chmod(site.root + "/bin/python-no-tree-sitter", 0o755)
        return site.root + "/bin/python-no-tree-sitter"
    }

    /// Without tree-sitter, Pygments lexes every language (no warning: the code is coloured);
    /// the engine's identity says which it was, so answers cached by one are not used for the other.
    @Test func withoutTreeSitterPygmentsLexesEveryLanguageAndTheCacheKnowsTheDifference() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```swift\nlet a = 1\n```\n")])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        let bare = try Self.pythonWithoutTreeSitter(in: site)
        options.python = bare
        let first = try Self.built(options)
        #expect(first.report.warnings.isEmpty && first.lexed == 1)
        // Pygments' Swift lexer calls `let` a declaration; the tree-sitter query a keyword.
        #expect(try Self.main(site).contains("<span class=\"kd\">let</span>"))
        let identity = CodeHighlighter(python: bare).identity
        #expect(identity.hasPrefix("pygments 2.21.0 worker ") && !identity.contains("tree-sitter"), "\(identity)")
        options.python = nil
        let second = try Self.built(options)
        #expect(second.report.warnings.isEmpty && second.lexed == 1)
        #expect(try Self.main(site).contains("<span class=\"k\">let</span>"))
        #expect(try site.differencesFromAFullBuild() == [])
    }

    /// Generated code in every language tree-sitter parses: pieces of their syntax joined at
    /// random, cut anywhere, with tabs, CRLF, accents, combining marks, emoji, unpaired quotes and
    /// comments. Every answer is tokens that are exactly the code (lengths in Unicode scalars).
    @Test func treeSitterTokensAreExactlyTheCodeForGeneratedInputs() throws {
        let pieces = ["let ", "func f() {", "}", "\"", "'", "`${", "/* ", "*/", "// é\n", "#include <a>\n", "\t", "\r\n", "\n", "🎉", "x = 1",
                      "<div a={b}>", "</div>", "\\(", "fn main()", "def f():\n    ", "0x1F", "é", "e\u{0301}", "@Attr ", "[", "]", ";", "日本", "\u{FEFF}"]
        let languages = ["swift", "ts", "tsx", "js", "jsx", "python", "go", "rust", "c", "cpp", "java", "yaml"]
        var random = SeededGenerator(seed: 31)
        let highlighter = CodeHighlighter(cacheDirectory: nil)
        #expect(highlighter.identity.contains("swift 0.7.4"), "tree-sitter's grammars are installed (make deps)")
        for language in languages {
            for _ in 0..<30 {
                let code = (0..<Int.random(in: 1...40, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
                guard case .code(let highlighted) = highlighter.highlight(language: language, code: code) else {
                    Issue.record("\(language): no tokens for \(code.debugDescription)")
                    continue
                }
                #expect(highlighted.runs.reduce(0) { $0 + $1.length } == code.unicodeScalars.count, "\(language): \(code.debugDescription)")
                #expect(highlighted.runs.allSatisfy { $0.length > 0 })
            }
            // tree-sitter, not Pygments, lexed it: Pygments' lexers of these languages call a line
            // break `Text.Whitespace`, tree-sitter's runs call text no capture caught `Text`.
            guard case .code(let lines) = highlighter.highlight(language: language, code: "x = 1\n  y\n") else { continue }
            #expect(!lines.runs.contains { $0.type.name == "Text.Whitespace" }, "\(language) was lexed by Pygments")
        }
    }

    /// The code's HTML, its lines and its tokens are read from the code's UTF-8 bytes; they
    /// are what the reading by Unicode scalars and `Character`s gave (kept here as the
    /// reference), for generated code: accents, combining marks, emoji, `\r\n` inside a token
    /// and across two, lone `\r`, characters to escape, diff lines and headers, empty and
    /// whitespace tokens, runs that do not add up to the code, and plain code.
    @Test func codeHTMLLinesAndTokensAreTheCharacterReadingsForGeneratedCode() {
        let pieces = ["a", "let", " ", "\t", "é", "e\u{0301}", "🎉", "日本", "\r\n", "\n", "\r", "<", ">", "&", "\"", "+", "-", "+++ b", "--- a", "\n+x", "\n-y"]
        let types = [HighlightedCode.TokenType(name: "Keyword", cssClass: "k"), .init(name: "Text.Whitespace", cssClass: "w"),
                     .init(name: "Text", cssClass: ""), .init(name: "Name", cssClass: "n")]
        let infos = ["swift", "diff", "swift {linenos=true hl_lines=[2]}", "diff {linenostart=7}", ""]
        var random = SeededGenerator(seed: 1_616)
        for round in 0..<3_000 {
            let code = (0..<Int.random(in: 0...25, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined()
            var highlighted: HighlightedCode?
            if round % 7 != 0 {
                var left = code.unicodeScalars.count, runs: [HighlightedCode.Run] = []
                while left > 0 || (runs.isEmpty && Bool.random(using: &random)) {
                    let length = round % 11 == 0 ? Int.random(in: 0...3, using: &random) : min(left, Int.random(in: 0...4, using: &random))
                    runs.append(.init(type: types.randomElement(using: &random)!, length: length))
                    left -= min(left, length)
                    if runs.count > 200 { break }
                }
                highlighted = HighlightedCode(lexer: "Lexer", runs: runs)
            }
            let block = CodeBlock(code: code, info: CodeFenceInfo(infos[round % infos.count]), highlighted: highlighted)
            let expected = Self.referenceLines(block)
            #expect(block.lines() == expected, "\(code.debugDescription) \(String(describing: highlighted?.runs.map(\.length)))")
            if !block.wrapsLines {
                #expect(block.codeHTML() == Self.referenceCodeHTML(block), "\(code.debugDescription)")
            }
            if let highlighted {
                let pieces = highlighted.pieces(of: code), reference = Self.referencePieces(highlighted, code)
                #expect(pieces?.map(\.type) == reference?.map(\.type))
                #expect(pieces?.map { String($0.text) } == reference?.map { String($0.text) }, "\(code.debugDescription)")
            }
        }
    }

    /// The runs' text as the scalar reading cut it.
    static func referencePieces(_ highlighted: HighlightedCode, _ code: String) -> [(type: HighlightedCode.TokenType, text: Substring)]? {
        var pieces: [(type: HighlightedCode.TokenType, text: Substring)] = []
        let scalars = code.unicodeScalars
        var start = scalars.startIndex
        for run in highlighted.runs {
            guard let end = scalars.index(start, offsetBy: run.length, limitedBy: scalars.endIndex) else { return nil }
            pieces.append((run.type, Substring(scalars[start..<end])))
            start = end
        }
        return start == scalars.endIndex ? pieces : nil
    }

    static func referencePieces(_ block: CodeBlock) -> [(type: HighlightedCode.TokenType?, text: Substring)] {
        if let highlighted = block.highlighted, let pieces = referencePieces(highlighted, block.code) { return pieces.map { ($0.type, $0.text) } }
        return [(nil, block.code[...])]
    }

    static func referenceAppend(_ text: Substring, type: HighlightedCode.TokenType?, to out: inout String) {
        let cssClass = type?.cssClass ?? ""
        let wrapped = !cssClass.isEmpty && cssClass != "w"
        if wrapped { out += "<span class=\"" + cssClass + "\">" }
        for character in text.unicodeScalars {
            switch character {
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "&": out += "&amp;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(character)
            }
        }
        if wrapped { out += "</span>" }
    }

    static func referenceCodeHTML(_ block: CodeBlock) -> String {
        var out = ""
        for (type, text) in referencePieces(block) { referenceAppend(text, type: type, to: &out) }
        return out
    }

    static func referenceLines(_ block: CodeBlock) -> [CodeBlock.Line] {
        var lines: [CodeBlock.Line] = []
        var current = ""
        var text = ""
        func finish() {
            let number = lines.count + 1
            let first = text.utf8.first
            let isHeader = text.hasPrefix("+++") || text.hasPrefix("---")
            lines.append(CodeBlock.Line(
                number: block.firstLineNumber + number - 1, html: current, marked: block.markedLines.contains(number),
                inserted: block.isDiff && !isHeader && first == UInt8(ascii: "+"), deleted: block.isDiff && !isHeader && first == UInt8(ascii: "-")))
            current = ""
            text = ""
        }
        for (type, piece) in referencePieces(block) {
            var parts = piece.split(separator: "\n", omittingEmptySubsequences: false)[...]
            while let part = parts.popFirst() {
                if !part.isEmpty {
                    referenceAppend(part, type: type, to: &current)
                    text += part
                }
                if !parts.isEmpty { finish() }
            }
        }
        if !current.isEmpty || !text.isEmpty { finish() }
        return lines
    }

    /// Blocks asked for in one request (as the lex-ahead feeders ask) are answered as each
    /// asked alone: generated code in tree-sitter's and Pygments' languages, unknown names, empty
    /// and multi-byte code, in batches of every size up to the request limit, and a block larger
    /// than the limit alone; each worker numbering its own token types.
    @Test func aBatchOfBlocksIsAnsweredAsEachBlockAlone() throws {
        let python = CodeHighlighter.defaultPython()
        let alone = try PygmentsWorker(python: python), together = try PygmentsWorker(python: python)
        let pieces = ["let ", "func f() {", "}", "\"", "'", "`${", "/* ", "*/", "// é\n", "\t", "\r\n", "\n", "🎉", "x = 1", "key: [a, b]\n",
                      "e\u{0301}", "日本", "- item\n", "<a href=\"x\">", "@@ -1 +1 @@\n", "+added\n"]
        let languages = ["swift", "kotlin", "yaml", "go", "python", "diff", "html", "nosuchlanguage", "ruby"]
        var random = SeededGenerator(seed: 16)
        var blocks: [(language: String, code: String)] = (0..<400).map { _ in
            (languages.randomElement(using: &random)!, (0..<Int.random(in: 0...30, using: &random)).map { _ in pieces.randomElement(using: &random)! }.joined())
        }
        blocks.insert(("swift", String(repeating: "let value = \"é🎉\" // a comment\n", count: 2_000)), at: 200)
        let expected = try blocks.map { try alone.tokens(of: [$0])[0] }
        #expect(expected.contains(.unknownLanguage))
        #expect(expected.contains { if case .code(let code) = $0 { code.runs.count > 1 } else { false } })
        var answers: [PygmentsWorker.Answer] = []
        var start = 0
        while start < blocks.count {
            var end = start + 1, bytes = PygmentsWorker.requestBytes(language: blocks[start].language, code: blocks[start].code)
            let wanted = Int.random(in: 1...60, using: &random)
            while end < blocks.count, end - start < wanted {
                let size = PygmentsWorker.requestBytes(language: blocks[end].language, code: blocks[end].code)
                guard bytes + size <= PygmentsWorker.batchBytes else { break }
                bytes += size
                end += 1
            }
            answers += try together.tokens(of: Array(blocks[start..<end]))
            start = end
        }
        #expect(answers.count == expected.count)
        for (index, (answer, alone)) in zip(answers, expected).enumerated() where answer != alone {
            Issue.record("block \(index) (\(blocks[index].language)): \(answer) in a batch, \(alone) alone")
        }
    }

    /// The worker sends tree-sitter's captures and Tessera makes the runs (`TreeSitterRuns`):
    /// they are the runs the worker made itself before, whose Python is kept here as the
    /// reference (spans sorted by start, byte length, pattern, type and end; one pass over them
    /// as they nest, else painting), on generated code of every grammar: accents, combining
    /// marks, emoji, CRLF, a byte-order mark, unclosed strings and comments. Tessera's one pass
    /// also gives what painting gives.
    /// Threads that ask for the engine's greeting at once (a build's start does, on two cores)
    /// wait for the one worker the first starts, instead of each starting one.
    @Test(.enabled(if: Tools.hasPythonModule("pygments"))) func greetingsAskedAtOnceStartOneWorker() throws {
        let pool = PygmentsPool(python: CodeHighlighter.defaultPython())
        let versions = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            if let hello = try? pool.hello() { versions.withLock { $0.append(hello.version) } }
        }
        #expect(versions.withLock { $0.count } == 4)
        #expect(pool.startedWorkers == 1)
    }

    @Test(.enabled(if: Tools.hasPythonModule("tree_sitter"))) func runsMadeFromTheCapturesAreTheWorkersOwnForGeneratedInputs() async throws {
        let output = try await Self.workerCheck(#"""
            import json, random, sys
            from itertools import chain, groupby
            sys.path.insert(0, sys.argv[1])
            from worker import *
            from pygments.lexers import find_lexer_class_by_name
            from pygments.token import Text
            from tree_sitter import QueryCursor

            def name(ttype):
                text = str(ttype)
                return text[6:] if text.startswith("Token.") else text

            # The worker's reading before Tessera made the runs.
            def spans(lexer, code):
                data = code.encode("utf-8", "surrogatepass")
                tree = lexer.parser.parse(data)
                if len(data) == len(code):
                    where = None
                else:
                    where = []
                    for index, character in enumerate(code):
                        where.extend([index] * len(character.encode("utf-8", "surrogatepass")))
                    where.append(len(code))
                found = []
                for capture, nodes in QueryCursor(lexer.query).captures(tree.root_node).items():
                    kind, rank = lexer.types[capture]
                    for start, end in (node.byte_range for node in nodes):
                        found.append((start, start - end, rank, kind, end) if where is None else (where[start], start - end, rank, kind, where[end]))
                found.sort()
                return found

            def nested_runs(spans, length):
                runs = []
                stack = []
                position = 0
                for start, _, _, kind, end in spans:
                    if start == end:
                        continue
                    while stack and stack[-1][1] <= start:
                        _, top_end, top_kind = stack.pop()
                        if top_end > position:
                            runs.append((top_kind, top_end - position))
                            position = top_end
                    if stack:
                        top = stack[-1]
                        if end > top[1]:
                            return None
                        if start == top[0] and end == top[1]:
                            top[2] = kind
                            continue
                    if start > position:
                        runs.append((stack[-1][2] if stack else Text, start - position))
                        position = start
                    stack.append([start, end, kind])
                while stack:
                    _, top_end, top_kind = stack.pop()
                    if top_end > position:
                        runs.append((top_kind, top_end - position))
                        position = top_end
                if position < length:
                    runs.append((Text, length - position))
                return runs

            def painted_runs(spans, length):
                paint = [None] * length
                for start, _, _, kind, end in sorted(spans, key=lambda span: (span[1], span[2], span[0], span[4], span[3])):
                    paint[start:end] = [kind] * (end - start)
                return [(kind or Text, len(list(run))) for kind, run in groupby(paint)]

            def merged(runs):
                out = []
                for kind, count in runs:
                    if out and out[-1][0] is kind:
                        out[-1][1] += count
                    elif count:
                        out.append([kind, count])
                return [[name(kind), count] for kind, count in out]

            pieces = ["let ", "func f() {", "}", '"', "'", "`${", "/* ", "*/", "// é\n", "#include <a>\n", "\t", "\r\n", "\n", "🎉",
                      "x = 1", "<div a={b}>", "</div>", "\\(", "fn main()", "def f():\n    ", "0x1F", "é", "e\u0301", "@Attr ", "[", "]",
                      ";", "日本", "\ufeff", "class A<T>: B {", "return", "async ", "await ", "import x", "struct S", "#[derive(D)]",
                      "key: ", "- ", "&a ", "*a", "---\n", "{ k: v, n: 3 }", "|\n  block\n", "# c\n", "true", "null", "  "]
            rng = random.Random(31)
            versions = tree_sitter_versions()
            for language in ["swift", "ts", "tsx", "js", "jsx", "python", "go", "rust", "c", "cpp", "java", "yaml"]:
                found = find_lexer_class_by_name(language)
                lexer = tree_sitter_lexer(found.__name__, found.name, versions)
                assert lexer is not None, language + " has no tree-sitter lexer"
                # The whole query, without the children the worker reads itself.
                whole = TreeSitterLexer(found.__name__, found.name, direct_children=False)
                for _ in range(150):
                    code = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 60)))
                    found_spans = spans(whole, code)
                    reference = merged(nested_runs(found_spans, len(code)) or painted_runs(found_spans, len(code)))
                    captures = [[name(kind), pattern, list(offsets)] for kind, pattern, offsets in lexer.captures(code)]
                    print(json.dumps({"language": language, "code": code, "captures": captures, "runs": reference}))
            """#)
        var checked = 0
        // Types a worker may have announced for earlier blocks, some of them this block's parents.
        let extraTypes = ["Name.Other", "Keyword", "Text.Whitespace", "Comment.Single", "Name", "Literal.String.Double", "Operator", "Punctuation.Marker"]
            .map { HighlightedCode.TokenType(name: $0, cssClass: "") }
        for line in output.split(separator: "\n") where line.hasPrefix("{") {
            let case_ = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let code = try #require(case_["code"] as? String), language = try #require(case_["language"] as? String)
            var types: [HighlightedCode.TokenType] = [], captures: [TreeSitterRuns.Capture] = []
            for capture in try #require(case_["captures"] as? [[Any]]) {
                let name = try #require(capture[0] as? String), pattern = try #require(capture[1] as? Int), offsets = try #require(capture[2] as? [Int])
                let type = types.firstIndex { $0.name == name } ?? types.count
                if type == types.count { types.append(.init(name: name, cssClass: "")) }
                captures += stride(from: 0, to: offsets.count, by: 2).map { .init(start: offsets[$0], end: offsets[$0 + 1], pattern: pattern, type: type) }
            }
            let text = HighlightedCode.TokenType(name: "Text", cssClass: "")
            let reference: [String] = try #require(case_["runs"] as? [[Any]]).map { run in "\(run[0]):\(run[1])" }
            let runs = try #require(TreeSitterRuns.runs(of: captures, in: code, types: types, text: text))
            let made: [String] = runs.map { run in "\(run.type.name):\(run.length)" }
            #expect(made == reference, "\(language): \(code.debugDescription)")
            let painted = try #require(TreeSitterRuns.runs(of: captures, in: code, types: types, text: text, painting: true))
            #expect(runs == painted, "\(language): \(code.debugDescription)")
            // A worker ranks every type it announced, not only this block's: the same runs.
            let announced = extraTypes + types
            let shifted = captures.map { TreeSitterRuns.Capture(start: $0.start, end: $0.end, pattern: $0.pattern, type: $0.type + extraTypes.count) }
            let ranked = try #require(TreeSitterRuns.runs(of: shifted, in: code, types: announced, text: text, ranks: TreeSitterRuns.ranks(of: announced)))
            #expect(ranked == runs, "\(language): \(code.debugDescription)")
            checked += 1
        }
        #expect(checked == 1800)
    }

    /// The worker reads the grammars' versions (part of the engine's identity) from their
    /// `.dist-info` folders where that is plain, and asks `importlib.metadata` otherwise: the same
    /// answers for every package installed here and for made-up folders put first on the path
    /// (names spelled otherwise, a package shadowed, two folders of one name, eggs, a folded or
    /// missing version).
    @Test func grammarVersionsReadFromTheirFoldersAreImportlibMetadatasOwn() async throws {
        let made: [String: String] = [
            "Foo_Bar.Baz-1.2.3.dist-info/METADATA": "Metadata-Version: 2.1\nName: Foo_Bar.Baz\nVersion: 1.2.3\n\nbody\n",
            "pygments-9.9.dist-info/METADATA": "Metadata-Version: 2.1\nName: Pygments\nVersion: 9.9\n",
            "twice-1.0.dist-info/METADATA": "Name: twice\nVersion: 1.0\n",
            "Twice-2.0.dist-info/METADATA": "Name: Twice\nVersion: 2.0\n",
            "old_egg-0.5.egg-info/PKG-INFO": "Name: old-egg\nVersion: 0.5\n",
            "folded-1.0.dist-info/METADATA": "Name: folded\nVersion: 1.0\n  rc1\n",
            "spaced-3.1.dist-info/METADATA": "Name: spaced\nVersion:   3.1  \n",
            "bodyonly-1.0.dist-info/METADATA": "Name: bodyonly\n\nVersion: 1.0\n",
        ]
        var files = Dictionary(uniqueKeysWithValues: made.map { ("made/" + $0.key, $0.value) })
        // An egg before site-packages on the path, named for a package installed there.
        files["tree_sitter-0.1.egg/EGG-INFO/PKG-INFO"] = "Metadata-Version: 1.1\nName: tree-sitter\nVersion: 0.1\n"
        let output = try await Self.workerCheck(#"""
            import importlib.metadata, sys
            sys.path.insert(0, sys.argv[1])
            from worker import *
            del sys.path[0]
            sys.path.insert(0, sys.argv[1] + "/made")
            importlib.invalidate_caches()
            answered = declined = 0
            # Folders listed once, for every name, as the worker lists them.
            listings = {}
            names = [name for name in (dist.metadata["Name"] for dist in importlib.metadata.distributions()) if name]
            names += ["foo-bar-baz", "FOO_bar.baz", "Pygments", "twice", "old-egg", "folded", "spaced", "bodyonly", "tree-sitter", "no-such-package"]
            for name in names:
                try:
                    reference = importlib.metadata.version(name)
                except importlib.metadata.PackageNotFoundError:
                    reference = None
                fast = installed_version(name, listings)
                assert fast is None or fast == reference, (name, fast, reference)
                if reference is not None:
                    assert distribution_version(name, listings) == reference, name
                if fast is None:
                    declined += 1
                else:
                    answered += 1
            for name, expected in [("foo-bar-baz", "1.2.3"), ("FOO_bar.baz", "1.2.3"), ("Pygments", "9.9")]:
                assert installed_version(name, listings) == expected, name
            for name in ["twice", "old-egg", "folded", "spaced", "bodyonly", "no-such-package"]:
                assert installed_version(name, listings) is None, name
            sys.path.insert(1, sys.argv[1] + "/tree_sitter-0.1.egg")
            importlib.invalidate_caches()
            assert importlib.metadata.version("tree-sitter") == "0.1", "the egg comes first"
            assert installed_version("tree-sitter", {}) is None and distribution_version("tree-sitter", {}) == "0.1"
            print("answered", answered, "declined", declined)
            """#, files: files)
        let counts = try #require(output.split(separator: "\n").last { $0.hasPrefix("answered ") }).split(separator: " ")
        #expect(Int(counts[1]) ?? 0 >= 10, "most installed packages are read from their folders: \(output)")
    }

    /// A pattern the worker answers by reading a node's children (`DIRECT_CHILDREN`: Swift's
    /// function names) catches exactly the nodes, with the same pattern number, that the whole
    /// query compiled with it catches: over generated Swift full of declarations, cut anywhere
    /// (so tree-sitter recovers from errors), and Swift from the example site's posts.
    @Test(.enabled(if: Tools.hasPythonModule("tree_sitter"))) func childrenReadByTheWorkerAreTheWholeQuerysCapturesForGeneratedSwift() async throws {
        let blog = Repository.root + "/content/blog/"
        let swiftPosts = try FileManager.default.contentsOfDirectory(atPath: blog).map { blog + $0 }
            .filter { (try? String(contentsOfFile: $0, encoding: .utf8))?.contains("```swift") == true }
        #expect(!swiftPosts.isEmpty, "the example site has Swift to compare")
        let output = try await Self.workerCheck(#"""
            import random, sys
            sys.path.insert(0, sys.argv[1])
            from worker import *

            def caught(lexer, code):
                return sorted((str(ttype), pattern, start, end) for ttype, pattern, offsets in lexer.captures(code)
                              for start, end in zip(offsets[::2], offsets[1::2]))

            whole = TreeSitterLexer("SwiftLexer", "Swift", direct_children=False)
            split = TreeSitterLexer("SwiftLexer", "Swift")
            assert not whole.children and len(split.children) == len(DIRECT_CHILDREN["SwiftLexer"]), split.children
            assert split.query.pattern_count == whole.query.pattern_count
            numbers = {pattern for _, (_, pattern) in split.children.values()}
            pieces = ["func f() {", "func g<T: P>(_ x: T, y: Int = 1) async throws -> [T] where T: Q {", "}", "{", "(", ")", "->",
                      "@objc ", "@MainActor ", "public ", "private(set) ", "static ", "class ", "mutating ", "override ", "final ",
                      "nonisolated ", "func `default`() {}", "func + (a: A, b: A) -> A", "prefix func - (a: A) -> A", "init(a: Int) {",
                      "init?() {", "deinit {", "subscript(i: Int) -> Int {", "get {", "set {", "protocol P { func p() }",
                      "extension S {", "struct S {", "class C: B {", "enum E { case a, b(Int)", "actor A {", "let f = { (x: Int) in x }",
                      "var v: Int { 0 }", "return x.y.z()", "f(a: 1)", "func h() -> some View", "func", "h", "(", "x: Int", ",",
                      "\n", "\t", "// func n() {}\n", "/* f */", "\"s \\(f())\"", "#if DEBUG\n", "#endif\n", "typealias T = Int",
                      "func i(_: () -> Void)", "x", "é", "🎉", "where", " "]
            rng = random.Random(7)
            cases = []
            for _ in range(1500):
                cases.append("".join(rng.choice(pieces) for _ in range(rng.randint(0, 50))))
            for path in sys.argv[2:]:
                text = open(path, encoding="utf-8").read()
                cases.extend(block.split("\n", 1)[-1] for block in text.split("```swift")[1:])
                cases.extend(text[:cut] for cut in range(0, len(text), 97))
            named = 0
            for code in cases:
                a, b = caught(whole, code), caught(split, code)
                assert a == b, (code, [c for c in a if c not in b], [c for c in b if c not in a])
                named += sum(1 for capture in a if capture[1] in numbers)
            print("compared", len(cases), "function names", named)
            """#, arguments: swiftPosts)
        let counts = try #require(output.split(separator: "\n").last { $0.hasPrefix("compared ") }).split(separator: " ")
        #expect(Int(counts[1]) ?? 0 >= 1500, "\(output)")
        #expect(Int(counts[4]) ?? 0 >= 400, "generated code names enough functions to compare: \(output)")
    }

    /// A full build renders the pages without fenced code first, each part in page order.
    @Test func pagesWithoutCodeComeFirst() {
        let texts = ["```swift\nx\n```", "prose", "~~~\ny\n~~~", "more prose with `code`", "a ``` b"]
        #expect(CodeHighlighter.codeLast(texts) == [1, 3, 0, 2, 4])
        // Only while blocks are lexed ahead (prose alone starts no worker).
        let highlighter = CodeHighlighter(cacheDirectory: nil)
        #expect(highlighter.renderingOrder(texts) == nil)
        highlighter.lexAhead(["prose"])
        #expect(highlighter.renderingOrder(texts) == [1, 3, 0, 2, 4])
    }

    // MARK: The build cache

    static func built(_ options: BuildOptions) throws -> (report: BuildReport, lexed: Int) {
        let (built, report) = try SiteBuilder(options: options).run()
        return (report, built.written?.rendered.mapped.routed.loaded.configured.highlighter?.lexedBlocks ?? 0)
    }

    /// A site of pages `p0` to `p<count - 1>` whose bodies `body` writes, and options that
    /// build it with a build cache.
    static func site(pages count: Int, body: (Int) -> String) throws -> (TemporarySite, BuildOptions) {
        let site = try TemporarySite(Dictionary(uniqueKeysWithValues: (0..<count).map { ("content/p\($0).md", "---\ntitle: P\($0)\n---\n" + body($0)) }))
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        return (site, options)
    }

    @Test func anEditLexesOnlyTheBlocksItChangedAndTheOutputIsAFullBuilds() throws {
        let (site, options) = try Self.site(pages: 6) { "```swift\nlet p\($0) = \($0)\n```\n\n```yaml\nkey: \($0)\n```\n" }
        #expect(try Self.built(options).lexed == 12)
        // Nothing changed: nothing is lexed, and no worker is needed to know the engine.
        #expect(try Self.built(options).lexed == 0)
        // One block of one page changed: that block alone is lexed again.
        try site.write("content/p2.md", "---\ntitle: P2\n---\n```swift\nlet p2 = 200\n```\n\n```yaml\nkey: 2\n```\n")
        #expect(try Self.built(options).lexed == 1)
        #expect(try site.differencesFromAFullBuild() == [])
        // A block moved to another page is not lexed again either.
        try site.write("content/p3.md", "---\ntitle: P3\n---\n```yaml\nkey: 0\n```\n")
        #expect(try Self.built(options).lexed == 0)
        #expect(try site.differencesFromAFullBuild() == [])
    }

    /// A first build lexes its pages' blocks ahead on every worker while the renderers ask for
    /// them too: each different block is lexed once, whoever gets to it first, and the output is
    /// a full build's.
    @Test func blocksLexedAheadAreLexedOnceEach() throws {
        let (site, options) = try Self.site(pages: 40) { "```swift\nlet p\($0 % 10) = 1\n```\n\n```go\nvar x\($0) = \($0)\n```\n" }
        #expect(try Self.built(options).lexed == 50)
        #expect(try Self.main(site, "p7/index.html").contains("<span class=\"n\">p7</span>"))
        #expect(try site.differencesFromAFullBuild() == [])
    }

    /// The thread that lexes blocks ahead may start after the pages are rendered (late, on a
    /// busy machine): it then lexes nothing, since the renderers lexed those blocks themselves
    /// and a cached build may have saved their answers and let them go. Before, such a thread
    /// lexed them a second time (the full suite, on CI, once counted more blocks lexed than a
    /// page had).
    @Test(.enabled(if: Tools.hasPythonModule("pygments"))) func lexingAheadThatStartsAfterRenderingLexesNothing() throws {
        let text = Self.post("```swift\nlet late = 1\n```\n\n```yaml\nlate: 1\n```\n")
        let rendered = CodeHighlighter(cacheDirectory: nil), rendering = CodeHighlighter(cacheDirectory: nil)
        rendered.endLexingAhead()
        rendered.lexAhead([text])
        rendering.lexAhead([text])
        let deadline = ContinuousClock.now + .seconds(30)
        while rendering.lexedBlocks < 2, ContinuousClock.now < deadline { usleep(5_000) }
        #expect(rendering.lexedBlocks == 2)
        usleep(200_000)
        #expect(rendered.lexedBlocks == 0)
        #expect(rendered.lock.withLock { rendered.ahead.isEmpty && rendered.queued.isEmpty && rendered.feeders == 0 })
    }

    /// A small site's renderers reach its pages with code while the first worker starts: they
    /// wait for the blocks lexed ahead instead of starting a second worker, which started Python
    /// and compiled the Swift grammar's query again (a first build of 100 posts took 0.55 s
    /// for 0.41 s now, and 0.29 s with a worker kept from the last build). A Python slow to
    /// start makes the renderers arrive first: without the wait, two runs of three counted two
    /// starts.
    @Test(.enabled(if: Tools.hasPythonModule("pygments"))) func renderersWaitForTheWorkerLexingAheadInsteadOfStartingTheirOwn() throws {
        let (site, cached) = try Self.site(pages: 24) { $0 % 8 == 7 ? "```swift\nlet p\($0) = \($0)\n```\n" : "Prose \($0).\n" }
        let log = site.root + "/python-starts.log"
        var options = cached
        options.python = try Self.countingPython(in: site, log: log, startingAfter: 0.4)
        let first = try Self.built(options)
        #expect(first.report.warnings.isEmpty && first.lexed == 3, "\(first.report.warnings) \(first.lexed)")
        let starts = (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").count ?? 0
        #expect(starts == 1, "Python started \(starts) times for three blocks")
        #expect(try Self.main(site, "p7/index.html").contains("<span class=\"k\">let</span>"))
        #expect(try site.differencesFromAFullBuild() == [])
    }

    /// A build with a build cache that makes every page (the first, or one after the site's
    /// configuration changed) has its blocks lexed ahead, as a build without a cache does, not
    /// asked for by the renderers one page at a time (which left a core idle: the first
    /// highlighted build of 10,000 posts took 18 s instead of 13).
    @Test func aBuildWithACacheThatMakesEveryPageLexesAhead() throws {
        // More pages than an edit's blocks are lexed ahead for (64).
        let (site, options) = try Self.site(pages: 70) { "```swift\nlet p\($0) = 1\n```\n" }
        func build() throws -> (lexed: Int, ahead: Bool) {
            let (built, _) = try SiteBuilder(options: options).run()
            let highlighter = try #require(built.written?.rendered.mapped.routed.loaded.configured.highlighter)
            return (highlighter.lexedBlocks, highlighter.lock.withLock { highlighter.lexesAhead })
        }
        let first = try build()
        #expect(first.lexed == 70 && first.ahead)
        try site.write("site.yml", "title: Changed\n")
        let changed = try build()
        #expect(changed.lexed == 0 && changed.ahead)
        #expect(try site.differencesFromAFullBuild() == [])
    }

    /// The output of `check`, a Python script that reads the worker's definitions (`worker.py`:
    /// the script without its call of `main()`), run as `python3 check.py <folder> <arguments>`
    /// in a new folder that holds `files` too; it must exit with 0.
    static func workerCheck(_ check: String, arguments: [String] = [], files: [String: String] = [:]) async throws -> String {
        let site = try TemporarySite(files)
        let script = try #require(PygmentsWorker.script.range(of: "\nmain()", options: .backwards))
        try site.write("worker.py", String(PygmentsWorker.script[..<script.lowerBound]) + "\n")
        try site.write("check.py", check)
        let (status, output) = try await Tools.run("python3", [site.root + "/check.py", site.root] + arguments)
        try #require(status == 0, "\(output)")
        return output
    }

    /// A Python that notes each start in `log`, then runs the system's (after `seconds`).
    static func countingPython(in site: TemporarySite, log: String, startingAfter seconds: Double = 0) throws -> String {
        let wait = seconds > 0 ? "sleep \(seconds)\n" : ""
        try site.write("bin/python-counted", "#!/bin/sh\necho started >> '\(log)'\n\(wait)exec python3 \"$@\"\n")
        chmod(site.root + "/bin/python-counted", 0o755)
        return site.root + "/bin/python-counted"
    }

    /// A site without code starts no Python, in its first build or any other, and its record
    /// says that no page depends on the engine, so another engine (or none) keeps its pages.
    /// Once a page has code, the engine is part of what the next build compares: another one
    /// makes that page again.
    @Test func aSiteWithoutCodeStartsNoPythonAndAnotherEngineStillRemakesItsCode() throws {
        // Edits below change second paragraphs only: pages that list these show their first.
        let (site, cached) = try Self.site(pages: 4) { "Prose \($0), with `inline code`.\n\nNo block yet.\n" }
        let log = site.root + "/python-starts.log"
        let counting = try Self.countingPython(in: site, log: log)
        func starts() -> Int { (try? String(contentsOfFile: log, encoding: .utf8))?.split(separator: "\n").count ?? 0 }
        func edit(_ page: Int, _ second: String) throws { try site.write("content/p\(page).md", "---\ntitle: P\(page)\n---\nProse \(page), with `inline code`.\n\n\(second)\n") }
        var options = cached
        options.python = counting
        let first = try Self.built(options)
        #expect(first.report.warnings.isEmpty && first.lexed == 0)
        #expect(starts() == 0)
        // No Python at all now: the pages never needed one, so the edit keeps the others.
        options.python = site.root + "/no/python3"
        try edit(1, "Edited prose.")
        let edited = try Self.built(options)
        #expect(edited.report.warnings.isEmpty && edited.report.reusedPages == edited.report.pages - 1, "\(edited.report.reusedPages) of \(edited.report.pages)")
        // A page gains code, coloured by Pygments alone: the other pages are still kept.
        options.python = try Self.pythonWithoutTreeSitter(in: site)
        try edit(3, "```swift\nlet a = 1\n```")
        let withCode = try Self.built(options)
        #expect(withCode.lexed == 1 && withCode.report.reusedPages == withCode.report.pages - 1, "\(withCode.report.reusedPages) of \(withCode.report.pages)")
        #expect(try Self.main(site, "p3/index.html").contains("<span class=\"kd\">let</span>"))
        // Another engine (tree-sitter's) and an edit elsewhere: the page with code is made again.
        options.python = counting
        try edit(0, "Edited too.")
        let other = try Self.built(options)
        #expect(other.lexed == 1 && starts() >= 1 && other.report.reusedPages == 0, "\(other.report.reusedPages)")
        #expect(try Self.main(site, "p3/index.html").contains("<span class=\"k\">let</span>"))
        #expect(try site.differencesFromAFullBuild() == [])
        // With the engine as recorded, a build that changed nothing keeps everything.
        let again = try Self.built(options)
        #expect(again.lexed == 0 && again.report.summary().hasPrefix("Up to date"), "\(again.report.summary())")
    }

    /// Highlighting writes only in the build cache's folder: the site's files, and every other
    /// file of the site's folder, stay as they were, and no temporary file is left.
    @Test func highlightingWritesNothingButTheCacheAndTheOutput() throws {
        let site = try TemporarySite(["content/post.md": Self.post("```swift\nlet a = 1\n```\n\n```swfit\nx\n```\n")])
        let before = OutputSafetyTests.snapshot(site.root)
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        _ = try Self.built(options)
        try site.write("content/post.md", Self.post("```swift\nlet a = 2\n```\n"))
        _ = try Self.built(options)
        let after = OutputSafetyTests.snapshot(site.root)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        #expect(changed.allSatisfy { $0 == "public" || $0.hasPrefix("public/") || $0 == ".tessera" || $0.hasPrefix(".tessera/") || $0 == "content/post.md" }, "\(changed.sorted())")
        let cache = Set(after.keys.filter { $0.hasPrefix(".tessera/cache/highlight") })
        #expect(cache == [".tessera/cache/highlight.data", ".tessera/cache/highlight.index", ".tessera/cache/highlight.stamp"])
        #expect(!after.keys.contains { $0.hasSuffix(".tmp") })
    }

    /// Garbage at the end of the answers, the answers cut short, or an index that is not one:
    /// the blocks are lexed again, and the output is a full build's.
    @Test(arguments: ["garbage", "truncated", "index"])
    func aDamagedCacheCostsOnlySpeed(damage: String) throws {
        let site = try TemporarySite(["content/post.md": Self.post("```swift\nlet a = 1\n```\n\n```yaml\nb: 2\n```\n")])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        #expect(try Self.built(options).lexed == 2)
        let folder = site.root + "/.tessera/cache/"
        let file = folder + (damage == "index" ? "highlight.index" : "highlight.data")
        var bytes = try #require(FileManager.default.contents(atPath: file))
        switch damage {
        case "garbage": bytes.replaceSubrange((bytes.count - 6)..<bytes.count, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF])
        case "truncated": bytes.removeLast(10)
        default: bytes = Data("not an index".utf8)
        }
        try bytes.write(to: URL(fileURLWithPath: file))
        try site.write("content/post.md", Self.post("Edited.\n\n```swift\nlet a = 1\n```\n\n```yaml\nb: 2\n```\n"))
        let rebuilt = try Self.built(options)
        #expect(rebuilt.report.warnings.isEmpty && rebuilt.lexed >= 1)
        #expect(try Self.main(site).contains("<span class=\"k\">let</span>"))
        #expect(try site.differencesFromAFullBuild() == [])
        // The cache is whole again: the next edit lexes nothing.
        try site.write("content/post.md", Self.post("Edited again.\n\n```swift\nlet a = 1\n```\n\n```yaml\nb: 2\n```\n"))
        #expect(try Self.built(options).lexed == 0)
    }

    /// The blocks an edit's prewarming looks for are the blocks the renderer lexes, for plainly
    /// fenced code, whatever the lines end with: the same keys, so a cached block starts no
    /// worker.
    @Test(arguments: ["\n", "\r\n"])
    func theBlocksAnEditIsScannedForAreTheRenderersOwn(lineEnd: String) throws {
        let lines = ["---", "title: P", "---", "Text.", "", "```swift {linenos=true}", "let café = \"ü\"", "", "let b = 2", "```", "",
                     "~~~~yaml", "k: ```", "~~~~", "", "```", "plain", "```", "", "```text", "x", "```", ""]
        let text = lines.joined(separator: lineEnd)
        #expect(CodeHighlighter.fencedBlocks(in: text).map { "\($0.language)|\($0.code)" } == ["swift|let café = \"ü\"\n\nlet b = 2\n", "yaml|k: ```\n"])
        let site = try TemporarySite(["content/p.md": text])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        #expect(try Self.built(options).lexed == 2)
        let highlighter = CodeHighlighter(cacheDirectory: options.cacheDirectory)
        _ = highlighter.identity
        for block in CodeHighlighter.fencedBlocks(in: text) {
            #expect(highlighter.highlight(language: block.language, code: block.code) != .unavailable)
        }
        #expect(highlighter.lexedBlocks == 0)
    }

    // MARK: The default theme

    /// Every token colour of the default theme's palettes, light and dark, against the block's
    /// background and a marked line's: at least 4.5:1 (WCAG AA for text).
    @Test func theDefaultThemesCodeColoursContrastEnough() throws {
        let css = try String(contentsOfFile: Repository.root + "/themes/default/static/assets/tessera.css", encoding: .utf8)
        func palette(after marker: String) throws -> [String: String] {
            let start = try #require(css.range(of: marker))
            let block = css[start.upperBound...].prefix { $0 != "}" }
            var colours: [String: String] = [:]
            for match in block.matches(of: /--code-([a-z-]+):\s*(#[0-9a-f]{6})/) { colours[String(match.output.1)] = String(match.output.2) }
            return colours
        }
        func luminance(_ hex: String) -> Double {
            let value = Int(hex.dropFirst(), radix: 16) ?? 0
            let channels = [value >> 16 & 0xFF, value >> 8 & 0xFF, value & 0xFF].map { Double($0) / 255 }
            let linear = channels.map { $0 <= 0.03928 ? $0 / 12.92 : pow(($0 + 0.055) / 1.055, 2.4) }
            return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]
        }
        func contrast(_ a: String, _ b: String) -> Double {
            let (x, y) = (luminance(a), luminance(b))
            return (max(x, y) + 0.05) / (min(x, y) + 0.05)
        }
        let tokens = ["text", "comment", "keyword", "string", "number", "function", "type", "tag", "variable", "error"]
        // Light; dark as the system's choice; dark as the reader's.
        for marker in [":root {", "@media (prefers-color-scheme: dark) {\n  :root:not([data-color-scheme=\"light\"]) {", ":root[data-color-scheme=\"dark\"] {"] {
            let colours = try palette(after: marker)
            #expect(colours.count == 17, "\(marker): \(colours)")
            for token in tokens {
                for background in ["bg", "marked"] {
                    let ratio = contrast(colours[token] ?? "#000000", colours[background] ?? "#000000")
                    #expect(ratio >= 4.5, "\(marker) \(token) on \(background): \(ratio)")
                }
            }
            #expect(contrast(colours["inserted"] ?? "", colours["inserted-bg"] ?? "") >= 4.5)
            #expect(contrast(colours["deleted"] ?? "", colours["deleted-bg"] ?? "") >= 4.5)
        }
    }
}
