/// The preview's own pages, for when the site has nothing to show.
///
/// They are served with the live-reload script like any page, so they turn into the real page
/// (or show the build's errors) as soon as a rebuild produces something.
enum BuiltInPage {
    static func notFound(path: String) -> String {
        page(
            title: "Not found",
            body: "<h1>Not found</h1><p>The site has no page at <code>\(escaped(path))</code>.</p>"
                + "<p>Add a <code>404.html</code> to the output to show your own page here.</p>")
    }

    static func rebuilding(outputDirectory: String) -> String {
        page(
            title: "Building…",
            body: "<h1>No site to show yet</h1><p>The output folder <code>\(escaped(outputDirectory))</code> "
                + "does not exist: the site is being built, or the last build failed. This page reloads by itself.</p>")
    }

    private static func page(title: String, body: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head><meta charset="utf-8"><title>\(title) · Tessera preview</title>
        <style>body{font:16px/1.5 system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#222}code{font-family:ui-monospace,monospace}</style>
        </head>
        <body>
        \(body)
        </body>
        </html>

        """
    }

    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.append(character)
            }
        }
        return result
    }
}
