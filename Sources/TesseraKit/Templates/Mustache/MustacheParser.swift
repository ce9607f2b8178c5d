import Foundation

/// The parser. It reads `Character`s, as swift-mustache does, so that columns in messages and
/// `\r\n` line ends behave the same.
struct MustacheParser {
    typealias Problem = MustacheSyntaxError.Problem

    let characters: [Character]
    let strict: Bool
    var position = 0
    /// The text, and where each character starts in it (with its end last): a section's source
    /// is sliced from the text, where a `String` of `Character`s was built one by one (a fifth of
    /// the time to parse a theme).
    private let text: String
    private let starts: [String.Index]

    init(_ text: String, strict: Bool) {
        characters = Array(text)
        self.text = text
        starts = Array(text.indices) + [text.endIndex]
        self.strict = strict
    }

    /// The text of characters `range`.
    func source(_ range: Range<Int>) -> String {
        String(text[starts[range.lowerBound]..<starts[range.upperBound]])
    }

    struct State {
        var sectionName: String?
        var newLine = true
        var inInheritance = false
        /// Directly inside `{{<parent}}`, where `{{$block}}` defines an override.
        var inheritanceTopLevel = false
        var startDelimiter: [Character] = ["{", "{"]
        var endDelimiter: [Character] = ["}", "}"]
        var inheritanceIndent: Int?

        func section(_ name: String, newLine: Bool) -> State {
            var state = self
            state.sectionName = name
            state.inheritanceTopLevel = false
            if !newLine { state.newLine = false }
            return state
        }

        func inheritance(_ name: String) -> State {
            var state = self
            state.sectionName = name
            state.newLine = true
            state.inInheritance = true
            state.inheritanceTopLevel = true
            return state
        }
    }

    // MARK: Reading

    var atEnd: Bool { position >= characters.count }
    var current: Character { position < characters.count ? characters[position] : "\0" }

    static func isNewline(_ c: Character) -> Bool { c == "\n" || c == "\r\n" }

    @discardableResult
    mutating func read(while predicate: (Character) -> Bool) -> ArraySlice<Character> {
        let start = position
        while position < characters.count, predicate(characters[position]) { position += 1 }
        return characters[start..<position]
    }

    /// The characters `predicate` accepts from here, as text.
    mutating func readString(while predicate: (Character) -> Bool) -> String {
        let start = position
        read(while: predicate)
        return source(start..<position)
    }

    mutating func read(_ string: [Character]) -> Bool {
        guard position + string.count <= characters.count, Array(characters[position..<position + string.count]) == string else { return false }
        position += string.count
        return true
    }

    /// Text up to the next start delimiter (consumed) or line end (not consumed).
    mutating func readText(_ state: State) -> String {
        var text = ""
        guard let first = state.startDelimiter.first else { return text }
        while position < characters.count {
            let c = characters[position]
            if Self.isNewline(c) { break }
            if c == first {
                if read(state.startDelimiter) { break }
            }
            text.append(c)
            position += 1
        }
        return text
    }

    /// After a tag: true if the rest of its line is blank, and then the line end is consumed.
    mutating func isStandalone(_ state: State) -> Bool {
        guard state.newLine else { return false }
        if atEnd { return true }
        var probe = position
        while probe < characters.count, characters[probe] == " " || characters[probe] == "\t" { probe += 1 }
        guard probe < characters.count, Self.isNewline(characters[probe]) else { return false }
        position = probe + 1
        return true
    }

    static let nameCharacters = Set<Character>("0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-_?*()")
    static let partialNameCharacters = nameCharacters.union(["/"])
    static let pragmaCharacters = nameCharacters.subtracting(["(", ")"])

    mutating func readName(_ state: State) throws -> String {
        read(while: \.isWhitespace)
        let nameStart = position
        let name = readString(while: Self.nameCharacters.contains)
        read(while: \.isWhitespace)
        guard read(state.endDelimiter) else { throw Problem.unfinishedName }
        if name.contains("(") || name.contains(")") {
            position = nameStart
            throw Problem.transformsUnsupported
        }
        return name
    }

    mutating func readPartialName(_ state: State) throws -> String {
        read(while: \.isWhitespace)
        let name = readString(while: Self.partialNameCharacters.contains)
        read(while: \.isWhitespace)
        guard read(state.endDelimiter) else { throw Problem.unfinishedName }
        return name
    }

    // MARK: Grammar

    mutating func parse(_ initial: State) throws -> (nodes: [MustacheNode], source: String) {
        var nodes: [MustacheNode] = []
        var state = initial
        var whitespaceBefore = ""
        let sourceStart = position

        while !atEnd {
            if state.newLine {
                let whitespace = read(while: { $0 == " " || $0 == "\t" })
                if state.inInheritance && !state.inheritanceTopLevel {
                    // Inside a block of `{{<parent}}`: the block's first line sets the indent that
                    // later lines lose.
                    if let indent = state.inheritanceIndent {
                        whitespaceBefore = String(whitespace.dropFirst(indent))
                    } else {
                        state.inheritanceIndent = whitespace.count
                    }
                } else {
                    whitespaceBefore = String(whitespace)
                }
            }
            let text = readText(state)
            if !atEnd, Self.isNewline(current) {
                nodes.append(.text(whitespaceBefore + text + String(current)))
                state.newLine = true
                position += 1
                continue
            }
            if !text.isEmpty {
                nodes.append(.text(whitespaceBefore + text))
                whitespaceBefore = ""
                state.newLine = false
            }
            if atEnd { break }

            func flushWhitespace() {
                if !whitespaceBefore.isEmpty {
                    nodes.append(.text(whitespaceBefore))
                    whitespaceBefore = ""
                }
            }
            var standalone = false
            switch current {
            case "#", "^":
                let inverted = current == "^"
                position += 1
                let name = try readName(state)
                if isStandalone(state) { standalone = true } else { flushWhitespace() }
                let inner = try parse(state.section(name, newLine: standalone))
                nodes.append(inverted ? .invertedSection(MustacheName(name, strict: strict), inner.nodes) : .section(MustacheName(name, strict: strict), inner.nodes, source: inner.source))

            case "/":
                let closeStart = position - state.startDelimiter.count
                position += 1
                let nameStart = position
                let name = try readName(state)
                guard name == state.sectionName else {
                    position = nameStart
                    throw Problem.sectionCloseNameIncorrect
                }
                if !isStandalone(state) { flushWhitespace() }
                return (nodes, source(sourceStart..<closeStart))

            case "!":
                position += 1
                let commentStart = position
                var closed = false
                while !atEnd {
                    if read(state.endDelimiter) { closed = true; break }
                    position += 1
                }
                guard closed else {
                    position = commentStart
                    throw Problem.unfinishedName
                }
                standalone = isStandalone(state)

            case "{", "&":
                let triple = current == "{"
                flushWhitespace()
                position += 1
                let name = try readName(state)
                if triple, !read(["}"]) { throw Problem.unfinishedName }
                nodes.append(.variable(MustacheName(name, strict: strict), escaped: false))

            case ">":
                position += 1
                read(while: \.isWhitespace)
                var dynamic = false
                if current == "*" { position += 1; dynamic = true }
                let name = try readPartialName(state)
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                standalone = isStandalone(state)
                nodes.append(.partial(name, dynamic: dynamic, indentation: standalone ? whitespaceBefore : nil, overrides: nil))
                whitespaceBefore = ""

            case "<":
                position += 1
                read(while: \.isWhitespace)
                let written = try readPartialName(state)
                if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                standalone = isStandalone(state)
                let inner = try parse(state.inheritance(written))
                var overrides: [String: [MustacheNode]] = [:]
                for node in inner.nodes {
                    switch node {
                    case .block(let name, let defaultNodes, nil): overrides[name] = defaultNodes
                    case .text: break
                    default: throw Problem.illegalTokenInsideInheritSection
                    }
                }
                let dynamic = written.first == "*"
                nodes.append(.partial(dynamic ? String(written.dropFirst()) : written, dynamic: dynamic, indentation: whitespaceBefore, overrides: overrides))
                whitespaceBefore = ""

            case "$":
                position += 1
                let name = try readName(state)
                if state.inheritanceTopLevel {
                    // An override inside `{{<parent}}`, kept as a block without indentation.
                    standalone = isStandalone(state)
                    let inner = try parse(state.section(name, newLine: standalone))
                    nodes.append(.block(name, defaultNodes: inner.nodes, indentation: nil))
                } else {
                    if !whitespaceBefore.isEmpty { nodes.append(.text(whitespaceBefore)) }
                    standalone = isStandalone(state)
                    let inner = try parse(state.section(name, newLine: standalone))
                    nodes.append(.block(name, defaultNodes: inner.nodes, indentation: whitespaceBefore))
                    whitespaceBefore = ""
                }

            case "=":
                position += 1
                read(while: \.isWhitespace)
                let start = Array(read(while: { !$0.isWhitespace }))
                guard !atEnd else { throw Problem.invalidSetDelimiter }
                read(while: \.isWhitespace)
                let end = Array(read(while: { $0 != "=" && !$0.isWhitespace }))
                guard !atEnd else { throw Problem.invalidSetDelimiter }
                read(while: \.isWhitespace)
                guard read(["="]), read(state.endDelimiter), !start.isEmpty, !end.isEmpty else { throw Problem.invalidSetDelimiter }
                state.startDelimiter = start
                state.endDelimiter = end
                state.inheritanceTopLevel = false
                standalone = isStandalone(state)

            case "%":
                position += 1
                read(while: \.isWhitespace)
                let variable = readString(while: Self.pragmaCharacters.contains)
                read(while: \.isWhitespace)
                guard read([":"]) else { throw Problem.invalidConfigVariableSyntax }
                read(while: \.isWhitespace)
                let value = readString(while: Self.pragmaCharacters.contains)
                read(while: \.isWhitespace)
                guard read(state.endDelimiter), !variable.isEmpty, !value.isEmpty else { throw Problem.invalidConfigVariableSyntax }
                guard variable == "CONTENT_TYPE", value == "HTML" || value == "TEXT" else { throw Problem.unrecognisedConfigVariable }
                nodes.append(.contentType(escapes: value == "HTML"))
                standalone = isStandalone(state)

            default:
                flushWhitespace()
                let name = try readName(state)
                nodes.append(.variable(MustacheName(name, strict: strict), escaped: true))
            }
            state.newLine = standalone
        }
        guard state.sectionName == nil else { throw Problem.expectedSectionEnd }
        return (nodes, source(sourceStart..<position))
    }

    /// Where the parser stands, as swift-mustache reports it.
    func lineAndColumn() -> (Int, Int) {
        let end = min(position, characters.count)
        var line = 1, column = 1
        for c in characters[..<end] {
            if c == "\n" || c == "\r\n" { line += 1; column = 1 } else { column += 1 }
        }
        return (line, column)
    }
}
