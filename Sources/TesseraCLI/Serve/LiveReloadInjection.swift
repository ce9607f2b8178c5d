import Foundation

/// Adds the live-reload script to HTML as it is served; the files on disk stay as the build wrote them.
enum LiveReloadInjection {
    static let scriptPath = "/__tessera/live.js"
    static let scriptTag = "<script src=\"\(scriptPath)\"></script>"

    /// The page with the script tag just before the last `</body>` (any case), or appended when the
    /// page has none: browsers run a script after `</html>` all the same.
    static func inject(into html: Data) -> Data {
        let bytes = [UInt8](html)
        let tag = Array(scriptTag.utf8)
        guard let closingBody = lastClosingBody(in: bytes) else { return Data(bytes + tag) }
        return Data(bytes[..<closingBody] + tag + bytes[closingBody...])
    }

    /// The offset of the last `</body` compared without regard to ASCII case.
    private static func lastClosingBody(in bytes: [UInt8]) -> Int? {
        let needle = Array("</body".utf8)
        guard bytes.count >= needle.count else { return nil }
        for start in stride(from: bytes.count - needle.count, through: 0, by: -1) {
            var matches = true
            for offset in 0..<needle.count where lowercased(bytes[start + offset]) != needle[offset] {
                matches = false
                break
            }
            if matches { return start }
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
