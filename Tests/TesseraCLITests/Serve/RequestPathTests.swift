import Testing
@testable import TesseraCLI

extension Serve {
    /// Each request path and what the preview makes of it.
    struct RequestPathTests {
        @Test(arguments: [
            ("/", [String](), true),
            ("/index.html", ["index.html"], false),
            ("/blog/", ["blog"], true),
            ("//blog//post", ["blog", "post"], false),
            ("/my%20notes/caf%C3%A9.html", ["my notes", "café.html"], false),
            ("/...", ["..."], false),
            ("/.well-known/security.txt", [".well-known", "security.txt"], false),
        ])
        func decodesNames(raw: String, names: [String], endsWithSlash: Bool) throws {
            let path = try RequestPath(raw)
            #expect(path.names == names)
            #expect(path.endsWithSlash == endsWithSlash)
        }

        @Test(arguments: [
            ("index.html", RequestPath.Refusal.notAbsolute),
            ("/..", .dotSegment),
            ("/a/../b", .dotSegment),
            ("/a/./b", .dotSegment),
            ("/%2e%2e/b", .dotSegment),
            ("/%2E%2e/b", .dotSegment),
            ("/.%2E/b", .dotSegment),
            ("/%2e/b", .dotSegment),
            ("/%252e%252e/b", .doubleEncoding),
            ("/%252E%252E/b", .doubleEncoding),
            ("/a%2500", .doubleEncoding),
            ("/a%00.html", .nul),
            ("/a\\b", .backslash),
            ("/a%5cb", .backslash),
            ("/a%2fb", .encodedSlash),
            ("/a%2", .malformedEscape),
            ("/a%g0", .malformedEscape),
            ("/%c3%28", .notUTF8),
        ])
        func refuses(raw: String, refusal: RequestPath.Refusal) {
            #expect(throws: refusal) { try RequestPath(raw) }
        }

        @Test func keepsTheEncodedNamesForRedirects() throws {
            #expect(try RequestPath("/my%20notes//2026/").encodedNames == ["my%20notes", "2026"])
        }
    }
}
