import Foundation

/// Creates a new site that builds at once: site.yml, a home feed, a Markdown page, a 404 page and a
/// `.gitignore`. The theme is not copied: `theme: default` is the theme built into Tessera, so the
/// site gets its fixes with each release (`tessera theme eject` copies it to change it).
public enum SiteScaffold {
    /// Refuses a folder that already holds files, so nothing of the user's is overwritten.
    @discardableResult
    public static func create(at directory: String, title: String) throws -> [String] {
        let fm = FileManager.default
        if let existing = try? fm.contentsOfDirectory(atPath: directory), !existing.filter({ !$0.hasPrefix(".") }).isEmpty {
            throw TesseraError(
                "\(directory) already exists and is not empty", at: nil,
                hint: "choose a new folder name, or empty this one first")
        }
        return try FileTree.writeNewFiles([
            ("site.yml", Data(siteYAML(title: title).utf8)),
            ("content/index.md", Data(homePage.utf8)),
            ("content/about.md", Data(aboutPage.utf8)),
            ("content/404.md", Data(notFoundPage.utf8)),
            (".gitignore", Data(gitignore.utf8)),
        ], below: directory)
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

    /// Uses only components that `tessera new theme` also scaffolds, so either theme builds it.
    static let homePage = """
        ---
        title: Welcome
        summary: A new Tessera site.
        sections:
          - header: { component: section-header, title: Getting started }
            items:
              - component: notice
                message: "This page is a **feed**: edit `content/index.md` to change it."
              - component: text
                markdown: "Each item is a component with its data. Run `tessera components` to see every component of the theme."
          - layout: grid
            header: { component: section-header, title: Next steps }
            items:
              - { component: article-thumb, title: Write a page, summary: "A Markdown file in `content/` is a page.", link: /about/ }
              - { component: article-thumb, title: Change the look, summary: "`tessera theme eject` copies the theme into `themes/default/`; `tessera new theme NAME` starts your own." }
        ---

        """

    static let notFoundPage = """
        ---
        title: Page not found
        summary: The page you asked for does not exist.
        ---
        The link may be old, or the address mistyped. [Go to the home page](/).

        """

    static let gitignore = """
        # What `tessera build` writes: the site, and its build cache.
        /public/
        /.tessera/

        """

    static let aboutPage = """
        ---
        title: About
        ---
        A plain Markdown page. Markdown is GitHub-flavoured (tables, footnotes, task lists), rendered with **libcmark-gfm**; front matter sets the title.

        """
}
