import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// libcmark-gfm keeps the inline parser's special characters in one table for all parsers and,
/// as it comes, edits it around each parse; Tessera renders on every core at once, with the
/// extensions on and off, and each text must come out as it does alone.
@Suite struct MarkdownThreadTests {
    static let long = (0..<60).map { "Line \($0) has ~~struck~~ words, www.example.com/\($0), https://example.org/a and a@b.co with *more* words after them." }
        .joined(separator: "\n\n")
    /// Short texts end their parse often, which is when the library took the characters out.
    static let short = "~~a~~ www.b.co"

    @Test func extensionsReadTheSameOnEveryThread() throws {
        let renderers = [MarkdownRenderer(), MarkdownRenderer(options: .init(strikethrough: false, autolinks: false))]
        let texts = [Self.long, Self.short]
        let expected = try texts.map { text in try renderers.map { try $0.html(text) } }
        #expect(expected[0][0].components(separatedBy: "<del>").count == 61 && expected[0][0].components(separatedBy: "<a href").count == 181)
        #expect(!expected[0][1].contains("<del>") && !expected[0][1].contains("<a href"))
        #expect(expected[1][0] == "<p><del>a</del> <a href=\"http://www.b.co\">www.b.co</a></p>\n")
        let wrong = Mutex<[String]>([])
        DispatchQueue.concurrentPerform(iterations: 3_000) { index in
            let (text, renderer) = (index % 2, index % 5 == 4 ? 1 : 0)
            let html = (try? renderers[renderer].html(texts[text])) ?? ""
            if html != expected[text][renderer] { wrong.withLock { $0.append("render \(index)") } }
        }
        #expect(wrong.withLock { $0 } == [])
    }
}
