import Foundation
@testable import TesseraKit

/// A site written to a fresh temporary folder from inline files, built through the real pipeline.
struct TemporarySite {
    let root: String
    /// Removes the folder when the last copy of the site goes.
    private let folder: Folder

    final class Folder: Sendable {
        let path: String
        init(_ path: String) { self.path = path }
        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    /// A small theme written from Documentation/Templates.md alone: one layout, a list section,
    /// a card shell and a few components. Tests add or replace files on top of it.
    static let baseFiles: [String: String] = [
        "site.yml": "title: Test Site\nbuildDate: 2026-11-22T12:00:00Z\n",
        "themes/mini/theme.yml": "name: Mini\ndefaultShell: card\n",
        "themes/mini/layouts/page.mustache": "<title>{{page.title}}</title><main>{{{content}}}{{{sections}}}</main>\n",
        "themes/mini/sections/list.mustache": "<section>{{{header}}}<ul>{{#items}}<li>{{{html}}}</li>{{/items}}</ul>{{{footer}}}</section>",
        "themes/mini/shells/card.mustache": "<article class=\"{{component.code}}\">{{{body}}}</article>",
        "themes/mini/components/note.yml": "fields:\n  message: { type: inline-markdown, required: true }\n",
        "themes/mini/components/note.mustache": "<p>{{{message}}}</p>",
        "themes/mini/components/heading.yml": "shell: none\nfields:\n  title: { type: text, required: true }\n",
        "themes/mini/components/heading.mustache": "<h2>{{title}}</h2>",
        "themes/mini/components/course.yml": """
            fields:
              title: { type: text, required: true }
              progress: { type: percent, required: true }
              updated: { type: date, format: relative }
              link: { type: link }
            """,
        "themes/mini/components/course.mustache": "<h3>{{title}}</h3><progress value=\"{{progress.value}}\">{{progress}}</progress>{{#updated}}<time datetime=\"{{updated.iso}}\">{{updated}}</time>{{/updated}}{{#link}}<a href=\"{{link}}\">go</a>{{/link}}",
        "themes/mini/components/row.yml": "shell: none\nfields:\n  items: { type: items, required: true }\n",
        "themes/mini/components/row.mustache": "<div class=\"row\">{{#items}}<span>{{{html}}}</span>{{/items}}</div>",
        "content/index.md": "---\ntitle: Home\n---\nHello *world*.\n",
    ]

    init(_ files: [String: String], base: [String: String] = baseFiles, theme: String? = "mini") throws {
        root = FileManager.default.temporaryDirectory
            .appendingPathComponent("tessera-test-\(UUID().uuidString)").path
        folder = Folder(root)
        var all = base.merging(files) { _, new in new }
        if let theme, files["site.yml"] == nil {
            all["site.yml"] = (all["site.yml"] ?? "") + "theme: \(theme)\n"
        }
        for (path, text) in all { try write(path, text) }
    }

    func write(_ relative: String, _ text: String) throws {
        let path = root + "/" + relative
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try (TestImages.data(for: text) ?? Data(text.utf8)).write(to: URL(fileURLWithPath: path))
    }

    func remove(_ relative: String) throws {
        try FileManager.default.removeItem(atPath: root + "/" + relative)
    }

    var output: String { root + "/public" }

    /// "Now" for sites whose site.yml sets no build date: the base site's, so dated test pages
    /// are not in the future.
    static let buildDate = Date(timeIntervalSince1970: 1_795_348_800) // 2026-11-22T12:00:00Z

    func options(drafts: Bool = false, write: Bool = true) -> BuildOptions {
        BuildOptions(sourceDirectory: root, includeDrafts: drafts, fallbackBuildDate: Self.buildDate, writesOutput: write)
    }

    @discardableResult
    func build(drafts: Bool = false) throws -> BuildReport {
        try SiteBuilder(options: options(drafts: drafts)).build()
    }

    /// The diagnostics a failing build reports, formatted relative to the site folder.
    func diagnostics(drafts: Bool = false) -> [String] {
        do {
            let report = try SiteBuilder(options: options(drafts: drafts, write: false)).build()
            return report.warnings.map { $0.formatted(relativeTo: root) }
        } catch let error as TesseraError {
            return error.diagnostics.map { $0.formatted(relativeTo: root) }
        } catch {
            return ["unexpected error: \(error)"]
        }
    }

    /// Output files of the build in `output` whose bytes differ from a full build's (made now,
    /// into `full/`), or that only one of them has; the cache folder aside.
    func differencesFromAFullBuild() throws -> [String] {
        var full = options()
        full.outputDirectory = root + "/full"
        try SiteBuilder(options: full).build()
        let cached = OutputSafetyTests.snapshot(output).filter { !$0.key.hasPrefix(".tessera") }
        let rebuilt = OutputSafetyTests.snapshot(root + "/full").filter { !$0.key.hasPrefix(".tessera") }
        return Set(cached.keys).union(rebuilt.keys).filter { cached[$0] != rebuilt[$0] }.sorted()
    }

    func read(_ relative: String) throws -> String {
        try String(contentsOfFile: output + "/" + relative, encoding: .utf8)
    }

    func exists(_ relative: String) -> Bool {
        FileManager.default.fileExists(atPath: output + "/" + relative)
    }
}

/// The repository root, found from this file's path.
enum Repository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url.path }
        }
        fatalError("Package.swift not found above \(#filePath)")
    }()

    static func fixture(_ path: String) -> String {
        root + "/Tests/TesseraKitTests/Fixtures/" + path
    }
}
