import Foundation
import TesseraKit

/// One fuzz input is a small site: its parts, split at lines `---8<---`, become in order
/// `content/index.md` (front matter + Markdown), `themes/fuzz/components/box.mustache`,
/// `themes/fuzz/components/box.yml` (the schema), `themes/fuzz/i18n/en.yml`,
/// `content/feed.yml` (a feed) and `site.yml` additions. Each input is built through the real
/// pipeline (`check`: everything but the write), so front-matter parsing, YAML, component
/// mapping, Markdown, template parsing and rendering all see it. Errors are expected; crashes,
/// hangs and leaks are what the fuzzer looks for.
enum FuzzSite {
    static let root: String = {
        let path = NSTemporaryDirectory() + "tessera-fuzz-\(getpid())"
        let fixed: [String: String] = [
            "themes/fuzz/theme.yml": "name: Fuzz\ndefaultShell: card\n",
            "themes/fuzz/layouts/page.mustache": "<title>{{page.title}}</title>{{{content}}}{{{sections}}}{{#t}}hello{{/t}}{{> footer}}",
            "themes/fuzz/sections/list.mustache": "<section>{{{header}}}{{#items}}{{{html}}}{{/items}}{{{footer}}}</section>",
            "themes/fuzz/shells/card.mustache": "<article class=\"{{component.code}}\">{{{body}}}</article>",
            "themes/fuzz/partials/footer.mustache": "<footer>{{site.title}}</footer>",
            "themes/fuzz/components/note.yml": "fields:\n  message: { type: inline-markdown, required: true }\n  when: { type: date, format: medium }\n  amount: { type: currency }\n  link: { type: link }\n  image: { type: image }\n  items: { type: items }\n",
            "themes/fuzz/components/note.mustache": "<p>{{{message}}}{{when}}{{amount}}<a href=\"{{link}}\"><img src=\"{{image}}\"></a>{{#items}}{{{html}}}{{/items}}</p>",
        ]
        for (relative, text) in fixed { write(text, to: path + "/" + relative) }
        return path
    }()

    static let parts = [
        "content/index.md", "themes/fuzz/components/box.mustache", "themes/fuzz/components/box.yml",
        "themes/fuzz/i18n/en.yml", "content/feed.yml", "site.yml",
    ]

    static func write(_ text: String, to path: String) {
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: path, contents: Data(text.utf8))
    }

    static func build(_ input: Data) {
        let text = String(decoding: input, as: UTF8.self)
        var pieces = text.components(separatedBy: "\n---8<---\n")
        pieces += Array(repeating: "", count: max(0, parts.count - pieces.count))
        for (relative, piece) in zip(parts, pieces) {
            let path = root + "/" + relative
            switch relative {
            case "site.yml": write("theme: fuzz\nbuildDate: 2026-11-22T12:00:00Z\n" + piece, to: path)
            case "themes/fuzz/components/box.yml" where piece.isEmpty: write("fields:\n  title: { type: text }\n", to: path)
            default:
                if piece.isEmpty { try? FileManager.default.removeItem(atPath: path) } else { write(piece, to: path) }
            }
        }
        // Raw bytes too: invalid UTF-8 must be an error, never a crash.
        FileManager.default.createFile(atPath: root + "/content/raw.md", contents: input.prefix(4096))
        let options = BuildOptions(sourceDirectory: root, fallbackBuildDate: Date(timeIntervalSince1970: 0), writesOutput: false)
        _ = try? SiteBuilder(options: options).build()
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func tesseraFuzzOne(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    FuzzSite.build(Data(bytes: data, count: count))
    return 0
}
