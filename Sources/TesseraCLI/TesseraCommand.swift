import ArgumentParser
import TesseraKit

/// `tessera`: build, check, preview and scaffold feed-layout sites.
public struct TesseraCommand: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "tessera",
        abstract: "A static site generator for feed layouts: pages as lists of typed components.",
        version: Tessera.version,
        subcommands: [BuildCommand.self, ServeCommand.self, CheckCommand.self, NewCommand.self, ComponentsCommand.self, CodegenCommand.self, SchemaCommand.self],
        defaultSubcommand: BuildCommand.self)

    public init() {}
}
