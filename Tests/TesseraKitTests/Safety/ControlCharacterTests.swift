import Foundation
import Testing
@testable import TesseraKit

/// NUL, the C0 controls but tab, LF and CR, DEL and the C1 controls never reach an output: in any
/// input text file, or made by an escape in YAML or JSON, each is an error at its line and column.
@Suite struct ControlCharacterTests {
    static let message = "which HTML, feeds and JSON cannot carry"

    @Test(arguments: [
        // Raw, in each kind of text file.
        ("content/p.md", "---\ntitle: P\n---\nSome \u{0}text.\n", "content/p.md:4:6", "U+0000 (NUL)"),
        ("content/p.md", "---\ntitle: Ab\u{1}out\n---\nText.\n", "content/p.md:2:10", "U+0001"),
        ("content/p.md", "---\ntitle: P\n---\r\nLine one\r\nde\u{7F}l.\r\n", "content/p.md:5:3", "U+007F (DEL)"),
        ("content/p.md", "---\ntitle: P\n---\nA C1 \u{85} line break.\n", "content/p.md:4:6", "U+0085 (NEL)"),
        ("content/p.md", "---\ntitle: P\n---\nEscape \u{1B}[31m.\n", "content/p.md:4:8", "U+001B (ESC)"),
        ("data/team.csv", "name\nA\u{8}da\n", "data/team.csv:2:2", "U+0008 (backspace)"),
        ("themes/mini/layouts/page.mustache", "<title>{{page.title}}</title>\u{C}<main>{{{content}}}</main>\n", "themes/mini/layouts/page.mustache:1:30", "U+000C (form feed)"),
        // Made by escapes.
        ("content/p.md", "---\ntitle: \"Ab\\0out\"\n---\nText.\n", "content/p.md:2:8", "U+0000 (NUL)"),
        ("content/p.json", "{\"title\": \"P\", \"summary\": \"a\\u0085b\"}", "content/p.json:1:27", "U+0085 (NEL)"),
        ("content/p.md", "---\ntitle: P\ncomponents:\n  - { component: note, message: \"x\\x01\" }\n---\n", "content/p.md:4:33", "U+0001"),
        ("data/team.yml", "- name: \"A\\x9Fda\"\n", "data/team.yml:1:9", "U+009F"),
        ("site.yml", "title: \"Test\\x02\"\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\n", "site.yml:1:8", "U+0002"),
    ])
    func aControlCharacterIsAnErrorAtItsLineAndColumn(file: String, text: String, location: String, name: String) throws {
        let site = try TemporarySite([file: text])
        let diagnostics = site.diagnostics()
        #expect(diagnostics.first?.hasPrefix("\(location): error: this text holds the control character \(name), \(Self.message)") == true, "\(diagnostics)")
    }

    /// Tabs, line breaks and every other character (U+00A0 and above, emoji, right-to-left marks)
    /// are text, and no output file of any kind holds a control character.
    @Test func everythingElseIsTextAndNoOutputHoldsAControlCharacter() throws {
        let site = try TemporarySite([
            "site.yml": "title: \"Tabs\\tand\u{A0}spaces\"\ntheme: mini\nbaseURL: https://example.org/\nbuildDate: 2026-11-22T12:00:00Z\noutputs: [html, json]\n",
            "content/index.md": "---\ntitle: \"Home\\twith a tab\"\nfeeds: [rss, atom, json]\nsummary: \"\u{200F}right-to-left mark, \u{1F600}\"\nsections:\n  - query: { component: heading }\n---\nA\ttab, \u{A0}and\r\nCRLF lines, \u{A0}\u{A1}.\n",
            "content/post.md": "---\ntitle: \"Post\\u00A0one\"\ndate: 2026-11-01\n---\nBody.\n",
        ])
        try site.build()
        var checked = 0
        for file in FileTree.files(in: site.output, boundary: nil, problems: DiagnosticCollector()) {
            let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: site.output + "/" + file)))
            #expect(bytes.withUnsafeBufferPointer(ControlCharacters.firstOffset) == nil, "\(file)")
            checked += 1
        }
        #expect(checked >= 6, "HTML, page JSON, the index, the sitemap and three feeds")
        #expect(try site.read("index.html").contains("Home\twith a tab"))
    }

    /// A file name becomes a URL: one with a control character is refused at the file, by a
    /// full build and by a cached one alike.
    @Test func aFileNameWithAControlCharacterIsRefused() throws {
        let site = try TemporarySite([:])
        var first = site.options()
        first.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: first).build()
        try site.write("content/a\u{1}b.md", "---\ntitle: A\n---\nText.\n")
        for cached in [true, false] {
            var options = site.options()
            if cached { options.cacheDirectory = site.root + "/.tessera/cache" }
            let errors: [String]
            do {
                try SiteBuilder(options: options).build()
                errors = []
            } catch let error as TesseraError {
                errors = error.diagnostics.map { $0.formatted(relativeTo: site.root) }
            }
            #expect(errors.first?.hasPrefix("content/a\u{1}b.md:1:1: error: this name holds the control character U+0001, which URLs, HTML and feeds cannot carry") == true, "cached: \(cached): \(errors)")
        }
    }

    /// A numeric character reference is how Markdown makes a control character its text does
    /// not hold: refused at the reference; `&#0;` is U+FFFD, in the page and in its description,
    /// as cmark and HTML make it; in code it is text.
    @Test func aCharacterReferenceToAControlCharacterIsRefusedAtIt() throws {
        let refused = try TemporarySite(["content/p.md": "---\ntitle: P\n---\nFirst.\n\nSee &amp; `&#1;` and &#x85; here.\n"])
        #expect(refused.diagnostics().first?.hasPrefix("content/p.md:6:22: error: the character reference &#x85; in the page's Markdown makes the control character U+0085 (NEL), which HTML, feeds and JSON cannot carry") == true, "\(refused.diagnostics())")
        // In a code fence's info string (its class), a link title and an image's alt text.
        for (markdown, line, column) in [("```swift&#1;\nlet a = 1\n```\n", 4, 9), ("[a](/ \"t&#x1B;\")\n", 4, 9), ("![&#127;](/x.png)\n", 4, 3)] {
            let site = try TemporarySite(["content/p.md": "---\ntitle: P\n---\n" + markdown])
            #expect(site.diagnostics().first?.hasPrefix("content/p.md:\(line):\(column): error: the character reference") == true, "\(markdown): \(site.diagnostics())")
        }
        let zero = try TemporarySite(["content/p.md": "---\ntitle: P\n---\nA &#0; and `&#1;` in code.\n"])
        try zero.build()
        let html = try zero.read("p/index.html")
        #expect(html.contains("A \u{FFFD} and <code>&amp;#1;</code>"), "\(html)")
        #expect(!html.unicodeScalars.contains { ControlCharacters.isControl($0) || $0.value == 0 })
    }
}
