import Foundation
import Testing
@testable import TesseraCLI

extension Serve {
    /// Where the live-reload script lands in a page.
    struct LiveReloadInjectionTests {
        static let tag = LiveReloadInjection.scriptTag

        @Test(arguments: [
            ("<html><body><p>x</p></body></html>", "<html><body><p>x</p>\(tag)</body></html>"),
            ("<BODY>x</BODY>", "<BODY>x\(tag)</BODY>"),
            ("<body><pre>&lt;/body&gt;</pre></Body >\n", "<body><pre>&lt;/body&gt;</pre>\(tag)</Body >\n"),
            ("<p>a fragment</p>", "<p>a fragment</p>\(tag)"),
            ("", tag),
            ("<body><script>let s = '</body>'</script></body>", "<body><script>let s = '</body>'</script>\(tag)</body>"),
        ])
        func injectsBeforeTheLastClosingBody(page: String, expected: String) {
            let injected = LiveReloadInjection.inject(into: Data(page.utf8))
            #expect(String(decoding: injected, as: UTF8.self) == expected)
        }

        @Test func keepsNonASCIIBytesIntact() {
            let page = "<body>café ✓</body>"
            let injected = LiveReloadInjection.inject(into: Data(page.utf8))
            #expect(String(decoding: injected, as: UTF8.self) == "<body>café ✓\(Self.tag)</body>")
        }
    }
}
