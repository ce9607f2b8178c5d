import Testing
@testable import TesseraKit

/// GitHub's strikethrough and autolinks, on the edge cases of the GFM spec.
@Suite struct GFMInlineTests {
    let renderer = MarkdownRenderer()

    @Test func strikethroughTakesOneOrTwoTildes() throws {
        #expect(try renderer.html("~one~ ~~two~~ ~~~three~~~ a~~b~~c ~~un~ ~not closed\n")
            == "<p><del>one</del> <del>two</del> ~~~three~~~ a<del>b</del>c ~~un~ ~not closed</p>\n")
        #expect(try renderer.html("**~~both~~** `~~code~~`\n") == "<p><strong><del>both</del></strong> <code>~~code~~</code></p>\n")
    }

    /// Trailing punctuation is not part of the link; a closing parenthesis is when it closes
    /// one of the URL's own; an entity-like ending is left out.
    @Test func autolinksStopBeforeTrailingPunctuation() throws {
        #expect(try renderer.html("www.commonmark.org/a.b.\n") == "<p><a href=\"http://www.commonmark.org/a.b\">www.commonmark.org/a.b</a>.</p>\n")
        #expect(try renderer.html("(www.google.com/search?q=Markup+(business))\n")
            == "<p>(<a href=\"http://www.google.com/search?q=Markup+(business)\">www.google.com/search?q=Markup+(business)</a>)</p>\n")
        #expect(try renderer.html("https://example.com.\n") == "<p><a href=\"https://example.com\">https://example.com</a>.</p>\n")
        #expect(try renderer.html("Visit www.commonmark.org/help for more.\n")
            == "<p>Visit <a href=\"http://www.commonmark.org/help\">www.commonmark.org/help</a> for more.</p>\n")
        #expect(try renderer.html("www.google.com/search?q=commonmark&hl;\n")
            == "<p><a href=\"http://www.google.com/search?q=commonmark\">www.google.com/search?q=commonmark</a>&amp;hl;</p>\n")
    }

    @Test func emailAddressesBecomeMailtoLinks() throws {
        #expect(try renderer.html("foo@bar.baz and hello@mail+xyz.example and a.b-c_d@a.b.\n")
            == "<p><a href=\"mailto:foo@bar.baz\">foo@bar.baz</a> and hello@mail+xyz.example and <a href=\"mailto:a.b-c_d@a.b\">a.b-c_d@a.b</a>.</p>\n")
    }

    /// Only a lowercase `www.` after a space, the start or `*_~(` is a link; never in code or
    /// inside another link.
    @Test func autolinksNeedTheirContext() throws {
        #expect(try renderer.html("WWW.upper.com xwww.a.b `www.a.b` [text www.a.b](/x)\n")
            == "<p>WWW.upper.com xwww.a.b <code>www.a.b</code> <a href=\"/x\">text www.a.b</a></p>\n")
        #expect(try renderer.html("*www.a.b* ftp://f.g/h\n") == "<p><em><a href=\"http://www.a.b\">www.a.b</a></em> <a href=\"ftp://f.g/h\">ftp://f.g/h</a></p>\n")
    }
}
