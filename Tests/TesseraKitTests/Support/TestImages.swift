import Foundation

/// Real image files for tests, made here: PNGs of any size, colour type and depth (by default a
/// gradient, opaque or half transparent), written by `TemporarySite` wherever a file's text is `TestImages.png(…)`.
enum TestImages {
    private static let prefix = "\u{1}test-png "

    /// A stand-in text for a `TemporarySite` file: the site writes a real PNG in its place.
    static func png(_ width: Int, _ height: Int, alpha: Bool = false) -> String {
        prefix + "\(width)x\(height)" + (alpha ? " alpha" : "")
    }

    /// The PNG a stand-in text names; nil for any other text.
    static func data(for text: String) -> Data? {
        guard text.hasPrefix(prefix) else { return nil }
        let words = text.dropFirst(prefix.count).split(separator: " ")
        let sides = words[0].split(separator: "x").compactMap { Int($0) }
        return pngData(width: sides[0], height: sides[1], alpha: words.contains("alpha"))
    }

    /// A valid PNG: 8-bit RGB(A), a gradient, its pixels in stored (uncompressed) deflate blocks.
    static func pngData(width: Int, height: Int, alpha: Bool = false) -> Data {
        pngData(width: width, height: height, colour: alpha ? .rgba : .rgb) { x, y, band in
            switch band {
            case 0: x * 255 / max(1, width - 1)
            case 1: y * 255 / max(1, height - 1)
            case 2: 96
            default: x < width / 2 ? 255 : 128
            }
        }
    }

    /// PNG colour types, by their bands.
    enum Colour: UInt8, CaseIterable {
        case grey = 0, rgb = 2, greyAlpha = 4, rgba = 6

        var bands: Int {
            switch self {
            case .grey: 1
            case .rgb: 3
            case .greyAlpha: 2
            case .rgba: 4
            }
        }
    }

    /// A valid PNG of any colour type, 8 or 16 bits deep: `sample(x, y, band)` gives each sample,
    /// 0–255 (a 16-bit sample repeats it in both bytes).
    static func pngData(width: Int, height: Int, colour: Colour, depth: Int = 8, sample: (Int, Int, Int) -> Int) -> Data {
        var raw: [UInt8] = []
        raw.reserveCapacity((width * colour.bands * depth / 8 + 1) * height)
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                for band in 0..<colour.bands {
                    let value = UInt8(clamping: sample(x, y, band))
                    raw.append(value)
                    if depth == 16 { raw.append(value) }
                }
            }
        }
        var zlib: [UInt8] = [0x78, 0x01]
        var offset = 0
        repeat {
            let count = min(65535, raw.count - offset)
            let last = offset + count >= raw.count
            zlib += [last ? 1 : 0, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            zlib += raw[offset..<(offset + count)]
            offset += count
        } while offset < raw.count
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        zlib += bigEndian(b << 16 | a)
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png += chunk("IHDR", bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [UInt8(depth), colour.rawValue, 0, 0, 0])
        png += chunk("IDAT", zlib)
        png += chunk("IEND", [])
        return Data(png)
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
    }

    private static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }
}
