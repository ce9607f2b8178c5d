import TesseraCLI

/// The `tessera` executable: everything lives in TesseraCLI so it can be tested.
/// An `@main` type rather than top-level code: Swift 6.3.1's optimizer crashes on top-level `await`.
@main
enum TesseraMain {
    static func main() async {
        await TesseraCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
