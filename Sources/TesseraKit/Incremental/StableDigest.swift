import Foundation

/// A 64-bit digest of bytes for telling whether a file changed between two builds (not for
/// security: nobody gains anything by making two inputs collide here).
struct StableDigest {
    private(set) var value: UInt64 = 0x9E37_79B9_7F4A_7C15

    mutating func combine(_ buffer: UnsafeRawBufferPointer) {
        var index = 0
        let count = buffer.count
        while index + 8 <= count {
            mix(buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
            index += 8
        }
        var tail: UInt64 = 0
        var shift: UInt64 = 0
        while index < count {
            tail |= UInt64(buffer[index]) << shift
            shift += 8
            index += 1
        }
        // The length keeps "ab" + "c" apart from "a" + "bc".
        mix(tail ^ (UInt64(count) << 56))
        mix(UInt64(count))
    }

    mutating func combine(_ data: Data) { data.withUnsafeBytes { combine($0) } }

    mutating func combine(_ string: String) {
        var string = string
        string.withUTF8 { combine(UnsafeRawBufferPointer($0)) }
    }

    mutating func combine(_ number: UInt64) { mix(number) }

    private mutating func mix(_ word: UInt64) {
        value = (value ^ word) &* 0xFF51_AFD7_ED55_8CCD
        value ^= value >> 33
        value = value &* 0xC4CE_B9FE_1A85_EC53
        value ^= value >> 29
    }

    static func of(_ data: Data) -> UInt64 {
        var digest = StableDigest()
        digest.combine(data)
        return digest.value
    }
}
