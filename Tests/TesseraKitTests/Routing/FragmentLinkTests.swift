import Foundation
import Testing
@testable import TesseraKit

/// A link's `#fragment` is checked like its page: `#id`, `/path/#id`, `../path/#id` and
/// `@/file.md#id`, in Markdown and in `link` fields, must name an id the page's HTML has. And a
/// page's HTML holds each id once.
@Suite struct FragmentLinkTests {
    static let layout = "<title>{{page.title}}</title><main id=\"content\">{{{content}}}{{{sections}}}</main>\n"

    static func site(_ files: [String: String]) throws -> TemporarySite {
        try TemporarySite(["themes/mini/layouts/page.mustache": Self.layout].merging(files) { _, new in new })
    }

    static let guide = "---\ntitle: Guide\n---\n## Why it matters\n\nText.[^note]\n\n## Setup {#install}\n\n[^note]: A note.\n"

    @Test func linksToIdsOfHeadingsFootnotesAndTemplatesPass() throws {
        let site = try Self.site([
            "content/guide.md": Self.guide,
            "content/index.md": """
                ---
                title: Home
                sections:
                  - items:
                      - { component: course, title: Setup, progress: 0.5, link: "@/guide.md#install" }
                ---
                Read [why](@/guide.md#why-it-matters), [the note](/guide/#fn-note), [setup](guide/#install),
                [the top](#content) and [café](#caf%C3%A9).

                ## Café
                """,
        ])
        try site.build()
        let html = try site.read("index.html")
        #expect(html.contains("<a href=\"/guide/#why-it-matters\">why</a>") && html.contains("<a href=\"#caf%C3%A9\">café</a>"), "\(html)")
    }

    @Test func aMissingIdIsAnErrorAtTheLinkWithTheTargetsIdsToChooseFrom() throws {
        let site = try Self.site([
            "content/guide.md": Self.guide,
            "content/index.md": """
                ---
                title: Home
                sections:
                  - items:
                      - component: course
                        title: Setup
                        progress: 0.5
                        link: /guide/#instal
                      - { component: note, message: "See [it](#nowhere)." }
                ---
                Read [why](@/guide.md#why-it-maters) and
                [below](#the-end).

                ## The end.
                """,
        ])
        #expect(site.diagnostics() == [
            "content/index.md:8:15: error: no id 'instal' on /guide/ for the link's #instal\n    hint: did you mean 'install'? link to a heading's id; `tessera build` gives each heading one from its text, or `{#custom-id}`",
            "content/index.md:9:47: error: no id 'nowhere' on / for the link's #nowhere\n"
                + "    hint: link to a heading's id; `tessera build` gives each heading one from its text, or `{#custom-id}`",
            "content/index.md:11:12: error: no id 'why-it-maters' on /guide/ for the link's #why-it-maters\n"
                + "    hint: did you mean 'why-it-matters'? link to a heading's id; `tessera build` gives each heading one from its text, or `{#custom-id}`",
        ])
    }

    @Test func aPageWithoutHTMLIsNotJudged() throws {
        let site = try Self.site([
            "content/data.md": "---\ntitle: Data\noutputs: [json]\n---\nNo headings.\n",
            "content/index.md": "---\ntitle: Home\n---\nSee [it](/data/#anything).\n",
        ])
        try site.build()
        #expect(try site.read("index.html").contains("<a href=\"/data/#anything\">it</a>"))
    }

    @Test func anIdTwiceOnAPageIsAnErrorAtTheHeading() throws {
        let site = try Self.site([
            "content/index.md": "---\ntitle: Home\n---\nIntro.\n\n## Content\n",
            "content/two.md": "---\ntitle: Two\nsections:\n  - items:\n      - { component: note, message: \"x\" }\n---\nA note in the text too:\n\n```component\ncomponent: note\nmessage: y\n```\n",
            "themes/mini/components/note.mustache": "<p id=\"note\">{{{message}}}</p>",
        ])
        #expect(site.diagnostics() == [
            "content/index.md:6:1: error: the id 'content' is on the page / more than once\n"
                + "    hint: give the heading another id with {#another-id}; the page's components or templates use this one",
            "content/two.md:1:1: error: the id 'note' is on the page /two/ more than once\n"
                + "    hint: ids of the page's Markdown, components and templates must differ: rename one of them",
        ])
    }

    @Test func aCachedBuildAfterATargetLosesItsIdFailsAsAFullBuildDoes() throws {
        let site = try Self.site(["content/guide.md": Self.guide, "content/index.md": "---\ntitle: Home\n---\nSee [setup](@/guide.md#install).\n"])
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: options).build()
        try site.write("content/guide.md", Self.guide.replacingOccurrences(of: " {#install}", with: ""))
        #expect(throws: TesseraError.self) { try SiteBuilder(options: options).build() }
        try site.write("content/guide.md", Self.guide.replacingOccurrences(of: "Text.", with: "Other text."))
        try SiteBuilder(options: options).build()
        #expect(try site.read("guide/index.html").contains("Other text."))
        #expect(try site.differencesFromAFullBuild() == [])
    }
}
