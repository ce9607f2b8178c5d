import Foundation

/// Redirect pages for `aliases:`, so old URLs keep working after a page moves.
enum Aliases {
    /// A page that sends browsers (and search engines, through the canonical link) to `target`.
    static func redirect(to target: String, canonical: String, language: String) -> String {
        let url = escape(target), permalink = escape(canonical)
        return """
            <!DOCTYPE html>
            <html lang="\(escape(language))">
            <head>
            <meta charset="utf-8">
            <title>Moved to \(url)</title>
            <link rel="canonical" href="\(permalink)">
            <meta name="robots" content="noindex">
            <meta http-equiv="refresh" content="0; url=\(url)">
            </head>
            <body>
            <p>This page has moved to <a href="\(url)">\(url)</a>.</p>
            </body>
            </html>

            """
    }

    private static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func outputPath(of url: String) -> String {
        url.hasSuffix(".html") ? String(url.dropFirst()) : String(url.dropFirst()) + "index.html"
    }
}

extension Step where Product == RenderedSite {
    /// One redirect page per alias; an alias may not take the place of a page, a file or another alias.
    public static var writeAliases: Step { Step("aliases") { site, context in
        // The last build's, when every page's URL and aliases are.
        guard !context.reuse.keepsStructure else { return }
        let pages = site.pages.filter { !$0.aliases.isEmpty }
        guard !pages.isEmpty else { return }
        var taken: [String: OutputOwner] = [:]
        taken.reserveCapacity(site.outputs.count + site.staticFiles.count + site.pages.count)
        for output in site.outputs { taken[output.path] = .output }
        for file in site.staticFiles { taken[file.path] = .file(file.path) }
        for page in site.pages { taken[page.outputPath] = .page(page.relativePath) }
        let configuration = site.configuration
        for page in pages {
            for alias in page.aliases {
                let path = Aliases.outputPath(of: alias.url)
                if let owner = taken[path] {
                    context.diagnostics.report(Diagnostic(
                        .error, "the alias \(alias.url) is already \(owner.description)", at: alias.location,
                        hint: "remove the alias, or move what is at \(alias.url)"))
                    continue
                }
                do { try OutputWriter.checkPath(path) } catch { context.diagnostics.report(error, at: alias.location); continue }
                taken[path] = .alias(page.relativePath)
                let target = configuration.basePath + page.url.dropFirst()
                site.outputs.append(.text(path, Aliases.redirect(to: target, canonical: configuration.origin + target, language: page.language)))
            }
        }
    } }
}

/// What is at an output path, described only for an alias that collides with it.
private enum OutputOwner {
    case output, file(String), page(String), alias(String)
    var description: String {
        switch self {
        case .output: return "a page"
        case .file(let path): return "the file \(path)"
        case .page(let source): return "the page content/\(source)"
        case .alias(let source): return "an alias of content/\(source)"
        }
    }
}
