import Testing
@testable import TesseraKit

/// GitHub's task lists and footnotes.
@Suite struct GFMBlockTests {
    let renderer = MarkdownRenderer()

    @Test func taskListItemsBecomeDisabledCheckboxes() throws {
        #expect(try renderer.html("- [ ] todo\n- [x] done\n  - [X] nested done\n  - [ ] nested todo\n- [ ]\n- [x]not a task\n- plain\n\n1. [x] ordered\n") == """
            <ul>
            <li><input type="checkbox" disabled="" /> todo</li>
            <li><input type="checkbox" checked="" disabled="" /> done
            <ul>
            <li><input type="checkbox" checked="" disabled="" /> nested done</li>
            <li><input type="checkbox" disabled="" /> nested todo</li>
            </ul>
            </li>
            <li>[ ]</li>
            <li>[x]not a task</li>
            <li>plain</li>
            </ul>
            <ol>
            <li><input type="checkbox" checked="" disabled="" /> ordered</li>
            </ol>

            """)
    }

    /// Footnotes are numbered in the order they are first referenced, listed at the end with a
    /// link back to every reference; notes may reference each other; a reference to no note
    /// stays as written.
    @Test func footnotesReferenceEachOtherAndGoToTheEnd() throws {
        #expect(try renderer.html("Text[^a] and again[^a], then[^b] and [^missing].\n\n[^a]: First, see[^b].\n[^b]: Second, back to[^a].\n") == """
            <p>Text<sup class="footnote-ref"><a href="#fn-a" id="fnref-a" data-footnote-ref>1</a></sup> and again<sup class="footnote-ref"><a href="#fn-a" id="fnref-a-2" data-footnote-ref>1</a></sup>, then<sup class="footnote-ref"><a href="#fn-b" id="fnref-b" data-footnote-ref>2</a></sup> and [^missing].</p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-a">
            <p>First, see<sup class="footnote-ref"><a href="#fn-b" id="fnref-b-2" data-footnote-ref>2</a></sup>. <a href="#fnref-a" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a> <a href="#fnref-a-2" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩<sup class="footnote-ref">2</sup></a> <a href="#fnref-a-3" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩<sup class="footnote-ref">3</sup></a></p>
            </li>
            <li id="fn-b">
            <p>Second, back to<sup class="footnote-ref"><a href="#fn-a" id="fnref-a-3" data-footnote-ref>1</a></sup>. <a href="#fnref-b" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a> <a href="#fnref-b-2" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩<sup class="footnote-ref">2</sup></a></p>
            </li>
            </ol>
            </section>

            """)
    }

    /// A definition may come before its reference and hold several blocks; the text after it
    /// stays in place, the note goes to the end; a note nothing references is left out.
    @Test func footnoteDefinitionsAreRenderedAtTheEnd() throws {
        #expect(try renderer.html("[^unused]: Never referenced.\n\nLong note[^long].\n\n[^long]: Para one.\n\n    Para two, indented.\n\nAfter.\n") == """
            <p>Long note<sup class="footnote-ref"><a href="#fn-long" id="fnref-long" data-footnote-ref>1</a></sup>.</p>
            <p>After.</p>
            <section class="footnotes" data-footnotes>
            <ol>
            <li id="fn-long">
            <p>Para one.</p>
            <p>Para two, indented. <a href="#fnref-long" class="footnote-backref" data-footnote-backref aria-label="Back to content">↩</a></p>
            </li>
            </ol>
            </section>

            """)
    }
}
