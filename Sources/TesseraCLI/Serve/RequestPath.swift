/// A request's path, percent-decoded and checked, as the names to look up below the output folder.
///
/// Browsers resolve `.` and `..` before they send a URL, so a path that still holds one (plainly,
/// percent-encoded or double-encoded), a NUL, a backslash or an encoded slash comes from a tool
/// probing for files outside the site: it is refused with 400 before the file system is touched.
/// Symbolic links that lead outside are caught later, by ``OutputFolder``, after `realpath`.
struct RequestPath: Equatable {
    /// Why a path was refused; the description is the body of the 400 response.
    enum Refusal: Error, Equatable, CustomStringConvertible {
        case notAbsolute
        case malformedEscape
        case notUTF8
        case dotSegment
        case doubleEncoding
        case nul
        case backslash
        case encodedSlash

        var description: String {
            switch self {
            case .notAbsolute: return "the path does not start with /"
            case .malformedEscape: return "the path has a % not followed by two hexadecimal digits"
            case .notUTF8: return "the decoded path is not UTF-8"
            case .dotSegment: return "the path has a . or .. segment"
            case .doubleEncoding: return "the path is percent-encoded twice (%2e%2e or %00)"
            case .nul: return "the path holds a NUL character"
            case .backslash: return "the path holds a backslash"
            case .encodedSlash: return "the path holds an encoded slash (%2f)"
            }
        }
    }

    /// The decoded names between the slashes; empty names (`//`) are dropped.
    var names: [String]
    /// The same names as they were sent, still percent-encoded, for building redirects.
    var encodedNames: [Substring]
    /// Whether the path ends with `/`, which is how a folder's URL must be written.
    var endsWithSlash: Bool

    /// Checks and decodes the path part of a request target (no query string).
    init(_ rawPath: String) throws(Refusal) {
        guard rawPath.hasPrefix("/") else { throw .notAbsolute }
        guard !rawPath.contains("\\") else { throw .backslash }
        encodedNames = rawPath.split(separator: "/", omittingEmptySubsequences: true)
        names = try encodedNames.map { encoded throws(Refusal) in try Self.decode(encoded) }
        endsWithSlash = rawPath.hasSuffix("/")
    }

    /// The root-relative path of the names, `a/b/c`.
    var relativePath: String { names.joined(separator: "/") }

    private static func decode(_ encoded: Substring) throws(Refusal) -> String {
        var bytes: [UInt8] = []
        var iterator = encoded.utf8.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                bytes.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else {
                throw .malformedEscape
            }
            bytes.append(high << 4 | low)
        }
        guard !bytes.contains(0) else { throw .nul }
        guard !bytes.contains(UInt8(ascii: "\\")) else { throw .backslash }
        guard !bytes.contains(UInt8(ascii: "/")) else { throw .encodedSlash }
        guard let name = String(validating: bytes, as: UTF8.self) else { throw .notUTF8 }
        guard name != ".", name != ".." else { throw .dotSegment }
        // A file system never decodes these, but a second decoding layer (a proxy, a careless
        // tool) would; nothing legitimate is named like this.
        let lowercased = name.lowercased()
        guard !lowercased.contains("%2e%2e"), !lowercased.contains("%00") else { throw .doubleEncoding }
        return name
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
