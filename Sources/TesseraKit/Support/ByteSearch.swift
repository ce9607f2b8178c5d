#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Finding bytes in text without Foundation's `range(of:)`, which copies a Swift string into
/// UTF-16 first (a `contains("&#")` on every Markdown text was 4 % of a build).
enum ByteSearch {
    /// Where `needle` first occurs in `raw` at or after `start` (`memchr` for its first byte,
    /// then `memcmp`; glibc's `memmem` is not visible to Swift).
    static func firstOffset(of needle: [UInt8], in raw: UnsafeRawBufferPointer, from start: Int) -> Int? {
        guard let base = raw.baseAddress, let first = needle.first else { return nil }
        var scan = start
        while raw.count - scan >= needle.count, let found = memchr(base + scan, Int32(first), raw.count - scan - needle.count + 1) {
            let offset = base.distance(to: UnsafeRawPointer(found))
            if memcmp(base + offset, needle, needle.count) == 0 { return offset }
            scan = offset + 1
        }
        return nil
    }

    /// Whether `needle` occurs in `text`'s UTF-8.
    static func contains(_ needle: StaticString, in text: String) -> Bool {
        var text = text
        let needle = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        return text.withUTF8 { firstOffset(of: needle, in: UnsafeRawBufferPointer($0), from: 0) != nil }
    }
}
