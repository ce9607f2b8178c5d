import Foundation
import Testing
@testable import TesseraKit

/// Text in which Markdown finds nothing to do but plain emphasis skips cmark; it must come out as
/// cmark-gfm prints it, with its extensions on (autolinks above all) and off.
@Suite struct PlainInlineMarkdownTests {
    static let samples: [String] = [
        "Course 999", "Ada Lovelace", "Notice with a link", "What this is about", "Learners", "vs last week", "Visa 4242",
        "Café, naïve: 日本語 (ok)?", "a  b", "Section 0 of page 999", "x+y=z", "50% off", "Price: $12 / month", "me@example.com",
        "http://example.com/a", "a # not a heading", "Step 1) go", "e.g. this", "Hello -- world", "Wait...", "a - b", "a.b.c",
        "{braces} | pipes ^ caret", "Ünïcödé", "Title with trailing dot.", "Q: why?", "A;B", "x--y", "ab..cd",
        "1. list", "# heading", "- item", "*emphasis*", "_under_", "`code`", "[link](x)", "a <b>", "a & b", "\"quoted\"",
        "it's", "tab\there", "two\nlines", " leading", "trailing ", "back\\slash", "~~strike~~", "!bang",
        "Visit www.example.com today", "see https://x.y", "mail a@b.co", "xmpp:a@b.co/x", "ftp://f.g/h", "WWW.Example.com",
        "Swift: www or not", "a@b", "www. alone", "(www.a.b)", "go:/here", "HTTPS://A.B",
        "A *comment* on page 9771.", "You finished **course 9771**", "What *this* is about", "*Lead* in", "**All** of it",
        "see (*this*)", "one *a* two **b**, three *c*; end", "*a*b", "a*b*", "*a **b** c*", "**a*", "* a*", "*a *", "***a***",
        "*é*", "x *www.example.com*", "*a*-b", "*1* two", "**", "*", "a * b", "*a*.", "*a*..", "*a* @b", "*--*",
    ]

    /// Every combination of the options the fast path reads.
    static let renderers = [true, false].flatMap { smart in
        [true, false].map { autolinks in MarkdownRenderer(options: .init(smart: smart, autolinks: autolinks)) }
    }

    /// Pieces the generator strings together: words, the bytes autolinks, smart punctuation
    /// and emphasis read, and the separators around them.
    static let pieces = ["word", "w", "ww", "www", "W", "Www", ".", "..", "-", "--", ":", "/", "//", "://", "@", "a@b", "http",
                         "https", "ftp", "xmpp", "mailto", "example", "com", "co", " ", " ", " ", ",", "(", ")", "+", "%", "$",
                         "=", "#", "^", "|", "{", "}", "?", ";", "_", "~", "*", "'", "é", "日本", "1", "42",
                         " www.example.com", " me@example.co", " https://example.org/a", "www.x.y", "@example.org", ".com",
                         "*", "**", "***", " *", "* ", " **", "** ", " *em*", " **strong** ", "*x*", " *a b* ", "*.", "**,", "*)", " (*p*)"]
    static let cases = ProcessInfo.processInfo.environment["TESSERA_PLAIN_INLINE_CASES"].flatMap(Int.init) ?? 4_000

    @Test func plainTextComesOutAsCmarkPrintsIt() throws {
        for renderer in Self.renderers {
            var taken = 0
            for text in Self.samples {
                guard let fast = renderer.plainInline(text) else { continue }
                taken += 1
                #expect(try renderer.html(text) == "<p>" + fast + "</p>\n", "\(text.debugDescription) with \(renderer.options)")
            }
            #expect(taken >= 30)
            #expect(renderer.plainInline("_under_") == nil && renderer.plainInline("a & b") == nil && renderer.plainInline("1. list") == nil)
            #expect(renderer.plainInline("*emphasis*") == "<em>emphasis</em>" && renderer.plainInline("a **b** c") == "a <strong>b</strong> c")
            for text in ["*a **b** c*", "***a***", "*a*b", "a*b*", "**a*", "*é*", "*a *"] { #expect(renderer.plainInline(text) == nil, "\(text)") }
        }
    }

    /// With autolinks on, what GitHub links is declined: the fast path would print it as text.
    @Test func autolinkableTextGoesToCmark() {
        let on = MarkdownRenderer(), off = MarkdownRenderer(options: .init(autolinks: false))
        for text in ["Visit www.example.com today", "see https://x.y", "mail a@b.co", "xmpp:a@b.co/x", "WWW.Example.com"] {
            #expect(on.plainInline(text) == nil, "\(text)")
            #expect(off.plainInline(text) == text, "\(text)")
        }
        #expect(on.plainInline("Swift: www or not") == "Swift: www or not")
    }

    /// Generated text, mostly what the fast path takes, compared with cmark-gfm.
    @Test func generatedTextComesOutAsCmarkPrintsIt() {
        var random = SeededGenerator(seed: 30)
        var taken = 0, linked = 0, emphasized = 0
        for _ in 0..<Self.cases {
            var text = ["Go", "a", "Visit", "w", "x", "*Go*", "**a**", "*w", "**x"].randomElement(using: &random)!
            for _ in 0..<Int.random(in: 1...8, using: &random) { text += Self.pieces.randomElement(using: &random)! }
            for renderer in Self.renderers {
                // `render`, not `html`: a generated autolink may be a URL Tessera refuses.
                let html = renderer.render(text).html
                if html.contains("<a href") { linked += 1 }
                guard let fast = renderer.plainInline(text) else { continue }
                taken += 1
                if fast.contains("<em>") || fast.contains("<strong>") { emphasized += 1 }
                if html != "<p>" + fast + "</p>\n" {
                    Issue.record("\(text.debugDescription) with \(renderer.options): fast path \(fast.debugDescription), cmark \(html.debugDescription)")
                    return
                }
            }
        }
        // The generator reaches both sides: text the fast path takes (with emphasis too), and
        // text GitHub links.
        #expect(taken > Self.cases / 2 && linked > Self.cases / 10 && emphasized > Self.cases / 10, "\(taken) taken, \(linked) linked, \(emphasized) emphasized")
    }
}
