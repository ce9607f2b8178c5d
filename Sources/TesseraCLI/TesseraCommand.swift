import ArgumentParser
import Foundation
import Rainbow
import TesseraKit

/// `tessera`: build, check, preview and scaffold feed-layout sites.
public struct TesseraCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "A static site generator for feed layouts: pages as lists of typed components.",
        discussion: "Every command takes --color auto|always|never (default auto: colour on a terminal, none when piped or when NO_COLOR is set).",
        version: Tessera.version,
        subcommands: [BuildCommand.self, ServeCommand.self, CheckCommand.self, NewCommand.self, ThemeCommand.self, ComponentsCommand.self, CodegenCommand.self, SchemaCommand.self, IDsCommand.self],
        defaultSubcommand: BuildCommand.self)

    public init() {}

    /// The executable's entry: `--color` first, then "did you mean" for a mistyped command or
    /// option, where the argument parser alone would print the build command's usage.
    public static func main(arguments given: [String]) async {
        let arguments: [String]
        do { arguments = try Terminal.takeColorOption(from: given) } catch {
            exit(withError: error)
        }
        if let problem = unknownSubcommand(in: arguments) {
            FileHandle.standardError.write(Data((problem + "\n").utf8))
            Foundation.exit(ExitCode.validationFailure.rawValue)
        }
        do {
            var command = try parseAsRoot(arguments)
            if var asynchronous = command as? AsyncParsableCommand {
                try await asynchronous.run()
            } else {
                try command.run()
            }
        } catch {
            if let improved = withSuggestion(error, arguments: arguments) {
                FileHandle.standardError.write(Data((improved + "\n").utf8))
                Foundation.exit(exitCode(for: error).rawValue)
            }
            exit(withError: error)
        }
    }

    static var commandNames: [String] {
        configuration.subcommands.compactMap { $0.configuration.commandName } + ["help"]
    }

    /// `tessera serv`: the first word that is not an option must name a command (the default
    /// command, build, takes no words).
    static func unknownSubcommand(in arguments: [String]) -> String? {
        guard let first = arguments.first, !first.hasPrefix("-"), !commandNames.contains(first) else { return nil }
        let commands = commandNames.filter { $0 != "help" }
        let suggestion = Suggestions.nearest(to: first, in: commands, limit: 1).first
        return DiagnosticPrinter.text(for: Diagnostic(
            .error, "'\(first)' is not a tessera command" + (suggestion.map { "; did you mean '\($0)'?" } ?? ""),
            hint: "the commands are " + commands.joined(separator: ", ") + "; `tessera help` describes them"))
    }

    /// "Unknown option '--prot'" gains "did you mean '--port'?" from the options of the command
    /// that was being parsed.
    static func withSuggestion(_ error: Error, arguments: [String]) -> String? {
        let message = fullMessage(for: error)
        guard let range = message.range(of: "Unknown option '") else { return nil }
        let name = message[range.upperBound...].prefix { $0 != "'" }
        let command = subcommand(for: arguments)
        let help = helpMessage(for: command)
        var options = Set<String>()
        var scanner = help[...]
        while let dash = scanner.range(of: "--") {
            let word = scanner[dash.lowerBound...].prefix { $0.isLetter || $0.isNumber || $0 == "-" }
            if word.count > 2 { options.insert(String(word)) }
            scanner = scanner[dash.upperBound...]
        }
        options.insert("--color")
        guard let suggestion = Suggestions.nearest(to: String(name), in: options, limit: 1).first else { return nil }
        let rest = message.split(separator: "\n", omittingEmptySubsequences: false).dropFirst().joined(separator: "\n")
        return DiagnosticPrinter.text(for: Diagnostic(.error, "unknown option '\(name)'; did you mean '\(suggestion)'?")) + (rest.isEmpty ? "" : "\n" + rest)
    }

    /// The command the arguments name: `theme eject`, `build` (the default), …
    static func subcommand(for arguments: [String]) -> ParsableCommand.Type {
        var command: ParsableCommand.Type = BuildCommand.self
        var candidates = configuration.subcommands
        for argument in arguments where !argument.hasPrefix("-") {
            guard let next = candidates.first(where: { $0.configuration.commandName == argument }) else { break }
            command = next
            candidates = next.configuration.subcommands
        }
        return command
    }
}
