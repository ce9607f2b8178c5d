import ArgumentParser
import Foundation
import TesseraKit

/// `tessera new DIR` (or `new site DIR`) creates a site; `tessera new theme NAME` starts a theme
/// in the site of the working folder.
struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new site, or a new theme in this site.",
        discussion: """
            tessera new my-site          a site in my-site/ using the built-in default theme
            tessera new site my-site     the same
            tessera new theme ocean      a small theme in themes/ocean/ (switch with `theme: ocean`)
            """)

    @Argument(help: ArgumentHelp("The folder of a new site; or `site DIR`; or `theme NAME`.", valueName: "what"))
    var arguments: [String]

    @Option(help: "The site's title.")
    var title: String = "My Tessera site"

    @Option(name: [.short, .long], help: "For `new theme`: the site folder (the one holding site.yml).")
    var source: String = "."

    func validate() throws {
        switch arguments.count {
        case 1: break
        case 2 where ["site", "theme"].contains(arguments[0]): break
        case 2:
            throw ValidationError("'\(arguments[0])' is not something `tessera new` makes" + (Suggestions.didYouMean(arguments[0], in: ["site", "theme"]).map { "; \($0)" } ?? "; write `tessera new site DIR` or `tessera new theme NAME`"))
        default:
            throw ValidationError("write `tessera new DIR`, `tessera new site DIR` or `tessera new theme NAME`")
        }
    }

    func run() async throws {
        do {
            if arguments.count == 2 && arguments[0] == "theme" {
                let site = SiteOptions.absolute(source)
                try SiteOptions.requireSite(site)
                let (directory, files) = try ThemeScaffold.create(named: arguments[1], in: site)
                let shown = Diagnostic.displayPath(directory, relativeTo: FileManager.default.currentDirectoryPath)
                print("Created the theme \(arguments[1]) in \(shown) (\(files.count) files). Use it: write `theme: \(arguments[1])` in site.yml, then `tessera build`.")
                return
            }
            let directory = arguments.last!
            let files = try SiteScaffold.create(at: directory, title: title)
            print("Created a site in \(directory) (\(files.count) files, with the built-in default theme). Next:\n  cd \(directory) && tessera build")
        } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "new")
        }
    }
}

/// `tessera theme eject`: copies the built-in default theme into the site to change it.
struct ThemeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "theme",
        abstract: "Work with the site's theme.",
        subcommands: [Eject.self])

    struct Eject: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "eject",
            abstract: "Copy the built-in default theme into themes/default/, to change it.",
            discussion: "Afterwards the site uses its own copy and no longer gets the theme's fixes from new Tessera releases. Nothing that exists is replaced.")

        @Option(name: [.short, .long], help: "The site folder (the one holding site.yml).")
        var source: String = "."

        func run() async throws {
            do {
                let site = SiteOptions.absolute(source)
                try SiteOptions.requireSite(site)
                let directory = site + "/themes/" + DefaultTheme.name
                if FileManager.default.fileExists(atPath: directory) {
                    throw TesseraError("themes/\(DefaultTheme.name) already exists; the site already uses its own copy", hint: "move it away first to eject a fresh copy; Tessera never replaces a file of yours")
                }
                let files = try DefaultTheme.write(to: directory)
                let shown = Diagnostic.displayPath(directory, relativeTo: FileManager.default.currentDirectoryPath)
                print("Copied the built-in theme into \(shown) (\(files.count) files). The site now uses this copy; edit it freely.")
            } catch let error as TesseraError {
                throw DiagnosticPrinter.fail(error, doing: "theme eject")
            }
        }
    }
}
