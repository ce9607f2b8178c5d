import Foundation

/// A value from a content or schema file, with where it was written.
///
/// Front matter, feeds and schemas are parsed into this tree rather than into plain dictionaries so
/// that every later stage can point at the exact line and column of the value it rejects.
public struct ContentNode: Sendable, Equatable {
    public enum Value: Sendable, Equatable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        /// A scalar YAML resolved as a timestamp; kept as written so dates parse one way only.
        case timestamp(String)
        case list([ContentNode])
        case map([Entry])
    }

    /// One key of a mapping, with the location of the key itself (for "unknown field" errors).
    public struct Entry: Sendable, Equatable {
        public var key: String
        public var keyLocation: SourceLocation
        public var value: ContentNode
    }

    public var value: Value
    public var location: SourceLocation {
        didSet {
            // A start kept as a line and column is in the file the node was in; one kept whole
            // may now be in the node's file. Either way it is kept as a new one would be.
            guard oldValue.file != location.file else { return }
            let start = wide != nil ? wide?.start : textLine == 0 ? nil : SourceLocation(file: oldValue.file, line: textLine, column: Int(textColumn))
            setText(start: start, indent: textIndent)
        }
    }
    /// `textStart` and `textIndent`, 16 bytes where two `Int`s and a `SourceLocation?` took 48: a
    /// feed page's front matter is thousands of nodes, and every page's stay parsed until the page
    /// is mapped (10,000 pages of 20 components held 235 MiB after loading). The start is in
    /// `location`'s file, its line as an `Int` and its column and the indent as `Int32`s; a start
    /// in another file, or a column past `Int32`, is kept whole in `wide` instead.
    private var textLine = 0
    private var textColumn: Int32 = 0
    private var indent: Int32 = 1
    private var wide: WideText?

    private final class WideText: Sendable, Equatable {
        let start: SourceLocation?
        let indent: Int
        init(start: SourceLocation?, indent: Int) {
            self.start = start
            self.indent = indent
        }
        static func == (lhs: WideText, rhs: WideText) -> Bool { lhs.start == rhs.start && lhs.indent == rhs.indent }
    }

    public init(_ value: Value, at location: SourceLocation) {
        self.value = value
        self.location = location
    }

    /// Where a text's first character is written, when that is not `location`: after the quote
    /// of a quoted scalar, on the line below `|` or `>` for a block scalar.
    public var textStart: SourceLocation? {
        get {
            if let wide { return wide.start }
            return textLine == 0 ? nil : SourceLocation(file: location.file, line: textLine, column: Int(textColumn))
        }
        set { setText(start: newValue, indent: textIndent) }
    }

    /// The column at which a block scalar's later lines start (its indentation + 1).
    public var textIndent: Int {
        get { wide?.indent ?? Int(indent) }
        set { setText(start: textStart, indent: newValue) }
    }

    private mutating func setText(start: SourceLocation?, indent: Int) {
        // A line of 0 means no start: a start on line or column 0 (set after its `SourceLocation` was
        // made, which reads back as 1) is kept whole, as is one in another file.
        if (start.map { $0.file == location.file && $0.line >= 1 && $0.column >= 1 && Int32(exactly: $0.column) != nil } ?? true), let narrow = Int32(exactly: indent) {
            (textLine, textColumn, self.indent, wide) = (start?.line ?? 0, Int32(start?.column ?? 0), narrow, nil)
        } else {
            (textLine, textColumn, self.indent, wide) = (0, 0, 1, WideText(start: start, indent: indent))
        }
    }

    /// Where `column` of `line` (both counted in the text itself, from 1) is written in the file.
    public func place(ofTextLine line: Int, column: Int) -> SourceLocation {
        let start = textStart ?? location
        if line <= 1 { return SourceLocation(file: start.file, line: start.line, column: start.column + column - 1) }
        return SourceLocation(file: start.file, line: start.line + line - 1, column: (textStart == nil ? 1 : textIndent) + column - 1)
    }

    // MARK: Access

    public var entries: [Entry]? {
        if case .map(let entries) = value { return entries }
        return nil
    }

    public var list: [ContentNode]? {
        if case .list(let items) = value { return items }
        return nil
    }

    public subscript(key: String) -> ContentNode? {
        entries?.first { $0.key == key }?.value
    }

    public func entry(_ key: String) -> Entry? {
        entries?.first { $0.key == key }
    }

    public var isNull: Bool { value == .null }

    /// The scalar as text, whatever YAML resolved it to; nil for lists, maps and null.
    public var scalarText: String? {
        switch value {
        case .string(let s), .timestamp(let s): return s
        case .int(let i): return String(i)
        case .double(let d): return d == d.rounded() && abs(d) < 1e15 ? String(Int(d)) : String(d)
        case .bool(let b): return b ? "true" : "false"
        case .null, .list, .map: return nil
        }
    }

    public var number: Double? {
        switch value {
        case .int(let i): return Double(i)
        case .double(let d): return d
        default: return nil
        }
    }

    public var bool: Bool? {
        if case .bool(let b) = value { return b }
        return nil
    }

    /// A word for the kind of value, for "expected X, found Y" messages.
    public var kindDescription: String {
        switch value {
        case .null: return "nothing (null)"
        case .bool: return "a boolean"
        case .int, .double: return "a number"
        case .string: return "text"
        case .timestamp: return "a date"
        case .list: return "a list"
        case .map: return "a mapping"
        }
    }
}

extension ContentNode {
    /// A plain Foundation value (String, Int, Double, Bool, [Any], [String: Any], NSNull) for the
    /// places that pass data through untyped: custom front matter and data files.
    public var plainValue: any Sendable {
        switch value {
        case .null: return Optional<String>.none as any Sendable
        case .bool(let b): return b
        case .int(let i): return i
        case .double(let d): return d
        case .string(let s), .timestamp(let s): return s
        case .list(let items): return items.map(\.plainValue)
        case .map(let entries): return Dictionary(entries.map { ($0.key, $0.value.plainValue) }, uniquingKeysWith: { a, _ in a })
        }
    }
}

extension ContentNode {
    /// The value without its places, as one string: equal for equal content wherever it is written.
    func appendCanonical(to text: inout String) {
        switch value {
        case .null: text += "~"
        case .bool(let b): text += b ? "T" : "F"
        case .int(let i): text += "i\(i)"
        case .double(let d): text += "d\(d)"
        case .string(let s), .timestamp(let s): text += "s\(s.utf8.count):" + s
        case .list(let items):
            text += "[\(items.count)"
            for item in items { item.appendCanonical(to: &text) }
            text += "]"
        case .map(let entries):
            text += "{\(entries.count)"
            for entry in entries { text += "k\(entry.key.utf8.count):" + entry.key; entry.value.appendCanonical(to: &text) }
            text += "}"
        }
    }
}
