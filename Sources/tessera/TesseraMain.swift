import CAllocation
import TesseraCLI

/// The `tessera` executable: everything lives in TesseraCLI so it can be tested.
/// An `@main` type rather than top-level code: Swift 6.3.1's optimizer crashes on top-level `await`.
@main
enum TesseraMain {
    static func main() async {
        // Heaps that grow in large steps: a few percent of a build's time (see the function).
        tessera_tune_allocator()
        await TesseraCommand.main(arguments: Array(CommandLine.arguments.dropFirst()))
    }
}
