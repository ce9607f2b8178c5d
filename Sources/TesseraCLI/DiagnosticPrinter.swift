import ArgumentParser
import Foundation
import TesseraKit

/// Prints diagnostics to standard error, compiler style, with paths relative to the working folder.
enum DiagnosticPrinter {
    static func print(_ diagnostics: [Diagnostic]) {
        let base = FileManager.default.currentDirectoryPath
        for diagnostic in diagnostics {
            FileHandle.standardError.write(Data((diagnostic.formatted(relativeTo: base) + "\n").utf8))
        }
    }

    /// Prints a failed build's diagnostics and the closing count, and returns the exit code to use.
    static func fail(_ error: Error, doing what: String) -> ExitCode {
        let diagnostics = (error as? TesseraError)?.diagnostics ?? [Diagnostic(.error, "\(error)")]
        print(diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }.count
        let message = "\(what) failed with \(errors) error\(errors == 1 ? "" : "s")"
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode.failure
    }
}
