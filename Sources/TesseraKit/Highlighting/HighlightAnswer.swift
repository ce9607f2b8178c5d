import Foundation

/// What the highlighter answered for one block: the thing kept in the build cache.
enum HighlightAnswer: Sendable, Equatable {
    case code(HighlightedCode)
    /// The engine knows no language of that name.
    case unknownLanguage

    /// The cache's bytes: self-contained (each entry carries the names and classes of its types),
    /// so entries are copied from one cache file to the next without being read.
    var encoded: [UInt8] {
        var bytes: [UInt8] = []
        switch self {
        case .unknownLanguage:
            bytes.append(0)
        case .code(let code):
            bytes.append(1)
            Self.append(code.lexer, to: &bytes)
            // A block has a few types: found by a look along them (runs of one type share its strings).
            var types: [HighlightedCode.TokenType] = []
            var numbers: [Int] = []
            numbers.reserveCapacity(code.runs.count)
            for run in code.runs {
                if let known = types.firstIndex(of: run.type) {
                    numbers.append(known)
                } else {
                    numbers.append(types.count)
                    types.append(run.type)
                }
            }
            Self.append(types.count, to: &bytes)
            for type in types {
                Self.append(type.name, to: &bytes)
                Self.append(type.cssClass, to: &bytes)
            }
            Self.append(code.runs.count, to: &bytes)
            for (number, run) in zip(numbers, code.runs) {
                Self.append(number, to: &bytes)
                Self.append(run.length, to: &bytes)
            }
        }
        return bytes
    }

    /// The answer `bytes` encode; nil when they are not an encoding (a damaged cache file).
    init?(decoding bytes: some Collection<UInt8>) {
        var reader = ByteReader(bytes: Array(bytes))
        switch reader.byte() {
        case 0:
            self = .unknownLanguage
        case 1:
            guard let lexer = reader.string(), let typeCount = reader.number(), typeCount < 10_000 else { return nil }
            var types: [HighlightedCode.TokenType] = []
            for _ in 0..<typeCount {
                guard let name = reader.string(), let cssClass = reader.string() else { return nil }
                types.append(.init(name: name, cssClass: cssClass))
            }
            guard let runCount = reader.number(), runCount <= bytes.count else { return nil }
            var runs: [HighlightedCode.Run] = []
            runs.reserveCapacity(runCount)
            for _ in 0..<runCount {
                guard let type = reader.number(), types.indices.contains(type), let length = reader.number() else { return nil }
                runs.append(.init(type: types[type], length: length))
            }
            guard reader.atEnd else { return nil }
            self = .code(HighlightedCode(lexer: lexer, runs: runs))
        default:
            return nil
        }
    }

    static func append(_ number: Int, to bytes: inout [UInt8]) {
        var value = UInt64(max(number, 0))
        while value >= 0x80 {
            bytes.append(UInt8(value & 0x7F) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }

    static func append(_ text: String, to bytes: inout [UInt8]) {
        append(text.utf8.count, to: &bytes)
        bytes.append(contentsOf: text.utf8)
    }
}

/// Reads what `HighlightAnswer.append` wrote.
struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var atEnd: Bool { offset == bytes.count }

    mutating func byte() -> UInt8? {
        guard offset < bytes.count else { return nil }
        defer { offset += 1 }
        return bytes[offset]
    }

    mutating func number() -> Int? {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while let byte = byte() {
            value |= UInt64(byte & 0x7F) << shift
            if byte < 0x80 { return value <= UInt64(Int.max) ? Int(value) : nil }
            shift += 7
            if shift > 56 { return nil }
        }
        return nil
    }

    mutating func string() -> String? {
        guard let count = number(), count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return String(decoding: bytes[offset..<(offset + count)], as: UTF8.self)
    }

    mutating func take(_ count: Int) -> ArraySlice<UInt8>? {
        guard count >= 0, count <= bytes.count - offset else { return nil }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }
}
