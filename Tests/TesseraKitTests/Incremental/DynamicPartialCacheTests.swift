import Foundation
import Testing
@testable import TesseraKit

/// A page depends on the partials its `{{>*name}}` tags included, which no scan of its templates
/// lists: the preview's cache renders it again when one of them changes.
@Suite struct DynamicPartialCacheTests {
    @Test func editingAPartialNamedByAValueRebuildsThePagesThatIncludedIt() throws {
        let preview = try IncrementalBuildTests.Preview([
            "themes/mini/layouts/page.mustache": "<main>{{>*page.params.which}}</main>\n",
            "themes/mini/partials/card.mustache": "<p>card one</p>{{> inner}}",
            "themes/mini/partials/inner.mustache": "<i>inner one</i>",
            "content/index.md": "---\ntitle: Home\nwhich: card\n---\n",
        ])
        func page() throws -> String { try String(contentsOfFile: preview.output + "/index.html", encoding: .utf8) }
        try preview.rebuild()
        #expect(try page() == "<main><p>card one</p><i>inner one</i></main>\n")
        try preview.site.write("themes/mini/partials/card.mustache", "<p>card two</p>{{> inner}}")
        try preview.rebuild(changes: ["themes/mini/partials/card.mustache"])
        #expect(try page() == "<main><p>card two</p><i>inner one</i></main>\n")
        try preview.site.write("themes/mini/partials/inner.mustache", "<i>inner two</i>")
        try preview.rebuild(changes: ["themes/mini/partials/inner.mustache"])
        #expect(try page() == "<main><p>card two</p><i>inner two</i></main>\n")
        try preview.expectSameAsFullBuild()
    }
}
