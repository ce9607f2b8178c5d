import Foundation

/// `tessera new theme NAME`: a small theme that builds the site `tessera new` writes, so switching
/// to it is one line (`theme: NAME`), and that shows every kind of theme file once.
public enum ThemeScaffold {
    /// Creates `themes/<name>/` in the site folder; refuses a name that exists or climbs out.
    @discardableResult
    public static func create(named name: String, in siteDirectory: String) throws -> (directory: String, files: [String]) {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\\"), !name.hasPrefix("."),
              name.unicodeScalars.allSatisfy({ $0.value > 31 }) else {
            throw TesseraError("'\(name)' is not a theme name", hint: "use one folder name such as `ocean`")
        }
        let directory = siteDirectory + "/themes/" + name
        if FileManager.default.fileExists(atPath: directory) {
            throw TesseraError("themes/\(name) already exists", hint: "choose another name; Tessera never replaces a folder of yours")
        }
        let written = try FileTree.writeNewFiles(files(name: name).map { ($0.0, Data($0.1.utf8)) }, below: directory)
        return (directory, written)
    }

    static func files(name: String) -> [(String, String)] {
        [
            ("theme.yml", """
                # The theme's name and the shell of components whose schema names none.
                name: \(name)
                description: A small theme made with `tessera new theme`.
                defaultShell: card

                """),
            ("layouts/page.mustache", """
                <!DOCTYPE html>
                <html lang="{{page.lang}}" dir="{{page.dir}}">
                <head>
                <meta charset="utf-8">
                <meta name="viewport" content="width=device-width, initial-scale=1">
                <title>{{#page.title}}{{page.title}} · {{/page.title}}{{site.title}}</title>
                <meta name="description" content="{{page.description}}">
                <link rel="stylesheet" href="{{#asset}}style.css{{/asset}}">
                </head>
                <body>
                <a class="skip-link" href="#main">{{#t}}skipLink{{/t}}</a>
                <header class="site-header"><a href="{{site.basePath}}">{{site.title}}</a></header>
                <main id="main">
                  {{#page.title}}<h1>{{page.title}}</h1>{{/page.title}}
                  {{#content}}<div class="prose">{{{content}}}</div>{{/content}}
                  {{{sections}}}
                </main>
                <footer class="site-footer"><p>{{#t}}footer{{/t}}</p></footer>
                </body>
                </html>

                """),
            ("sections/list.mustache", """
                <section class="section">
                  {{{header}}}
                  <ul class="items">
                    {{#items}}<li>{{{html}}}</li>{{/items}}
                  </ul>
                  {{{footer}}}
                </section>

                """),
            ("sections/grid.mustache", """
                <section class="section">
                  {{{header}}}
                  <ul class="items grid">
                    {{#items}}<li>{{{html}}}</li>{{/items}}
                  </ul>
                  {{{footer}}}
                </section>

                """),
            ("shells/plain.mustache", """
                <div class="plain">{{{body}}}</div>

                """),
            ("shells/card.mustache", """
                <article class="card">{{{body}}}</article>

                """),
            ("components/section-header.yml", """
                description: The title of a section, with an optional subtitle.
                shell: none
                fields:
                  title: { type: text, required: true }
                  subtitle: { type: text }
                example:
                  title: Getting started

                """),
            ("components/section-header.mustache", """
                <h2>{{title}}</h2>
                {{#subtitle}}<p class="subtitle">{{subtitle}}</p>{{/subtitle}}

                """),
            ("components/notice.yml", """
                description: A short message in a tinted box.
                shell: plain
                fields:
                  message: { type: inline-markdown, required: true }
                  tone: { type: enum, values: [info, success, warning, error], default: info }
                example:
                  message: Two courses are **due** this month.
                  tone: warning

                """),
            ("components/notice.mustache", """
                <p class="notice notice--{{tone}}">{{{message}}}</p>

                """),
            ("components/text.yml", """
                description: A block of Markdown.
                shell: plain
                fields:
                  markdown: { type: markdown, required: true }
                example:
                  markdown: Feeds are **lists** of typed components.

                """),
            ("components/text.mustache", """
                <div class="prose">{{{markdown}}}</div>

                """),
            ("components/article-thumb.yml", """
                description: An article as a card with a title, a summary and a link.
                fields:
                  title: { type: text, required: true }
                  summary: { type: inline-markdown }
                  link: { type: link }
                example:
                  title: Feeds are lists of typed components
                  summary: How mobile teams build screens.
                  link: /

                """),
            ("components/article-thumb.mustache", """
                <h3>{{#link}}<a href="{{link}}">{{title}}</a>{{/link}}{{^link}}{{title}}{{/link}}</h3>
                {{#summary}}<p>{{{summary}}}</p>{{/summary}}

                """),
            ("i18n/en.yml", """
                # Strings of the theme's templates, used as {{#t}}key{{/t}}. A site overrides any key
                # in its own i18n/<lang>.yml; another language is another file (fr.yml, de.yml).
                skipLink: Skip to content
                footer: "{site.title} · Built with {site.generator}"

                """),
            ("static/style.css", """
                :root { color-scheme: light dark; --accent: #2563eb; --surface: #f4f4f5; }
                @media (prefers-color-scheme: dark) { :root { --accent: #93c5fd; --surface: #27272a; } }
                body { margin: 0; font: 1.0625rem/1.6 system-ui, sans-serif; }
                a { color: var(--accent); }
                .skip-link { position: absolute; inset-inline-start: -999px; }
                .skip-link:focus { inset-inline-start: 1rem; }
                .site-header, main, .site-footer { max-width: 68ch; margin-inline: auto; padding-inline: 1rem; }
                .site-header { padding-block: 1rem; font-weight: 600; }
                .site-header a { color: inherit; text-decoration: none; }
                .section { margin-block: 2rem; }
                .items { list-style: none; padding: 0; display: grid; gap: 0.75rem; }
                .grid { grid-template-columns: repeat(auto-fill, minmax(14rem, 1fr)); }
                .card { background: var(--surface); border-radius: 0.75rem; padding: 1rem; height: 100%; box-sizing: border-box; }
                .card h3 { margin: 0 0 0.25rem; font-size: 1.0625rem; }
                .card p { margin: 0; }
                .notice { margin: 0; padding: 0.75rem 1rem; border-radius: 0.5rem; background: var(--surface); border-inline-start: 4px solid var(--accent); }
                .notice--warning { border-color: #d97706; }
                .notice--error { border-color: #dc2626; }
                .notice--success { border-color: #16a34a; }
                .subtitle { margin-top: -0.5rem; opacity: 0.8; }
                .site-footer { padding-block: 2rem; font-size: 0.875rem; opacity: 0.8; }

                """),
        ]
    }
}
