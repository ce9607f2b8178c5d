import Foundation

/// Creates a new site that builds at once: site.yml, a home feed, a Markdown page, the default theme.
public enum SiteScaffold {
    /// Refuses a folder that already holds files, so nothing of the user's is overwritten.
    public static func create(at directory: String, title: String) throws -> [String] {
        let fm = FileManager.default
        if let existing = try? fm.contentsOfDirectory(atPath: directory), !existing.filter({ !$0.hasPrefix(".") }).isEmpty {
            throw TesseraError(
                "\(directory) already exists and is not empty", at: nil,
                hint: "choose a new folder name, or empty this one first")
        }
        var written: [String] = []
        func write(_ relative: String, _ data: Data) throws {
            let path = directory + "/" + relative
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard fm.createFile(atPath: path, contents: data) else {
                throw TesseraError("could not write \(path)", hint: "check that the folder is writable")
            }
            written.append(relative)
        }
        try write("site.yml", Data(siteYAML(title: title).utf8))
        try write("content/index.md", Data(homePage.utf8))
        try write("content/about.md", Data(aboutPage.utf8))
        for file in DefaultTheme.files {
            try write("themes/\(DefaultTheme.name)/\(file.path)", file.data)
        }
        return written
    }

    static func siteYAML(title: String) -> String {
        let quoted = "\"" + title.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\""
        return """
        # Site configuration; every key is optional. See Documentation/Configuration.md.
        title: \(quoted)
        baseURL: /
        theme: default
        language: en
        timeZone: UTC

        """
    }

    static let homePage = """
        ---
        title: Welcome
        sections:
          - header: { component: section-header, title: Getting started }
            items:
              - component: notice
                message: "This page is a **feed**: edit `content/index.md` to change it."
              - component: course-progress
                title: Your first site
                progress: 0.25
                link: /about/
            footer: { component: section-footer, text: "Run `tessera components` to see every component." }
          - layout: grid
            header: { component: section-header, title: At a glance }
            items:
              - { component: stat, value: 2, label: Pages }
              - { component: stat, value: 1, label: Theme }
        ---

        """

    static let aboutPage = """
        ---
        title: About
        ---
        A plain Markdown page. Markdown is rendered with **libcmark**; front matter sets the title.

        """
}
