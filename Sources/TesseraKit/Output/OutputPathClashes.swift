import Foundation

/// Output paths that two parts of a site need in two ways, one as a file and the other as a
/// folder: the page `/` writes `index.html` and a page with `slug: index.html` needs the folder
/// `index.html/`; a static file `legal.html` and a page `/legal.html/`. Each is refused before
/// anything is written, at the content line that made one side and naming the other's, never at
/// a file of the output.
enum OutputPathClashes {
    /// The clashes among pages: a page whose folder is another page's file.
    static func amongPages(_ pages: [Page], site: String) -> [Diagnostic] {
        var files: [String: Int] = [:]
        files.reserveCapacity(pages.count)
        for (index, page) in pages.enumerated() where files[page.outputPath] == nil { files[page.outputPath] = index }
        var result: [Diagnostic] = []
        for page in pages {
            var folder = page.outputPath
            while folder.utf8.contains(UInt8(ascii: "/")) {
                folder = PathText.folder(folder)
                guard let owner = files[folder] else { continue }
                let other = pages[owner]
                result.append(Diagnostic(
                    .error, "the page \(page.url) needs a folder \(folder)/, where the page \(other.url) writes its file \(folder) (\(urlLocation(of: other).described(relativeTo: site)))",
                    at: urlLocation(of: page), hint: "give one of the two pages another `slug:`, or rename its file"))
                break
            }
        }
        return result
    }

    /// Where a page's URL is decided: its `slug:` line when it has one, else its file.
    static func urlLocation(of page: Page) -> SourceLocation {
        guard page.slug != nil, let line = keyLine("slug", in: page.sourcePath) else { return page.location }
        return SourceLocation(file: page.sourcePath, line: line.line, column: line.column)
    }

    /// The line and the column of the value of a top-level `key:` in a page file's front matter
    /// (or a feed file), read again for the message alone.
    private static func keyLine(_ key: String, in path: String) -> (line: Int, column: Int)? {
        guard let data = FileManager.default.contents(atPath: path) else { return nil }
        let lines = String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        let markdown = lines.first.map { $0.trimmingCharacters(in: .whitespaces) == "---" } ?? false
        for (number, line) in lines.enumerated() {
            if markdown && number > 0 && line.trimmingCharacters(in: .whitespaces) == "---" { return nil }
            guard line.hasPrefix(key + ":") else { continue }
            let value = line.dropFirst(key.count + 1).prefix { $0 == " " }.count
            return (number + 1, key.count + 2 + value)
        }
        return nil
    }
}
