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

extension BuildStep {
    /// One redirect page per alias; an alias may not take the place of a page, a file or another alias.
    public static let writeAliases = BuildStep("aliases") { state in
        // The last build's, when every page's URL and aliases are.
        guard state.incremental?.structureKept != true else { return }
        let pages = state.pages.filter { !$0.aliases.isEmpty }
        guard !pages.isEmpty else { return }
        // What is at each output path, described only for an alias that collides with it.
        enum Owner {
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
        var taken: [String: Owner] = [:]
        taken.reserveCapacity(state.outputs.count + state.staticFiles.count + state.pages.count)
        for output in state.outputs { taken[output.path] = .output }
        for file in state.staticFiles { taken[file.path] = .file(file.path) }
        for page in state.pages { taken[page.outputPath] = .page(page.relativePath) }
        let configuration = state.configuration
        for page in pages {
            for alias in page.aliases {
                let path = Aliases.outputPath(of: alias.url)
                if let owner = taken[path] {
                    state.diagnostics.report(Diagnostic(
                        .error, "the alias \(alias.url) is already \(owner.description)", at: alias.location,
                        hint: "remove the alias, or move what is at \(alias.url)"))
                    continue
                }
                do { try OutputWriter.checkPath(path) } catch { state.diagnostics.report(error, at: alias.location); continue }
                taken[path] = .alias(page.relativePath)
                let target = configuration.basePath + page.url.dropFirst()
                state.outputs.append(.text(path, Aliases.redirect(to: target, canonical: configuration.origin + target, language: page.language)))
            }
        }
    }
}
