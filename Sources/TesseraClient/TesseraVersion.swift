import Foundation

/// A dotted numeric version such as "1", "1.4" or "2.10.1", as pages write `minClientVersion`.
///
/// Versions compare part by part as numbers, not as strings, so "1.4" < "1.10", and missing
/// parts count as zero, so "1" == "1.0". Suffixes ("1.0-beta") are rejected rather than guessed
/// at: a page that asks for a version the app cannot read is safer shown as unsupported.
public struct TesseraVersion: Sendable, Hashable, Comparable, LosslessStringConvertible {
    /// The numeric parts as written (trailing zeros kept, so `description` round-trips).
    public let components: [Int]

    /// A version from its parts; at least one part is required, and none may be negative.
    public init?(components: [Int]) {
        guard !components.isEmpty, components.allSatisfy({ $0 >= 0 }) else { return nil }
        self.components = components
    }

    /// `TesseraVersion(1, 4)` for versions written in code (a negative part counts as 0).
    public init(_ major: Int, _ rest: Int...) {
        components = ([major] + rest).map { max(0, $0) }
    }

    /// Parses "1", "1.4", "2.10.1"; nil for anything else (empty parts, signs, letters).
    public init?(_ description: String) {
        let parts = description.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let number = Int(part) else { return nil }
            numbers.append(number)
        }
        self.init(components: numbers)
    }

    public var description: String { components.map(String.init).joined(separator: ".") }

    /// The parts without trailing zeros: the form equality and hashing use.
    private var normalized: ArraySlice<Int> {
        let end = (components.lastIndex(where: { $0 != 0 }) ?? -1) + 1
        return components[..<end]
    }

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.normalized == rhs.normalized }
    public func hash(into hasher: inout Hasher) { hasher.combine(Array(normalized)) }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        for index in 0..<max(lhs.components.count, rhs.components.count) {
            let left = index < lhs.components.count ? lhs.components[index] : 0
            let right = index < rhs.components.count ? rhs.components[index] : 0
            if left != right { return left < right }
        }
        return false
    }
}

extension TesseraVersion: Codable {
    /// Reads the string form; a bare integer (`"minClientVersion": 2`) is accepted too, since a
    /// hand-edited front matter value easily loses its quotes.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self), let version = TesseraVersion(components: [number]) {
            self = version
            return
        }
        let string = try container.decode(String.self)
        guard let version = TesseraVersion(string) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "\"\(string)\" is not a dotted numeric version such as \"1.4\"")
        }
        self = version
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
