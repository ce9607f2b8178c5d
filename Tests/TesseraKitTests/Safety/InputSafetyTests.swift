#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TesseraKit

/// Hostile and careless input: every case ends in a located error (or the same output), never a
/// crash, a hang, a silent skip or a write outside the output folder.
@Suite struct InputSafetyTests {
    // MARK: Encodings

    /// A site whose every kind of file is written with `newline` and an optional BOM.
    static func encodedSite(newline: String, bom: Bool) throws -> TemporarySite {
        let files: [String: String] = [
            "site.yml": "title: Encodings\ntheme: mini\nbuildDate: 2026-11-22T12:00:00Z\nlanguages:\n  en: {}\n  fr: {}\n",
            "themes/mini/components/note.yml": "fields:\n  message: { type: inline-markdown, required: true }\n  left: { type: number }\n",
            "themes/mini/components/note.mustache": "<p>{{{message}}}</p>\n{{#t}}lessons count=left{{/t}}\n",
            "themes/mini/i18n/en.yml": "lessons:\n  one: \"{count} lesson\"\n  other: \"{count} lessons\"\n",
            "themes/mini/i18n/fr.yml": "lessons:\n  one: \"{count} leçon\"\n  other: \"{count} leçons\"\n",
            "content/index.md": "---\ntitle: Home\ncomponents:\n  - component: note\n    message: |\n      two\n      lines\n    left: 2\n---\nA *body*\nover lines.\n\n    code block\n",
            "content/feed.yml": "title: Feed\ncomponents:\n  - { component: note, message: In a feed, left: 1 }\n",
            "content/about.fr.md": "---\ntitle: À propos\n---\nBonjour.\n",
        ]
        let prefix = bom ? "\u{FEFF}" : ""
        var encoded = files.mapValues { prefix + $0.replacingOccurrences(of: "\n", with: newline) }
        // The base theme's own files too.
        for (path, text) in TemporarySite.baseFiles where encoded[path] == nil && path.hasPrefix("themes/") {
            encoded[path] = prefix + text.replacingOccurrences(of: "\n", with: newline)
        }
        return try TemporarySite(encoded)
    }

    @Test(arguments: [("\r\n", false), ("\r\n", true), ("\n", true), ("\r", false)])
    func crlfAndBOMGiveTheSameBytesAsLF(newline: String, bom: Bool) throws {
        let plain = try Self.encodedSite(newline: "\n", bom: false)
        try plain.build()
        let other = try Self.encodedSite(newline: newline, bom: bom)
        try other.build()
        let files = FileTree.files(in: plain.output, boundary: nil, problems: DiagnosticCollector())
        #expect(files == FileTree.files(in: other.output, boundary: nil, problems: DiagnosticCollector()))
        #expect(files.contains("index.html") && files.contains("fr/about/index.html"))
        for path in files {
            #expect(FileManager.default.contents(atPath: plain.output + "/" + path) == FileManager.default.contents(atPath: other.output + "/" + path), "\(path)")
        }
        #expect(try other.read("index.html").contains("<title>Home</title>"), "the front matter is read, not ignored")
    }

    @Test func invalidUTF8IsAnErrorAtItsLineAndColumn() throws {
        let site = try TemporarySite([:])
        let bytes = Data("---\ntitle: Home\n---\nGood line\nbad \u{1}".utf8).dropLast() + Data([0xC3, 0x28]) + Data(" end\n".utf8)
        try bytes.write(to: URL(fileURLWithPath: site.root + "/content/index.md"))
        let errors = site.diagnostics()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/index.md:5:5: error: ") == true, "\(errors)")
        #expect(errors.first?.contains("UTF-8") == true, "\(errors)")
    }

    // MARK: Files that are not plain files

    @Test func aFIFOUnderContentIsRefusedByPathWithoutBlocking() throws {
        let site = try TemporarySite([:])
        #expect(mkfifo(site.root + "/content/pipe.md", 0o644) == 0)
        let errors = site.diagnostics()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/pipe.md:1:1: error: ") == true, "\(errors)")
        #expect(errors.first?.contains("FIFO") == true || errors.first?.contains("pipe") == true, "\(errors)")
    }

    @Test func aSymlinkLoopIsAnErrorNamingThePath() throws {
        let site = try TemporarySite([:])
        try FileManager.default.createDirectory(atPath: site.root + "/content/a", withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/a/loop", withDestinationPath: "..")
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("content/a/loop:1:1: error: ") == true, "\(errors)")
    }

    @Test func aLinkOutOfTheSiteIsRefusedUnlessTheSiteOptsIn() throws {
        let outside = try TemporarySite(["content/shared.md": "---\ntitle: Shared\n---\nShared text.\n"])
        let site = try TemporarySite([:])
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/shared", withDestinationPath: outside.root + "/content")
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("content/shared:1:1: error: ") == true && errors.first?.contains("outside") == true, "\(errors)")
        try site.write("site.yml", "title: T\ntheme: mini\nallowExternalSymlinks: true\n")
        try site.build()
        #expect(try site.read("shared/shared/index.html").contains("Shared text."))
    }

    @Test func aBrokenLinkIsAnErrorNamingThePath() throws {
        let site = try TemporarySite([:])
        try FileManager.default.createSymbolicLink(atPath: site.root + "/content/gone.md", withDestinationPath: site.root + "/nowhere.md")
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("content/gone.md:1:1: error: ") == true, "\(errors)")
    }

    @Test(.enabled(if: getuid() != 0, "root reads any folder, so permissions cannot make one unreadable"))
    func anUnreadableFolderIsAnErrorNotASkip() throws {
        let site = try TemporarySite(["content/private/page.md": "---\ntitle: P\n---\n"])
        chmod(site.root + "/content/private", 0)
        defer { chmod(site.root + "/content/private", 0o755) }
        let errors = site.diagnostics()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/private:1:1: error: cannot read this folder") == true, "\(errors)")
    }

    // MARK: Limits: no crash, no hang

    @Test func deeplyNestedYAMLIsAnErrorWhereTheLimitIsCrossed() throws {
        let site = try TemporarySite([:])
        let depth = 5000
        try site.write("content/deep.yml", "title: Deep\nx: " + String(repeating: "[", count: depth) + String(repeating: "]", count: depth) + "\n")
        let errors = site.diagnostics()
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/deep.yml:2:") == true && errors.first?.contains("nested") == true, "\(errors)")
    }

    @Test func aYAMLAliasBombFailsFast() throws {
        let site = try TemporarySite([:])
        var yaml = "title: Bomb\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...12 {
            yaml += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n"
        }
        try site.write("content/bomb.yml", yaml)
        let clock = ContinuousClock()
        var errors: [String] = []
        let elapsed = clock.measure { errors = site.diagnostics() }
        #expect(errors.count == 1)
        #expect(errors.first?.hasPrefix("content/bomb.yml:") == true && errors.first?.contains("alias") == true, "\(errors)")
        // A guard against a hang, not a benchmark: the closing note of issue 8 has the figures.
        #expect(elapsed < .seconds(10))
    }

    @Test func componentsNestedTooDeepAreAnErrorAtTheDeepestOne() throws {
        // JSON has no indentation, so the nesting is limited by the component limit, not YAML's.
        var json = "{\"component\": \"note\", \"message\": \"leaf\"}"
        for _ in 0..<40 { json = "{\"component\": \"row\", \"items\": [\(json)]}" }
        let site = try TemporarySite(["content/deep.json": "{\"title\": \"Deep\", \"components\": [\(json)]}"])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("components nested more than \(ViewDataMapper.maxNesting) deep") == true, "\(errors)")
        #expect(errors.first?.hasPrefix("content/deep.json:1:") == true, "\(errors)")
    }

    @Test(arguments: [
        (["a": "{{> a}}"], "partial 'a' includes itself: a → a"),
        (["a": "x{{> b}}", "b": "{{#s}}{{> a}}{{/s}}"], "partial 'a' includes itself: a → b → a"),
    ])
    func partialCyclesAreErrorsNamingTheCycle(_ partials: [String: String], _ message: String) throws {
        var files = partials.reduce(into: [String: String]()) { $0["themes/mini/partials/\($1.key).mustache"] = $1.value }
        files["themes/mini/layouts/page.mustache"] = "<main>{{{sections}}}{{> a}}</main>"
        let site = try TemporarySite(files)
        let errors = site.diagnostics()
        #expect(errors.contains { $0.contains(message) }, "\(errors)")
    }

    @Test func sectionsNestedPastTheLimitAreAnErrorAtTheTag() throws {
        let depth = CompiledTemplate.maxSectionDepth + 1
        let text = (0..<depth).map { "{{#s\($0)}}" }.joined() + (0..<depth).reversed().map { "{{/s\($0)}}" }.joined()
        let site = try TemporarySite(["themes/mini/partials/deep.mustache": text])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("themes/mini/partials/deep.mustache:1:") == true, "\(errors)")
        #expect(errors.first?.contains("sections nested more than \(CompiledTemplate.maxSectionDepth) deep") == true)
    }

    // MARK: Paths from input

    @Test(arguments: ["..", "../../x", "en/../..", "fr_FR!", "", "x y", "toolongsubtagxx"])
    func invalidLanguageCodesAreRefused(_ code: String) throws {
        let site = try TemporarySite(["site.yml": "title: T\ntheme: mini\nlanguages:\n  en: {}\n  \"\(code)\": {}\n"])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("site.yml:5:") == true, "\(errors)")
        #expect(!FileManager.default.fileExists(atPath: site.root + "/x"))
    }

    @Test(arguments: ["en", "fr", "pt-BR", "zh-Hant-TW", "sr-Latn", "es-419"])
    func validLanguageCodesPass(_ code: String) {
        #expect(SiteLanguage.isValidCode(code))
    }

    @Test func aPageLangThatIsNotALanguageOfTheSiteIsRefused() throws {
        let site = try TemporarySite(["content/x.md": "---\ntitle: X\nlang: ../../x\n---\n"])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("content/x.md:3:7: error: ") == true, "\(errors)")
    }

    // MARK: Knock-on errors

    @Test func aPageThatFailsToParseDoesNotBreakTheLinksToIt() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: Home\ncomponents:\n  - { component: course, title: A, progress: 0.5, link: /b/ }\n---\n",
            "content/b.md": "---\ntitle: [unclosed\n---\n",
        ])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "only the cause: \(errors)")
        #expect(errors.first?.hasPrefix("content/b.md:") == true, "\(errors)")
    }

    @Test func aBrokenTranslationTableDoesNotEmptyTheOthers() throws {
        let site = try TemporarySite([
            "site.yml": "title: T\ntheme: mini\nlanguages:\n  en: {}\n  fr: {}\n  de: {}\n",
            "themes/mini/layouts/page.mustache": "<main>{{#t}}hello{{/t}}{{{sections}}}</main>",
            "themes/mini/i18n/en.yml": "hello: Hello\n",
            "themes/mini/i18n/fr.yml": "hello: [Bonjour\n",
            "themes/mini/i18n/de.yml": "hello: Hallo\n",
        ])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "only the broken table: \(errors)")
        #expect(errors.first?.hasPrefix("themes/mini/i18n/fr.yml:") == true, "\(errors)")
    }

    @Test func aTranslationThatIsNotMustacheIsAnErrorAtItsLine() throws {
        let site = try TemporarySite([
            "themes/mini/layouts/page.mustache": "<main>{{#t}}hello{{/t}}{{{sections}}}</main>",
            "themes/mini/i18n/en.yml": "bye: Bye\nhello: \"Hello {{#open}}\"\n",
        ])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.hasPrefix("themes/mini/i18n/en.yml:2:") == true, "\(errors)")
    }

    @Test(arguments: ["left: many", ""])
    func aPluralCountThatIsNotANumberIsAnError(_ field: String) throws {
        let site = try TemporarySite([
            "themes/mini/components/note.yml": "fields:\n  message: { type: inline-markdown, required: true }\n  left: { type: text }\n",
            "themes/mini/components/note.mustache": "<p>{{{message}}} {{#t}}lessons count=left{{/t}}</p>",
            "themes/mini/i18n/en.yml": "lessons:\n  one: \"{count} lesson\"\n  other: \"{count} lessons\"\n",
            "content/index.md": "---\ntitle: Home\ncomponents:\n  - { component: note, message: Hi\(field.isEmpty ? "" : ", " + field) }\n---\n",
        ])
        let errors = site.diagnostics()
        #expect(errors.count == 1, "\(errors)")
        #expect(errors.first?.contains("count") == true && errors.first?.contains("left") == true, "\(errors)")
    }
}

/// One rule for every URL content gives, however it is disguised.
@Suite struct URLSafetyTests {
    @Test(arguments: [
        "javascript:alert(1)", "JaVaScRiPt:alert(1)", " javascript:alert(1)", "java\tscript:alert(1)",
        "java\nscript:alert(1)", "\u{1}javascript:alert(1)", "&#106;avascript:alert(1)", "&#x6A;avascript:alert(1)",
        "&#0000106avascript:alert(1)", "javascript&colon;alert(1)", "vbscript:msgbox(1)", "VBScript:x",
        "data:text/html,<script>alert(1)</script>", "DATA:text/html;base64,PHNjcmlwdD4=", "data:image/svg+xml,<svg onload=alert(1)>",
    ])
    func scriptAndDataURLsAreRefused(_ url: String) {
        #expect(URLSafety.problem(with: url, isImage: false) != nil, "\(url)")
        #expect(URLSafety.problem(with: url, isImage: true) != nil, "\(url) as an image")
    }

    @Test(arguments: ["data:image/png;base64,iVBORw0KGgo=", "data:image/jpeg;base64,/9j/", "data:image/gif,GIF89a", "data:image/webp;base64,UklGR"])
    func rasterDataImagesAreAllowedAsImagesOnly(_ url: String) {
        #expect(URLSafety.problem(with: url, isImage: true) == nil)
        #expect(URLSafety.problem(with: url, isImage: false) != nil)
    }

    @Test(arguments: ["/about/", "https://example.com/x?y=1", "mailto:a@b.c", "#top", "../up", "javascript-guide/", "tel:+331", "a:b/c"])
    func ordinaryURLsPass(_ url: String) {
        #expect(URLSafety.problem(with: url, isImage: false) == nil, "\(url)")
    }

    @Test func linkImageAndMarkdownFollowTheSameRule() throws {
        let site = try TemporarySite([
            "themes/mini/components/pic.yml": "shell: none\nfields:\n  src: { type: image }\n  to: { type: link }\n",
            "themes/mini/components/pic.mustache": "<a href=\"{{to}}\"><img src=\"{{src}}\" alt=\"\"></a>",
            "content/index.md": """
                ---
                title: Home
                components:
                  - { component: pic, src: "data:text/html,x", to: " JaVaScRiPt:alert(1)" }
                  - { component: note, message: "[x](javascript:alert(1))" }
                ---
                ![y](vbscript:x)
                """,
        ])
        let errors = site.diagnostics()
        #expect(errors.count == 4, "\(errors)")
        #expect(errors.allSatisfy { $0.hasPrefix("content/index.md:") && $0.contains("refused") }, "\(errors)")
    }
}
