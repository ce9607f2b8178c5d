import ArgumentParser
import Foundation
import TesseraKit

struct SchemaCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "schema",
        abstract: "Work with the content API's schema (api/schema.json).",
        subcommands: [Diff.self])

    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the changes between two schema.json files; exit 1 if one breaks apps built against the old one.")

        @Argument(help: "The schema an app was built against.")
        var old: String

        @Argument(help: "The schema of the new build.")
        var new: String

        func run() async throws {
            let diff: SchemaDiff
            do {
                func read(_ path: String) throws -> Data {
                    do { return try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                        throw TesseraError("cannot read \(path): \(error.localizedDescription)")
                    }
                }
                diff = try SchemaDiff.compare(old: try read(old), new: try read(new), oldName: old, newName: new)
            } catch {
                throw DiagnosticPrinter.fail(error, doing: "schema diff")
            }
            if diff.changes.isEmpty { print("No changes.") }
            for change in diff.changes { print(change) }
            if diff.isBreaking {
                print("\(diff.changes.filter(\.breaking).count) breaking change(s): apps built against \(old) may fail on the new content.")
                throw ExitCode(1)
            }
        }
    }
}
