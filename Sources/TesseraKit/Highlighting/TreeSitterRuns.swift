/// The runs of code that tree-sitter parsed, made from its highlight query's captures as the
/// worker sends them (`PygmentsWorker`): each character takes the type of the innermost node a
/// capture caught it in, and of one node's captures the one of the latest pattern (as in
/// tree-sitter's own highlighter); text no capture caught is `Text`.
///
/// The worker made these runs in Python until the captures alone were sent: the sorting and the
/// two passes below were a third of its time, and the workers were what a highlighted build
/// waited for. The order and the passes are the worker's, step for step, and a test runs both on
/// generated code of every grammar.
enum TreeSitterRuns {
    /// A node a capture caught: UTF-8 byte offsets in the code, the number of the query's pattern
    /// that caught it, and its token type (an index of the worker's types).
    struct Capture: Equatable {
        var start: Int
        var end: Int
        var pattern: Int
        var type: Int
    }

    /// A capture in Unicode scalars (the runs' unit): `start..<end`; its length in bytes, by
    /// which the worker ordered spans of one start; and its type's order among the captures'
    /// types (Pygments compares token types as tuples of their names' parts).
    struct Span {
        var start: Int
        var end: Int
        var bytes: Int
        var pattern: Int
        var order: Int
        var type: Int
    }

    /// The runs of `code` (adjacent runs of one type merged), or nil when the captures do not lie
    /// in it.
    /// `painting`: types every character by painting, without trying the one pass first (for tests).
    /// `ranks`: each of `types`' place in Pygments' order of them (`ranks(of:)`), when the caller
    /// keeps it.
    static func runs(of captures: [Capture], in code: String, types: [HighlightedCode.TokenType], text: HighlightedCode.TokenType,
                     ranks: [Int]? = nil, painting: Bool = false) -> [HighlightedCode.Run]? {
        let ranks = ranks ?? Self.ranks(of: types)
        var code = code
        return code.withUTF8 { bytes -> [HighlightedCode.Run]? in
            // A byte's scalar: the index of the character it is part of, as the worker counted.
            var scalarAt: [Int] = []
            var length = bytes.count
            if bytes.contains(where: { $0 >= 0x80 }) {
                scalarAt.reserveCapacity(bytes.count + 1)
                var scalar = -1
                for byte in bytes {
                    if byte & 0xC0 != 0x80 { scalar += 1 }
                    scalarAt.append(max(scalar, 0))
                }
                length = scalar + 1
                scalarAt.append(length)
            }
            var spans: [Span] = []
            spans.reserveCapacity(captures.count)
            for capture in captures {
                guard capture.end <= bytes.count, ranks.indices.contains(capture.type) else { return nil }
                let start = scalarAt.isEmpty ? capture.start : scalarAt[capture.start]
                let end = scalarAt.isEmpty ? capture.end : scalarAt[capture.end]
                spans.append(Span(start: start, end: end, bytes: capture.end - capture.start, pattern: capture.pattern, order: ranks[capture.type], type: capture.type))
            }
            // Outer nodes first (by start, then longer first); of one node's captures, the
            // latest pattern last, so that it wins.
            spans.sort { a, b in
                if a.start != b.start { return a.start < b.start }
                if a.bytes != b.bytes { return a.bytes > b.bytes }
                if a.pattern != b.pattern { return a.pattern < b.pattern }
                if a.order != b.order { return a.order < b.order }
                return a.end < b.end
            }
            let typed = (painting ? nil : nested(spans, length: length)) ?? painted(spans, length: length)
            var runs: [HighlightedCode.Run] = []
            runs.reserveCapacity(typed.count)
            for (type, count) in typed where count > 0 {
                let tokenType = type.map { types[$0] } ?? text
                if let last = runs.last, last.type.name == tokenType.name {
                    runs[runs.count - 1].length += count
                } else {
                    runs.append(.init(type: tokenType, length: count))
                }
            }
            return runs
        }
    }

    /// Each type's place among `types` as Pygments orders them (`tuplePrecedes`): where two
    /// captures of one node and pattern differ only in type, the later in that order wins. Only
    /// compared, so the places among all the worker's types order any captures' as the places
    /// among their own types would.
    static func ranks(of types: [HighlightedCode.TokenType]) -> [Int] {
        var ranks = [Int](repeating: 0, count: types.count)
        for (rank, index) in types.indices.sorted(by: { tuplePrecedes(types[$0].name, types[$1].name) }).enumerated() { ranks[index] = rank }
        return ranks
    }

    /// Whether the token type named `a` comes before `b` as Pygments orders them: as tuples of
    /// their names' parts (`Name` < `Name.Function` < `Name.Other`).
    static func tuplePrecedes(_ a: String, _ b: String) -> Bool {
        a.split(separator: ".", omittingEmptySubsequences: false).lexicographicallyPrecedes(b.split(separator: ".", omittingEmptySubsequences: false)) { $0.utf8.lexicographicallyPrecedes($1.utf8) }
    }

    /// The runs of `spans` (sorted) that nest, as a tree's nodes do, in one pass: the innermost
    /// span types its text, and of equal spans the last; nil if two overlap. A nil type is `Text`.
    private static func nested(_ spans: [Span], length: Int) -> [(Int?, Int)]? {
        var runs: [(Int?, Int)] = []
        var stack: [(start: Int, end: Int, type: Int)] = []
        var position = 0
        for span in spans where span.start != span.end {
            while let top = stack.last, top.end <= span.start {
                stack.removeLast()
                if top.end > position {
                    runs.append((top.type, top.end - position))
                    position = top.end
                }
            }
            if let top = stack.last {
                if span.end > top.end { return nil }
                if span.start == top.start, span.end == top.end {
                    stack[stack.count - 1].type = span.type
                    continue
                }
            }
            if span.start > position {
                runs.append((stack.last?.type, span.start - position))
                position = span.start
            }
            stack.append((span.start, span.end, span.type))
        }
        while let top = stack.popLast() {
            if top.end > position {
                runs.append((top.type, top.end - position))
                position = top.end
            }
        }
        if position < length { runs.append((nil, length - position)) }
        return runs.isEmpty ? nil : runs
    }

    /// The runs of any `spans`: longer spans first, so the spans inside them paint over them; of
    /// equal spans, the last.
    private static func painted(_ spans: [Span], length: Int) -> [(Int?, Int)] {
        var paint = [Int?](repeating: nil, count: length)
        let ordered = spans.enumerated().sorted { a, b in
            let x = a.element, y = b.element
            if x.bytes != y.bytes { return x.bytes > y.bytes }
            if x.pattern != y.pattern { return x.pattern < y.pattern }
            if x.start != y.start { return x.start < y.start }
            if x.end != y.end { return x.end < y.end }
            if x.order != y.order { return x.order < y.order }
            return a.offset < b.offset
        }
        for (_, span) in ordered where span.start < span.end {
            for index in span.start..<span.end { paint[index] = span.type }
        }
        var runs: [(Int?, Int)] = []
        var index = 0
        while index < length {
            let type = paint[index]
            var end = index + 1
            while end < length, paint[end] == type { end += 1 }
            runs.append((type, end - index))
            index = end
        }
        return runs
    }
}
