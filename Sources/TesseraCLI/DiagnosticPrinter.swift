import ArgumentParser
import Foundation
import Rainbow
import TesseraKit

/// How diagnostics are printed: compiler-style text for people, one JSON object a line for tools.
enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable, Sendable {
    case text, json
}

/// Prints diagnostics with paths relative to the working folder: text on standard error, capped
/// so a site with a thousand errors still shows the first ones on one screen; JSON on standard
/// output, every one of them.
struct DiagnosticPrinter {
    var format: DiagnosticFormat = .text
    /// Text shows this many, then "and N more".
    static let textLimit = 50

    func print(_ diagnostics: [Diagnostic]) {
        let base = FileManager.default.currentDirectoryPath
        switch format {
        case .text:
            var text = ""
            var files: [String: Data] = [:]
            for diagnostic in diagnostics.prefix(Self.textLimit) {
                text += Self.text(for: diagnostic, relativeTo: base, files: &files) + "\n"
            }
            if diagnostics.count > Self.textLimit {
                text += "… and \(diagnostics.count - Self.textLimit) more (`--format json` lists them all)\n"
            }
            FileHandle.standardError.write(Data(text.utf8))
        case .json:
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            var output = Data()
            for diagnostic in diagnostics {
                let record = Record(
                    severity: diagnostic.severity.rawValue,
                    file: diagnostic.location.map { Diagnostic.displayPath($0.file, relativeTo: base) },
                    line: diagnostic.location?.line, column: diagnostic.location?.column,
                    message: diagnostic.message, hint: diagnostic.hint)
                output += (try? encoder.encode(record)) ?? Data()
                output += Data("\n".utf8)
            }
            FileHandle.standardOutput.write(output)
        }
    }

    /// Like the Swift compiler and rustc: `path:line:column: error: message`, the source line with
    /// a caret under the column, then the hint; coloured on a terminal.
    static func text(for diagnostic: Diagnostic) -> String {
        var files: [String: Data] = [:]
        return text(for: diagnostic, relativeTo: FileManager.default.currentDirectoryPath, files: &files)
    }

    static func text(for diagnostic: Diagnostic, relativeTo base: String, files: inout [String: Data]) -> String {
        func style(_ text: String, _ apply: (String) -> String) -> String { Terminal.style(text, on: .error, apply) }
        var text = ""
        if let location = diagnostic.location {
            text += style("\(Diagnostic.displayPath(location.file, relativeTo: base)):\(location.line):\(location.column):", { $0.bold }) + " "
        }
        let label = diagnostic.severity.rawValue + ":"
        text += (diagnostic.severity == .error ? style(label, { $0.red.bold }) : style(label, { $0.yellow.bold }))
        text += " " + style(diagnostic.message, { $0.bold })
        if let location = diagnostic.location {
            if files[location.file] == nil { files[location.file] = SourceExcerpt.contents(of: location.file) ?? Data() }
            if let excerpt = SourceExcerpt.at(location, contents: files[location.file]) {
                text += "\n" + excerpt.formatted { part, piece in
                    part == .caret ? style(piece, { $0.green.bold }) : style(piece, { $0.blue })
                }
            }
        }
        if let hint = diagnostic.hint, !hint.isEmpty {
            text += "\n    " + style("hint:", { $0.cyan.bold }) + " " + hint.replacingOccurrences(of: "\n", with: "\n          ")
        }
        return text
    }

    /// One diagnostic as JSON.
    private struct Record: Encodable {
        var severity: String
        var file: String?
        var line: Int?
        var column: Int?
        var message: String
        var hint: String?
    }

    /// A line for people: on standard output in text mode, standard error in JSON mode so the
    /// output stays one JSON object a line.
    func say(_ line: String) {
        if format == .json {
            FileHandle.standardError.write(Data((line + "\n").utf8))
        } else {
            Swift.print(line)
        }
    }

    /// Prints a failed run's diagnostics and the closing count, and returns the exit code: 1.
    func fail(_ error: Error, doing what: String) -> ExitCode {
        let diagnostics = (error as? TesseraError)?.diagnostics ?? [Diagnostic(.error, "\(error)")]
        print(diagnostics)
        let errors = diagnostics.filter { $0.severity == .error }.count
        let message = Terminal.style("\(what) failed with \(errors) error\(errors == 1 ? "" : "s")", on: .error) { $0.red.bold }
        FileHandle.standardError.write(Data((message + "\n").utf8))
        return ExitCode.failure
    }

    static func print(_ diagnostics: [Diagnostic]) { DiagnosticPrinter().print(diagnostics) }

    static func fail(_ error: Error, doing what: String) -> ExitCode { DiagnosticPrinter().fail(error, doing: what) }
}
