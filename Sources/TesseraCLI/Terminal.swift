import ArgumentParser
import Foundation
@preconcurrency import Rainbow

/// `--color`: colour on a terminal, none when piped, unless told otherwise.
enum ColorMode: String, ExpressibleByArgument, CaseIterable, Sendable {
    case auto, always, never
}

/// Whether each output stream gets colour, decided once at start: `--color always|never`, else
/// `NO_COLOR` (https://no-color.org) or `FORCE_COLOR`, else whether the stream is a terminal.
enum Terminal {
    enum Stream { case output, error }

    nonisolated(unsafe) private static var colors: (output: Bool, error: Bool) = (false, false)

    static func configure(_ mode: ColorMode, environment: [String: String] = ProcessInfo.processInfo.environment) {
        func set(_ key: String) -> Bool { environment[key].map { !$0.isEmpty && $0 != "0" } ?? false }
        func wants(_ descriptor: Int32) -> Bool {
            switch mode {
            case .always: return true
            case .never: return false
            case .auto:
                if set("FORCE_COLOR") { return true }
                if environment["NO_COLOR"].map({ !$0.isEmpty }) ?? false { return false }
                return isatty(descriptor) != 0 && environment["TERM"] != "dumb"
            }
        }
        colors = (wants(STDOUT_FILENO), wants(STDERR_FILENO))
        Rainbow.outputTarget = .console
        Rainbow.enabled = colors.output || colors.error
    }

    /// Takes `--color X` / `--color=X` out of the arguments (every command accepts it) and applies it.
    static func takeColorOption(from arguments: [String]) throws -> [String] {
        var rest: [String] = []
        var mode = ColorMode.auto
        var index = 0
        while index < arguments.count {
            let argument = arguments[index]
            if argument == "--" { rest += arguments[index...]; break }
            var value: String?
            if argument == "--color" {
                guard index + 1 < arguments.count else { throw ValidationError("--color needs a value: auto, always or never") }
                value = arguments[index + 1]
                index += 1
            } else if argument.hasPrefix("--color=") {
                value = String(argument.dropFirst("--color=".count))
            }
            if let value {
                guard let parsed = ColorMode(rawValue: value) else { throw ValidationError("--color '\(value)' is not one of auto, always, never") }
                mode = parsed
            } else {
                rest.append(argument)
            }
            index += 1
        }
        configure(mode)
        return rest
    }

    static func isColored(_ stream: Stream) -> Bool { stream == .output ? colors.output : colors.error }

    /// `text` styled for `stream`, or as it is when that stream has no colour.
    static func style(_ text: String, on stream: Stream, _ apply: (String) -> String) -> String {
        isColored(stream) ? apply(text) : text
    }
}
