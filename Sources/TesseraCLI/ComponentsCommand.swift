import ArgumentParser
import Foundation
import TesseraKit

struct ComponentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "components",
        abstract: "List the components the site's theme offers, with their fields, types and shells.")

    @Option(name: [.short, .long], help: "The site folder.")
    var source: String = "."

    @Flag(help: "Print JSON instead of text.")
    var json = false

    func run() async throws {
        do {
            let site = SiteOptions.absolute(source)
            try SiteOptions.requireSite(site)
            let catalog = try ComponentCatalog.load(siteDirectory: site)
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
                print(String(decoding: try encoder.encode(catalog.entries), as: UTF8.self))
            } else {
                print(catalog.text)
            }
        } catch let error as TesseraError {
            throw DiagnosticPrinter.fail(error, doing: "components")
        }
    }
}
