import ArgumentParser
import Foundation
import TesseraKit

struct NewCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create a new site with the default theme, ready to build.")

    @Argument(help: "The folder to create.")
    var directory: String

    @Option(help: "The site's title.")
    var title: String = "My Tessera site"

    func run() async throws {
        do {
            let files = try SiteScaffold.create(at: directory, title: title)
            print("Created a site in \(directory) (\(files.count) files). Next:\n  cd \(directory) && tessera build")
        } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "new")
        }
    }
}
