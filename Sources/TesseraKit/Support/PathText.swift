import Foundation

/// File name parts of the clean relative paths Tessera makes (`blog/first.fr.md`), without
/// going through `NSString` (which normalizes the whole path first, at a cost every file paid).
/// The tests check each against `NSString` on a set of paths.
enum PathText {
    /// `blog/first.md` → `first.md`.
    static func lastComponent(_ path: String) -> Substring {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return path[...] }
        return path[path.utf8.index(after: slash)...]
    }

    /// The last component's last dot, unless only dots come before it (`.hidden`, `..`).
    private static func extensionDot(_ path: String) -> String.Index? {
        let name = lastComponent(path)
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), name[..<dot].utf8.contains(where: { $0 != UInt8(ascii: ".") }) else { return nil }
        return dot
    }

    /// The folder of a clean path (no `//`, `.` or trailing `/`): `/site/public/blog/index.html` →
    /// `/site/public/blog`, `/blog` → `/`, `index.html` → "".
    static func folder(_ path: String) -> String {
        guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        return slash == path.utf8.startIndex ? "/" : String(path[..<slash])
    }

    /// `blog/first.fr.md` → `md`; "" when there is none (`a.` has none, but loses its dot).
    static func pathExtension(_ path: String) -> String {
        guard let dot = extensionDot(path) else { return "" }
        return String(path[path.utf8.index(after: dot)...])
    }

    /// `blog/first.fr.md` → `blog/first.fr`.
    static func deletingPathExtension(_ path: String) -> String {
        guard let dot = extensionDot(path) else { return path }
        return String(path[..<dot])
    }
}

/// Lowercase hexadecimal text of bytes (digests, ids), without `String(format:)`.
enum Hex {
    static func string<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
