import Testing
@testable import TesseraKit

/// GitHub's pipe tables, on the edge cases of the GFM spec; smart punctuation is on, as by
/// default, and never reaches the delimiter row.
@Suite struct GFMTableTests {
    let renderer = MarkdownRenderer()

    /// A table of `rows` (the header first) with a `<td>`/`<th>` per cell and alignments given
    /// as `style`, the way cmark-gfm writes it.
    static func table(_ rows: [[String]], align: [String?] = []) -> String {
        func cells(_ row: [String], tag: String) -> String {
            row.enumerated().map { index, cell in
                let style = index < align.count ? align[index].map { " style=\"text-align: \($0)\"" } ?? "" : ""
                return "<\(tag)\(style)>\(cell)</\(tag)>\n"
            }.joined()
        }
        var html = "<table>\n<thead>\n<tr>\n" + cells(rows[0], tag: "th") + "</tr>\n</thead>\n"
        if rows.count > 1 { html += "<tbody>\n" + rows.dropFirst().map { "<tr>\n" + cells($0, tag: "td") + "</tr>\n" }.joined() + "</tbody>\n" }
        return html + "</table>\n"
    }

    @Test func alignmentsBecomeStyles() throws {
        let markdown = "| Left | Center | Right | None |\n|:-----|:------:|------:|------|\n| a | b | c | d |\n"
        #expect(try renderer.html(markdown) == """
            <table>
            <thead>
            <tr>
            <th style="text-align: left">Left</th>
            <th style="text-align: center">Center</th>
            <th style="text-align: right">Right</th>
            <th>None</th>
            </tr>
            </thead>
            <tbody>
            <tr>
            <td style="text-align: left">a</td>
            <td style="text-align: center">b</td>
            <td style="text-align: right">c</td>
            <td>d</td>
            </tr>
            </tbody>
            </table>

            """)
        // Without outer pipes, too.
        #expect(try renderer.html("a | b\n--- | ---\n1 | 2\n") == Self.table([["a", "b"], ["1", "2"]]))
    }

    @Test func rowsTakeTheHeadersCellCount() throws {
        // A short row gets empty cells; cells beyond the header's are dropped.
        #expect(try renderer.html("| a | b |\n|---|---|\n| 1 |\n| 1 | 2 | 3 |\n") == Self.table([["a", "b"], ["1", ""], ["1", "2"]]))
        // A delimiter row that does not match the header makes no table: the lines are a
        // paragraph, whose text smart punctuation reads as any other.
        #expect(try renderer.html("| a | b |\n|---|\n| 1 | 2 |\n") == "<p>| a | b |\n|—|\n| 1 | 2 |</p>\n")
        // A header alone is a table without a body.
        #expect(try renderer.html("| b |\n|---|\n") == Self.table([["b"]]))
    }

    @Test func escapedPipesStayInTheirCell() throws {
        // `\|` is a pipe, inside code spans too; an unescaped pipe splits the cell first, even
        // inside backticks (the spans are read after the row is cut into cells).
        let markdown = "| code | text |\n|---|---|\n| `a \\| b` | c \\| d |\n| `x | y` | z |\n"
        #expect(try renderer.html(markdown) == Self.table([["code", "text"], ["<code>a | b</code>", "c | d"], ["`x", "y`"]]))
    }

    @Test func cellsHoldInlineMarkdown() throws {
        let markdown = "| *em* | **strong** ~~del~~ [link](/x) |\n|---|---|\n| _a_ | `code` |\n"
        #expect(try renderer.html(markdown) == Self.table([
            ["<em>em</em>", "<strong>strong</strong> <del>del</del> <a href=\"/x\">link</a>"], ["<em>a</em>", "<code>code</code>"],
        ]))
    }

    @Test func tablesInterruptParagraphsAndEndAtBlankLinesOrBlocks() throws {
        // No blank line needed before the table; a line without pipes right after it is a row.
        #expect(try renderer.html("A paragraph\n| a |\n|---|\n| 1 |\nlazy row\n\nafter blank\n")
            == "<p>A paragraph</p>\n" + Self.table([["a"], ["1"], ["lazy row"]]) + "<p>after blank</p>\n")
        #expect(try renderer.html("| a |\n|---|\n| 1 |\n> quote\n\n| b |\n|---|\n# heading\n")
            == Self.table([["a"], ["1"]]) + "<blockquote>\n<p>quote</p>\n</blockquote>\n" + Self.table([["b"]]) + "<h1 id=\"heading\">heading</h1>\n")
    }

    @Test func smartPunctuationLeavesTheDelimiterRow() throws {
        #expect(try renderer.html("| a -- b | \"q\" |\n|---|:---:|\n| x... | it's |\n")
            == Self.table([["a – b", "“q”"], ["x…", "it’s"]], align: [nil, "center"]))
    }
}
