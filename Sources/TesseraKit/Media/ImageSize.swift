import Foundation

/// The pixel size of an image file, read from its header (PNG, GIF, JPEG, WebP, SVG), so templates
/// can write `width` and `height` and the page does not shift as images load.
public struct ImageSize: Sendable, Equatable {
    public var width: Int
    public var height: Int

    /// At most this much of a file is read: every header is near the start (JPEG's frame header
    /// may follow large metadata).
    static let readLimit = 256 << 10

    /// Sizes already read, by path: an image used on many pages is read once a build.
    private static let cache = Cache()

    final class Cache: @unchecked Sendable {
        private let lock = NSLock()
        private var sizes: [String: (stamp: Double, size: ImageSize?)] = [:]

        func size(of path: String) -> ImageSize? {
            let stamp = (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            if let known = lock.withLock({ sizes[path] }), known.stamp == stamp { return known.size }
            let size = ImageSize.read(path)
            lock.withLock { sizes[path] = (stamp, size) }
            return size
        }
    }

    public static func of(file path: String) -> ImageSize? { cache.size(of: path) }

    static func read(_ path: String) -> ImageSize? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: readLimit) else { return nil }
        return parse(data)
    }

    public static func parse(_ data: Data) -> ImageSize? {
        let bytes = [UInt8](data)
        func be16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i]) << 8 | Int(bytes[i + 1]) : 0 }
        func be32(_ i: Int) -> Int { i + 3 < bytes.count ? be16(i) << 16 | be16(i + 2) : 0 }
        func le16(_ i: Int) -> Int { i + 1 < bytes.count ? Int(bytes[i]) | Int(bytes[i + 1]) << 8 : 0 }
        func le24(_ i: Int) -> Int { i + 2 < bytes.count ? le16(i) | Int(bytes[i + 2]) << 16 : 0 }
        func valid(_ w: Int, _ h: Int) -> ImageSize? { w > 0 && h > 0 ? ImageSize(width: w, height: h) : nil }

        // PNG: signature, then IHDR's width and height.
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return valid(be32(16), be32(20)) }
        // GIF87a / GIF89a: logical screen size.
        if bytes.starts(with: Array("GIF8".utf8)) { return valid(le16(6), le16(8)) }
        // WebP: lossy (VP8), lossless (VP8L) or extended (VP8X).
        if bytes.count >= 30, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8..<12]) == Array("WEBP".utf8) {
            switch String(decoding: bytes[12..<16], as: UTF8.self) {
            case "VP8 ": return valid(le16(26) & 0x3FFF, le16(28) & 0x3FFF)
            case "VP8L":
                let b = bytes[21...24].map(Int.init)
                return valid(1 + (b[0] | (b[1] & 0x3F) << 8), 1 + (b[1] >> 6 | b[2] << 2 | (b[3] & 0x0F) << 10))
            case "VP8X": return valid(1 + le24(24), 1 + le24(27))
            default: return nil
            }
        }
        // JPEG: walk the markers to a start-of-frame.
        if bytes.starts(with: [0xFF, 0xD8]) {
            var i = 2
            while i + 9 < bytes.count {
                guard bytes[i] == 0xFF else { return nil }
                let marker = bytes[i + 1]
                if marker == 0xFF { i += 1; continue }
                if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { i += 2; continue }
                let length = be16(i + 2)
                if (0xC0...0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                    return valid(be16(i + 7), be16(i + 5))
                }
                guard length >= 2 else { return nil }
                i += 2 + length
            }
            return nil
        }
        // SVG: width and height in pixels on the root element, else its viewBox.
        if let text = String(data: data.prefix(8192), encoding: .utf8), let start = text.range(of: "<svg") {
            let tag = text[start.upperBound...].prefix { $0 != ">" }
            func attribute(_ name: String) -> String? {
                guard let range = tag.range(of: " " + name + "=") ?? tag.range(of: "\n" + name + "=") else { return nil }
                let rest = tag[range.upperBound...]
                guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
                return String(rest.dropFirst().prefix { $0 != quote })
            }
            func pixels(_ value: String?) -> Int? {
                guard var value = value?.trimmingCharacters(in: .whitespaces) else { return nil }
                if value.hasSuffix("px") { value.removeLast(2) }
                return Double(value).map { Int($0.rounded()) }
            }
            if let w = pixels(attribute("width")), let h = pixels(attribute("height")) { return valid(w, h) }
            if let box = attribute("viewBox") {
                let numbers = box.split(whereSeparator: { $0 == " " || $0 == "," }).compactMap { Double($0) }
                if numbers.count == 4 { return valid(Int(numbers[2].rounded()), Int(numbers[3].rounded())) }
            }
        }
        return nil
    }
}
