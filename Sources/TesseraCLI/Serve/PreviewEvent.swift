import Foundation
import TesseraKit

/// What the preview server tells the pages open in browsers, over Server-Sent Events.
public enum PreviewEvent: Sendable, Equatable {
    /// Pages changed: reload.
    case reload
    /// Only stylesheets changed: swap them without reloading.
    case stylesheets
    /// The last rebuild failed: show these diagnostics over the page (the last good pages stay served).
    case failed([Diagnostic])

    /// The SSE event name.
    public var name: String {
        switch self {
        case .reload: return "reload"
        case .stylesheets: return "css"
        case .failed: return "errors"
        }
    }

    /// The SSE `data:` payload: JSON, one line. Paths are relative to the working folder, as the
    /// terminal prints them.
    public var data: String { data(relativeTo: FileManager.default.currentDirectoryPath) }

    func data(relativeTo base: String) -> String {
        guard case .failed(let diagnostics) = self else { return "{}" }
        let items = diagnostics.map { diagnostic -> [String: Any] in
            var item: [String: Any] = ["severity": diagnostic.severity.rawValue, "message": diagnostic.message]
            if let location = diagnostic.location {
                item["file"] = Diagnostic.displayPath(location.file, relativeTo: base)
                item["line"] = location.line
                item["column"] = location.column
            }
            if let hint = diagnostic.hint { item["hint"] = hint }
            // The source line with a caret under the column, as the terminal shows it.
            if let location = diagnostic.location, let excerpt = SourceExcerpt.at(location) { item["excerpt"] = excerpt.formatted() }
            item["text"] = diagnostic.formatted(relativeTo: base)
            return item
        }
        let json = (try? JSONSerialization.data(withJSONObject: ["diagnostics": items], options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
        return String(decoding: json, as: UTF8.self)
    }

    /// The whole SSE message, ending with the blank line that dispatches it.
    public var message: String { "event: \(name)\ndata: \(data)\n\n" }
}
