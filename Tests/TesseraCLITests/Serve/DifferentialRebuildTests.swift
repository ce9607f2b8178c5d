import Foundation
import Testing
@testable import TesseraKit
@testable import TesseraCLI

extension Serve {
    /// Incremental equals full, always: random sequences of edits (content, templates, schemas,
    /// `site.yml`, translation tables, static files; adds, deletes, renames, broken files) go
    /// through the serve rebuild path (`PreviewSession`), and after each one the preview folder
    /// must hold byte for byte what a fresh full build writes, or both must fail with the same
    /// diagnostics. `TESSERA_DIFF_SEEDS=N` runs more sequences.
    ///
    /// Even seeds tell each rebuild which files changed, as `tessera serve`'s watcher does (files
    /// it does not name are then not read, and edits of page bodies alone take the shortest
    /// path); odd seeds do not, as after lost events.
    @Suite struct DifferentialRebuildTests {
        static let seeds: [UInt64] = Array(1...UInt64(ProcessInfo.processInfo.environment["TESSERA_DIFF_SEEDS"].flatMap(Int.init) ?? 16))
        static let steps = 25

        @Test(arguments: seeds)
        func randomEditsRebuildToTheSameBytesAsAFullBuild(seed: UInt64) throws {
            let site = try DifferentialSite()
            defer { site.remove() }
            var random = SplitMix64(seed: seed)
            let session = PreviewSession(options: site.options(output: site.root + "/preview"))
            let watched = seed % 2 == 0
            var log: [String] = []
            var bodyRebuilds = 0
            _ = session.build()
            for step in 0..<Self.steps {
                site.touched = []
                let edit = site.randomEdit(&random)
                log.append(edit)
                let incremental = session.build(changes: watched ? site.touched : nil)
                let full = site.fullBuild(step: step)
                let context = "seed \(seed), after: " + log.joined(separator: " → ")
                switch (incremental, full) {
                case (.built(let report, _), .success(let folder)):
                    if report.stepTimings.map(\.step) == ["edited pages"] { bodyRebuilds += 1 }
                    let difference = DifferentialSite.difference(site.root + "/preview", folder)
                    #expect(difference == nil, "\(context)\n\(difference ?? "")")
                    if difference != nil { return }
                case (.failed(let got), .failure(let wanted)):
                    #expect(got.map { $0.formatted(relativeTo: site.root) } == wanted, "\(context)")
                case (.built, .failure(let wanted)):
                    Issue.record("the rebuild succeeded but a full build fails: \(wanted)\n\(context)")
                    return
                case (.failed(let got), .success):
                    Issue.record("the rebuild failed but a full build succeeds: \(got.map { $0.formatted(relativeTo: site.root) })\n\(context)")
                    return
                }
            }
            #expect(log.count == Self.steps)
            if ProcessInfo.processInfo.environment["TESSERA_DIFF_REPORT"] != nil { print("seed \(seed): \(bodyRebuilds) body rebuilds") }
        }

        /// Edits of page bodies alone, as the watcher reports them: each takes the short path
        /// (unless a full-content feed carries the page) and writes what a full build writes.
        @Test(arguments: [false, true])
        func bodyEditsRebuildToTheSameBytesAsAFullBuild(fullContentFeeds: Bool) throws {
            let site = try DifferentialSite()
            defer { site.remove() }
            if fullContentFeeds {
                try site.write("site.yml", site.siteConfiguration(languages: true, title: "Diff", zone: "UTC", currency: "EUR", owner: "Grace"))
            }
            let session = PreviewSession(options: site.options(output: site.root + "/preview"))
            guard case .built = session.build() else { Issue.record("the first build fails"); return }
            var shortPath: [String] = []
            let edited = (site.pages + ["content/list.md"]) + (site.pages + ["content/list.md"])
            for (step, page) in edited.enumerated() {
                site.touched = []
                try site.write(page, try site.withBody(page, "Step \(step): *new* words.\n\nAnd a [link](/p0/).\n"))
                guard case .built(let report, let changed) = session.build(changes: site.touched) else { Issue.record("step \(step) fails"); return }
                if report.stepTimings.map(\.step) == ["edited pages"] { shortPath.append(page) }
                #expect(!changed.isEmpty)
                guard case .success(let folder) = site.fullBuild(step: step) else { Issue.record("the full build fails"); return }
                let difference = DifferentialSite.difference(site.root + "/preview", folder)
                #expect(difference == nil, "step \(step), \(page): \(difference ?? "")")
            }
            // With full-content feeds, the three pages the list's feed carries (by title, limit 3)
            // take the whole pipeline.
            #expect(shortPath == (fullContentFeeds ? edited.filter { !["content/p0.md", "content/p1.md", "content/p2.md"].contains($0) } : edited))
        }

        /// A theme's `{{#picture}}` of a photo: a body edit renders it again from what the preview
        /// wrote (short path), and new bytes of the photo give every page its new files, though
        /// no page's view changed. Each time the folder holds what a full build writes.
        @Test func aTemplatePictureFollowsItsPhoto() throws {
            let site = try DifferentialSite()
            defer { site.remove() }
            try site.write("themes/mini/partials/footer.mustache", "<footer>{{#t}}footer{{/t}} {{#picture}}/photo.jpg alt=\"{{site.params.owner}}\" widths=\"64 128\"{{/picture}}</footer>")
            let session = PreviewSession(options: site.options(output: site.root + "/preview"))
            guard case .built = session.build() else { Issue.record("the first build fails"); return }
            let photo = try Data(contentsOf: URL(fileURLWithPath: site.root + "/static/photo.jpg"))
            let steps: [(String, () throws -> Void)] = [
                ("a body edit", { try site.write("content/p1.md", try site.withBody("content/p1.md", "Edited.\n")) }),
                ("new bytes of the photo", {
                    // The same photo, a third as tall: other sizes, other names.
                    let cropped = try ImageCodec.encode(
                        ImageCodec.scaled(photo, width: 96, height: 32, crop: nil), as: .jpeg, quality: 80, effort: 0)
                    try cropped.write(to: URL(fileURLWithPath: site.root + "/static/photo.jpg"))
                    site.touched.insert(site.root + "/static/photo.jpg")
                }),
            ]
            var pictures: [String] = []
            for (step, (name, change)) in steps.enumerated() {
                site.touched = []
                try change()
                guard case .built(let report, _) = session.build(changes: site.touched) else { Issue.record("\(name) fails"); return }
                if step == 0 { #expect(report.stepTimings.map(\.step) == ["edited pages"], "\(report.stepTimings.map(\.step))") }
                guard case .success(let folder) = site.fullBuild(step: step) else { Issue.record("the full build fails after \(name)"); return }
                let difference = DifferentialSite.difference(site.root + "/preview", folder)
                #expect(difference == nil, "\(name): \(difference ?? "")")
                let html = try String(contentsOfFile: site.root + "/preview/p1/index.html", encoding: .utf8)
                let start = try #require(html.range(of: "<picture>")).lowerBound
                pictures.append(String(html[start...].prefix(120)))
            }
            #expect(pictures.count == 2 && pictures[0] != pictures[1], "\(pictures)")
        }

        /// A body edit that shows a photo: the first time a page shows it, its sizes are files the
        /// preview has not written, and the whole pipeline makes them; after, an edit of a page
        /// that shows it takes the short path. Either way the folder holds what a full build writes.
        @Test func aBodyEditThatShowsANewPhotoWritesItsSizes() throws {
            let site = try DifferentialSite()
            defer { site.remove() }
            let session = PreviewSession(options: site.options(output: site.root + "/preview"))
            guard case .built = session.build() else { Issue.record("the first build fails"); return }
            var paths: [[String]] = []
            for (step, body) in ["![A photo](/photo.jpg)\n", "The photo again: ![A photo](/photo.jpg)\n"].enumerated() {
                site.touched = []
                try site.write("content/p1.md", try site.withBody("content/p1.md", body))
                guard case .built(let report, _) = session.build(changes: site.touched) else { Issue.record("step \(step) fails"); return }
                paths.append(report.stepTimings.map(\.step))
                guard case .success(let folder) = site.fullBuild(step: step) else { Issue.record("the full build fails"); return }
                let difference = DifferentialSite.difference(site.root + "/preview", folder)
                #expect(difference == nil, "step \(step): \(difference ?? "")")
            }
            #expect(paths.first != ["edited pages"] && paths.last == ["edited pages"], "\(paths)")
        }

        /// Edits of front matter values that lists show but no list sorts by (a title, a value
        /// the list's component maps), as the watcher reports them: the page, the list page it
        /// is on, the list's feeds and the JSON index are made again, and nothing else; the
        /// folder holds what a full build writes. Under a list sorted by title, a title edit
        /// takes the whole pipeline.
        @Test func shownValueEditsRebuildToTheSameBytesAsAFullBuild() throws {
            let site = try DifferentialSite()
            defer { site.remove() }
            try site.write("content/list.md", site.list(sort: "path"))
            let session = PreviewSession(options: site.options(output: site.root + "/preview"))
            guard case .built = session.build() else { Issue.record("the first build fails"); return }
            let before = DifferentialSite.snapshot(site.root + "/preview")
            var reached = Set<String>()
            for (step, page) in site.pages.enumerated() {
                site.touched = []
                let text = try String(contentsOfFile: site.root + "/" + page, encoding: .utf8)
                try site.write(page, text.replacing(/\ntitle: [^\n]*\n/, with: "\ntitle: \"Retitled \(step)\"\nprogress: 0.\(step + 1)\n", maxReplacements: 1))
                guard case .built(let report, let changed) = session.build(changes: site.touched) else { Issue.record("step \(step) fails"); return }
                #expect(report.stepTimings.map(\.step) == ["edited pages"], "step \(step), \(page)")
                // p0 and p1 are on the list's first page, p2 and p3 on its second.
                let name = page.dropFirst("content/".count).dropLast(3)
                let listPage = step < 2 ? "list/" : "list/page/2/"
                // The search index too: the title is indexed.
                #expect(Set(changed.filter { !$0.hasPrefix("search/") }) == Set([
                    "\(name)/index.html", "\(name)/index.json", listPage + "index.html", listPage + "index.json",
                    "list/index.xml", "list/atom.xml", "list/feed.json", "api/index.json",
                ]), "step \(step), \(page): \(changed)")
                #expect(changed.contains("search/en/meta.json") && changed.contains("search/en/docs/0.json"), "\(changed)")
                reached.formUnion(changed)
                guard case .success(let folder) = site.fullBuild(step: step) else { Issue.record("the full build fails"); return }
                let difference = DifferentialSite.difference(site.root + "/preview", folder)
                #expect(difference == nil, "step \(step), \(page): \(difference ?? "")")
            }
            // Files no edit reached are the first build's, untouched.
            let after = DifferentialSite.snapshot(site.root + "/preview")
            let untouched = Set(before.keys).subtracting(reached)
            #expect(untouched.count > 5 && untouched.allSatisfy { after[$0] == before[$0] }, "\(untouched.sorted())")

            try site.write("content/list.md", site.list(sort: "title"))
            guard case .built = session.build(changes: site.touched) else { Issue.record("the list's new sort fails"); return }
            site.touched = []
            let page = site.pages[0]
            let text = try String(contentsOfFile: site.root + "/" + page, encoding: .utf8)
            try site.write(page, text.replacing(/\ntitle: [^\n]*\n/, with: "\ntitle: Zebra\n", maxReplacements: 1))
            guard case .built(let report, _) = session.build(changes: site.touched) else { Issue.record("the title edit fails"); return }
            #expect(report.stepTimings.map(\.step) != ["edited pages"], "a list sorts by title")
            guard case .success(let folder) = site.fullBuild(step: 99) else { Issue.record("the full build fails"); return }
            #expect(DifferentialSite.difference(site.root + "/preview", folder) == nil)
        }

        /// No input stops `tessera serve`: each hostile file fails one rebuild with an error, and
        /// the next good save builds again.
        @Test func hostileInputFailsARebuildAndTheNextSaveRecovers() throws {
            let site = try DifferentialSite()
            defer { site.remove() }
            let session = PreviewSession(options: site.options(output: site.root + "/preview"))
            guard case .built = session.build() else { Issue.record("the first build fails"); return }
            var bomb = "title: Bomb\na0: &a0 [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
            for level in 1...12 { bomb += "a\(level): &a\(level) [" + Array(repeating: "*a\(level - 1)", count: 9).joined(separator: ", ") + "]\n" }
            var deepComponents = "{\"component\": \"note\", \"message\": \"x\"}"
            for _ in 0..<2000 { deepComponents = "{\"component\": \"course\", \"title\": \"t\", \"items\": [\(deepComponents)]}" }
            let hostile: [(String, String)] = [
                ("themes/mini/partials/footer.mustache", "<footer>{{> footer}}</footer>"),
                ("content/deep.yml", "title: Deep\nx: " + String(repeating: "[", count: 5000) + String(repeating: "]", count: 5000) + "\n"),
                ("content/bomb.yml", bomb),
                ("content/deep.json", "{\"title\": \"Deep\", \"components\": [\(deepComponents)]}"),
                ("themes/mini/components/note.mustache", "{{#a}}" + String(repeating: "{{#b}}", count: 3000)),
                ("themes/mini/i18n/en.yml", "footer: \"{{#broken\"\nopen: Open\n"),
                ("site.yml", "title: [unclosed\n"),
            ]
            for (path, text) in hostile {
                let original = try? String(contentsOfFile: site.root + "/" + path, encoding: .utf8)
                try site.write(path, text)
                guard case .failed(let errors) = session.build() else {
                    Issue.record("\(path): the rebuild succeeded")
                    continue
                }
                #expect(errors.contains { $0.location?.file.hasSuffix(path) == true }, "\(path): \(errors)")
                if let original { try site.write(path, original) } else { try FileManager.default.removeItem(atPath: site.root + "/" + path) }
                guard case .built = session.build() else { Issue.record("\(path): the build after the fix fails"); continue }
            }
        }

        @Test func theComparisonSeesADifferentByte() throws {
            let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-diff-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: root) }
            for (folder, text) in [("a", "<p>one</p>"), ("b", "<p>onE</p>")] {
                try FileManager.default.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true)
                try Data(text.utf8).write(to: URL(fileURLWithPath: root + "/\(folder)/index.html"))
            }
            #expect(DifferentialSite.difference(root + "/a", root + "/b") == "index.html differs")
            try Data("x".utf8).write(to: URL(fileURLWithPath: root + "/b/extra.html"))
            #expect(DifferentialSite.difference(root + "/a", root + "/b")?.contains("extra.html") == true)
        }
    }
}

/// A deterministic generator, so a failing sequence replays from its seed.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A site with two languages' worth of moving parts, edited at random.
final class DifferentialSite {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-diff-\(UUID().uuidString)").path
    /// Content pages that exist now (relative paths under content/).
    var pages: [String] = []
    var counter = 0
    /// Every path written, created, moved or removed since it was last emptied: what a watcher
    /// of the site reports.
    var touched: Set<String> = []

    static let theme: [String: String] = [
        "themes/mini/theme.yml": "name: Mini\ndefaultShell: card\n",
        "themes/mini/layouts/page.mustache": "<title>{{page.title}} · {{site.title}}</title><main lang=\"{{page.lang}}\">{{{content}}}{{{sections}}}</main>{{> footer}}\n",
        "themes/mini/sections/list.mustache": "<section>{{{header}}}<ul>{{#items}}<li>{{{html}}}</li>{{/items}}</ul>{{{footer}}}</section>",
        "themes/mini/shells/card.mustache": "<article class=\"{{component.code}}\">{{{body}}}</article>",
        "themes/mini/partials/footer.mustache": "<footer>{{#t}}footer{{/t}} {{site.params.owner}}</footer>",
        "themes/mini/components/note.yml": "fields:\n  message: { type: inline-markdown, required: true }\n  when: { type: date, format: medium }\n",
        "themes/mini/components/note.mustache": "<p>{{{message}}}{{#when}} <time>{{when}}</time>{{/when}}</p>",
        "themes/mini/components/course.yml": "fields:\n  title: { type: text, required: true }\n  progress: { type: percent }\n  price: { type: currency }\n  link: { type: link }\n",
        "themes/mini/components/course.mustache": "<h3>{{title}}</h3>{{#progress}}<b>{{progress}}</b>{{/progress}}{{#price}}<i>{{price}}</i>{{/price}}{{#link}}<a href=\"{{link}}\">{{#t}}open{{/t}}</a>{{/link}}",
        "themes/mini/i18n/en.yml": "footer: Made with care\nopen: Open\n",
        "themes/mini/i18n/fr.yml": "footer: Fait avec soin\nopen: Ouvrir\n",
        "static/site.css": "body{}",
    ]

    init() throws {
        for (path, text) in Self.theme { try write(path, text) }
        // Two photos, which bodies show now and then: a body edit may need a photo no page showed.
        let photo = try Data(contentsOf: URL(fileURLWithPath: EndToEndTests.repositoryRoot + "/Tests/TesseraKitTests/Fixtures/images/small.jpg"))
        try FileManager.default.createDirectory(atPath: root + "/static", withIntermediateDirectories: true)
        for name in ["photo.jpg", "other.jpg"] { try photo.write(to: URL(fileURLWithPath: root + "/static/" + name)) }
        try write("site.yml", siteConfiguration(languages: false, title: "Diff", zone: "UTC", currency: "EUR", owner: "Ada"))
        for index in 0..<4 { try addPage(index) }
        // A feed of the other pages: every edit to them must reach it.
        try write("content/list.md", "---\ntitle: All pages\nfeeds: [rss, atom, json]\naliases: [/everything/]\nsections:\n  - query: { sort: title, component: course }\n---\n")
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    /// The list page, its query sorted by `sort`, two pages to a page of the list.
    func list(sort: String) -> String {
        "---\ntitle: All pages\nfeeds: [rss, atom, json]\naliases: [/everything/]\nsections:\n  - query: { sort: \(sort), component: course, paginate: 2 }\n---\n"
    }

    /// Every file of a folder with its bytes.
    static func snapshot(_ folder: String) -> [String: Data] {
        var files: [String: Data] = [:]
        for path in FileTree.files(in: folder, boundary: nil, problems: DiagnosticCollector()) {
            files[path] = FileManager.default.contents(atPath: folder + "/" + path)
        }
        return files
    }

    func options(output: String) -> BuildOptions {
        BuildOptions(sourceDirectory: root, outputDirectory: output, fallbackBuildDate: Date(timeIntervalSince1970: 0))
    }

    func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > root.count, !FileManager.default.fileExists(atPath: folder) {
            touched.insert(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        touched.insert(path)
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
        touched.insert(root + "/" + relative)
    }

    func move(_ relative: String, to target: String) throws {
        try FileManager.default.moveItem(atPath: root + "/" + relative, toPath: root + "/" + target)
        touched.formUnion([root + "/" + relative, root + "/" + target])
    }

    /// The page's text with its body replaced, front matter untouched.
    func withBody(_ relative: String, _ body: String) throws -> String {
        let text = try String(contentsOfFile: root + "/" + relative, encoding: .utf8)
        guard text.hasPrefix("---\n"), let close = text.range(of: "\n---\n") else { return text + body }
        return String(text[..<close.upperBound]) + body
    }

    func siteConfiguration(languages: Bool, title: String, zone: String, currency: String, owner: String) -> String {
        "title: \(title)\ntheme: mini\nbaseURL: https://example.com/\nbuildDate: 2026-11-22T12:00:00Z\ntimeZone: \(zone)\ncurrency: \(currency)\n"
            + (owner == "Grace" ? "feeds: { content: full, limit: 3 }\n" : "")
            + "params:\n  owner: \(owner)\n"
            + (languages ? "language: en\nlanguages:\n  en: {}\n  fr: { title: Diff FR }\n" : "")
    }

    func page(_ index: Int, title: String, link: String?) -> String {
        """
        ---
        title: \(title)
        sections:
          - header: { component: course, title: "\(title)", progress: 0.\(index % 10), price: \(index * 3).5\(link.map { ", link: \($0)" } ?? "") }
            items:
              - { component: note, message: "Page *\(index)*", when: 2026-11-0\(index % 9 + 1)T10:00:00Z }
        ---
        Body of \(index).
        """
    }

    func addPage(_ index: Int) throws {
        let relative = "content/p\(index).md"
        let link = pages.last.map { "/" + ($0.dropFirst("content/".count).dropLast(3)) + "/" }
        try write(relative, page(index, title: "Page \(index)", link: link))
        pages.append(relative)
        counter = max(counter, index + 1)
    }

    /// Applies one random edit and says what it was.
    func randomEdit(_ random: inout SplitMix64) -> String {
        let edits: [(String, (inout SplitMix64) throws -> String)] = [
            ("edit page", { r in
                guard let page = self.pages.randomElement(using: &r) else { return "none" }
                try self.write(page, self.page(Int.random(in: 0..<50, using: &r), title: "Edited \(Int.random(in: 0..<1000, using: &r))", link: nil))
                return "edit \(page)"
            }),
            ("edit title", { r in
                guard let page = self.pages.randomElement(using: &r) else { return "none" }
                // The top-level `progress:` line of an earlier title edit goes, and a new one comes.
                let text = try String(contentsOfFile: self.root + "/" + page, encoding: .utf8).replacing(/\nprogress: [^\n]*\n/, with: "\n")
                let value = ["Retitled \(Int.random(in: 0..<1000, using: &r))", "\"Quoted: \\\"it\\\"\"", "A"].randomElement(using: &r)!
                try self.write(page, text.replacing(/\ntitle: [^\n]*\n/, with: "\ntitle: \(value)\nprogress: 0.\(Int.random(in: 1..<10, using: &r))\n", maxReplacements: 1))
                return "title of \(page)"
            }),
            ("list sort", { r in
                let sort = ["title", "path", "date"].randomElement(using: &r)!
                try self.write("content/list.md", self.list(sort: sort))
                return "list sorted by \(sort)"
            }),
            ("edit body", { r in
                guard let page = (self.pages + ["content/list.md"]).randomElement(using: &r) else { return "none" }
                let bodies = [
                    "Body \(Int.random(in: 0..<1000, using: &r)) with *emphasis*.\n", "First paragraph.\n\nSecond, [a link](/p0/).\n", "", "Links to [nothing](missing.md).\n",
                    "## A heading\n\nProse.\n\n```component\ncomponent: note\nmessage: Placed \(Int.random(in: 0..<1000, using: &r)).\n```\n",
                    "```component\ncomponent: nte\n```\n",
                    // Highlighted code, an unknown language, fence options.
                    "```swift\nlet n = \(Int.random(in: 0..<1000, using: &r))\n```\n", "```swfit\nlet n = 1\n```\n",
                    "Code:\n\n```ts {linenos=true hl_lines=[1] title=\"a.ts\"}\nconst a = \(Int.random(in: 0..<1000, using: &r));\n```\n",
                    // Ids other pages link to, and links to other pages' ids, which may go missing.
                    "## Setup\n\nSteps.\n\n## Usage {#use}\n", "Setup\n=====\n\nNo usage.\n",
                    "See [setup](/p0/#setup) and [usage](@/p1.md#use).\n", "Jump to [the top](#setup).\n\n## Setup\n",
                    // Photos, made into sizes: one another page may show, one maybe no page shows yet.
                    "A photo:\n\n![Photo](/photo.jpg \"Small\")\n", "Two: ![a](/photo.jpg) and ![b](/other.jpg).\n",
                ]
                try self.write(page, try self.withBody(page, bodies.randomElement(using: &r)!))
                return "body of \(page)"
            }),
            ("fragment link field", { r in
                guard let page = self.pages.randomElement(using: &r) else { return "none" }
                let text = try String(contentsOfFile: self.root + "/" + page, encoding: .utf8)
                let target = ["/p0/#setup", "/p1/#use", "/p0/#nowhere"].randomElement(using: &r)!
                try self.write(page, text.replacing(/price: ([0-9.]+)(, link: [^ }]*)?/, with: { "price: \($0.output.1), link: \(target)" }))
                return "link field of \(page) → \(target)"
            }),
            ("edit sections", { r in
                guard let page = self.pages.randomElement(using: &r) else { return "none" }
                let text = try String(contentsOfFile: self.root + "/" + page, encoding: .utf8)
                let progress = Int.random(in: 0..<10, using: &r)
                try self.write(page, text.replacing(/progress: 0\.\d+/, with: "progress: 0.\(progress)").replacing(/\*\d+\*/, with: "*\(progress * 7)*"))
                return "sections of \(page)"
            }),
            ("edit two bodies", { r in
                let chosen = self.pages.shuffled(using: &r).prefix(2)
                for page in chosen { try self.write(page, try self.withBody(page, "Both changed \(Int.random(in: 0..<1000, using: &r)).\n")) }
                return "bodies of \(chosen.joined(separator: ", "))"
            }),
            ("add page", { _ in try self.addPage(self.counter); return "add p\(self.counter - 1)" }),
            ("delete page", { r in
                guard self.pages.count > 1, let page = self.pages.randomElement(using: &r) else { return "none" }
                try self.remove(page)
                self.pages.removeAll { $0 == page }
                return "delete \(page)"
            }),
            ("rename page", { r in
                guard let page = self.pages.randomElement(using: &r) else { return "none" }
                let target = "content/renamed\(self.counter).md"
                self.counter += 1
                try self.move(page, to: target)
                self.pages = self.pages.map { $0 == page ? target : $0 }
                return "rename \(page) → \(target)"
            }),
            ("french page", { r in
                guard let page = self.pages.filter({ !$0.hasSuffix(".fr.md") }).randomElement(using: &r) else { return "none" }
                let target = String(page.dropLast(3)) + ".fr.md"
                try self.write(target, self.page(7, title: "En français", link: nil))
                if !self.pages.contains(target) { self.pages.append(target) }
                return "translate \(page)"
            }),
            ("break page", { r in
                guard let page = self.pages.randomElement(using: &r) else { return "none" }
                try self.write(page, "---\ntitle: [unclosed\n---\n")
                return "break \(page)"
            }),
            ("component template", { r in
                let text = ["<p class=\"n\">{{{message}}}</p>", "<p>{{{message}}}{{#when}} <time>{{when}}</time>{{/when}}</p>", "<div>{{{message}}}</div>"].randomElement(using: &r)!
                try self.write("themes/mini/components/note.mustache", text)
                return "note template"
            }),
            ("render hook", { r in
                let path = ["themes/mini/markdown/link.mustache", "themes/mini/markdown/heading.mustache", "markdown/link.mustache"].randomElement(using: &r)!
                if Bool.random(using: &r), (try? self.remove(path)) != nil { return "remove \(path)" }
                let text = path.hasSuffix("heading.mustache")
                    ? "<h{{level}} id=\"{{id}}\">{{{html}}} <a href=\"#{{id}}\">{{#t}}open{{/t}}</a></h{{level}}>\n"
                    : ["<a href=\"{{url}}\"{{#external}} rel=\"noopener\"{{/external}}>{{{html}}}</a>", "<a class=\"x\" href=\"{{url}}\">{{text}}</a>"].randomElement(using: &r)!
                try self.write(path, text)
                return "hook \(path)"
            }),
            ("layout", { r in
                let text = ["<title>{{page.title}}</title><main>{{{content}}}{{{sections}}}</main>{{> footer}}\n", "<title>{{page.title}} · {{site.title}}</title><main lang=\"{{page.lang}}\">{{{content}}}{{{sections}}}</main>{{> footer}}\n"].randomElement(using: &r)!
                try self.write("themes/mini/layouts/page.mustache", text)
                return "layout"
            }),
            ("partial", { r in
                let text = ["<footer>{{#t}}footer{{/t}} {{site.params.owner}}</footer>", "<footer>© {{site.params.owner}}</footer>", "<footer>{{#t}}footer{{/t}}</footer>"].randomElement(using: &r)!
                try self.write("themes/mini/partials/footer.mustache", text)
                return "partial"
            }),
            ("shell", { r in
                try self.write("themes/mini/shells/card.mustache", ["<article class=\"{{component.code}}\">{{{body}}}</article>", "<div class=\"card\">{{{body}}}</div>"].randomElement(using: &r)!)
                return "shell"
            }),
            ("schema", { r in
                let format = ["medium", "long", "short", "yyyy-MM-dd"].randomElement(using: &r)!
                try self.write("themes/mini/components/note.yml", "fields:\n  message: { type: inline-markdown, required: true }\n  when: { type: date, format: \(format) }\n")
                return "note schema format \(format)"
            }),
            ("site.yml", { r in
                let languages = Bool.random(using: &r)
                try self.write("site.yml", self.siteConfiguration(
                    languages: languages, title: ["Diff", "Other"].randomElement(using: &r)!,
                    zone: ["UTC", "Asia/Tokyo", "America/New_York"].randomElement(using: &r)!,
                    currency: ["EUR", "USD", "JPY"].randomElement(using: &r)!, owner: ["Ada", "Grace"].randomElement(using: &r)!))
                return "site.yml languages=\(languages)"
            }),
            ("translation", { r in
                let language = ["en", "fr"].randomElement(using: &r)!
                let footer = ["Made with care", "Hecho", "Fait avec soin", "Built"].randomElement(using: &r)!
                try self.write("themes/mini/i18n/\(language).yml", "footer: \(footer)\nopen: \(language == "en" ? "Open" : "Ouvrir")\n")
                return "i18n \(language)"
            }),
            ("special file", { r in
                // What the build cannot take: a FIFO, a link loop, a dangling link; or a link to
                // a page, which it follows. The next "special file" edit may take it back.
                let path = self.root + "/content/special.md"
                self.touched.insert(path)
                if unlink(path) == 0 { return "remove content/special.md" }
                switch Int.random(in: 0..<4, using: &r) {
                case 0: mkfifo(path, 0o644); return "FIFO content/special.md"
                case 1: symlink("special.md", path); return "link loop content/special.md"
                case 2: symlink("gone.md", path); return "dangling link content/special.md"
                default:
                    guard let page = self.pages.first(where: { !$0.hasSuffix(".fr.md") }) else { return "none" }
                    symlink(String(page.dropFirst("content/".count)), path)
                    return "link content/special.md → \(page)"
                }
            }),
            ("static", { r in
                if Bool.random(using: &r) {
                    try self.write("static/extra\(Int.random(in: 0..<3, using: &r)).css", "a{}")
                    return "add static"
                }
                try? self.remove("static/extra0.css")
                return "remove static"
            }),
        ]
        // Body edits are what a writer does most, and take a path of their own: twice as likely.
        let (name, edit) = (edits + edits.filter { $0.0.contains("body") || $0.0.contains("sections") }).randomElement(using: &random)!
        do { return try edit(&random) } catch { return "\(name) failed: \(error)" }
    }

    enum FullBuild { case success(String), failure([String]) }

    func fullBuild(step: Int) -> FullBuild {
        let output = root + "/full-\(step)"
        do {
            try SiteBuilder(options: options(output: output)).build()
            return .success(output)
        } catch let error as TesseraError {
            return .failure(error.diagnostics.map { $0.formatted(relativeTo: root) })
        } catch {
            return .failure(["\(error)"])
        }
    }

    /// nil when both folders hold the same files with the same bytes (the marker aside).
    static func difference(_ incremental: String, _ full: String) -> String? {
        func files(_ folder: String) -> [String] {
            FileTree.files(in: folder, boundary: nil, problems: DiagnosticCollector()).filter { $0 != ".tessera-output" }
        }
        let got = files(incremental), wanted = files(full)
        if got != wanted {
            return "files differ: only in the rebuild \(Set(got).subtracting(wanted).sorted()), only in the full build \(Set(wanted).subtracting(got).sorted())"
        }
        for path in wanted where FileManager.default.contents(atPath: incremental + "/" + path) != FileManager.default.contents(atPath: full + "/" + path) {
            return "\(path) differs"
        }
        return nil
    }
}
