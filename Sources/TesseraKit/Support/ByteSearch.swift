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

    /// Where `byte` first occurs in `bytes` at or after `start` (`memchr`: the marker scans run
    /// over every page's HTML, and a generic `firstIndex(of:)` reads a byte at a time).
    @inline(__always)
    static func firstIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int = 0) -> Int? {
        guard start < bytes.count, let base = bytes.baseAddress, let found = memchr(base + start, Int32(byte), bytes.count - start) else { return nil }
        return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
    }

    /// `firstIndex(of:in:from:)` in raw bytes.
    @inline(__always)
    static func firstIndex(of byte: UInt8, in raw: UnsafeRawBufferPointer, from start: Int = 0) -> Int? {
        firstIndex(of: byte, in: raw.bindMemory(to: UInt8.self), from: start)
    }

    /// Whether `needle` occurs in `text`'s UTF-8.
    static func contains(_ needle: StaticString, in text: String) -> Bool {
        var text = text
        let needle = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        return text.withUTF8 { firstOffset(of: needle, in: UnsafeRawBufferPointer($0), from: 0) != nil }
    }
}
