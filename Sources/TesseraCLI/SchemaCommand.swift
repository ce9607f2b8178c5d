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

struct IDsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "ids",
        abstract: "Check the ids apps rely on (pages and components) between two builds.",
        subcommands: [Diff.self])

    struct Diff: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "List the page and component ids of the old build's JSON that the new build lacks; exit 1 if any.")

        @Argument(help: "The output folder an app release was built against (its api/index.json and page JSON).")
        var old: String

        @Argument(help: "The output folder of the new build.")
        var new: String

        func run() async throws {
            let diff: IDsDiff
            do { diff = try IDsDiff.compare(old: old, new: new) } catch { throw DiagnosticPrinter.fail(error, doing: "ids diff") }
            for page in diff.removedPages { print("removed page: \(page)") }
            for (page, ids) in diff.removedComponents {
                for id in ids { print("removed: \(id) on page \(page)") }
            }
            if diff.isEmpty {
                print("No id was removed (\(diff.addedComponents) component id(s) added).")
                return
            }
            let count = diff.removedPages.count + diff.removedComponents.reduce(0) { $0 + $1.ids.count }
            print("\(count) id(s) removed: analytics and saved state keyed by them lose track; set `id:` on a component to keep its id where it moves.")
            throw ExitCode(1)
        }
    }
}
