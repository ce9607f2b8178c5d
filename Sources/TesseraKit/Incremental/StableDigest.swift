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

    /// The digest the build records of each file it writes: four lanes of eight bytes (xxHash64's
    /// round), whose multiplications overlap, then `combine` over the lanes, the tail and the
    /// length. `combine` waits for each multiplication before the next; this reads about four
    /// times as many bytes a second, and the output's thread digests every byte of the site.
    /// Its values are not `of`'s: a record is only compared with digests made this way.
    static func ofOutput(_ data: Data) -> UInt64 {
        data.withUnsafeBytes { buffer in
            let count = buffer.count
            var a: UInt64 = 0x9E37_79B9_7F4A_7C15, b: UInt64 = 0xC2B2_AE3D_27D4_EB4F
            var c: UInt64 = 0x1656_67B1_9E37_79F9, d: UInt64 = 0x85EB_CA77_C2B2_AE63
            var index = 0
            while index + 32 <= count {
                a = lane(a, buffer.loadUnaligned(fromByteOffset: index, as: UInt64.self))
                b = lane(b, buffer.loadUnaligned(fromByteOffset: index + 8, as: UInt64.self))
                c = lane(c, buffer.loadUnaligned(fromByteOffset: index + 16, as: UInt64.self))
                d = lane(d, buffer.loadUnaligned(fromByteOffset: index + 24, as: UInt64.self))
                index += 32
            }
            var digest = StableDigest()
            digest.mix(a)
            digest.mix(b)
            digest.mix(c)
            digest.mix(d)
            // The rest (under 32 bytes) with its length, then the whole length.
            digest.combine(UnsafeRawBufferPointer(rebasing: buffer[index...]))
            digest.mix(UInt64(count))
            return digest.value
        }
    }

    @inline(__always) private static func lane(_ accumulated: UInt64, _ word: UInt64) -> UInt64 {
        let sum = accumulated &+ word &* 0xC2B2_AE3D_27D4_EB4F
        return ((sum << 31) | (sum >> 33)) &* 0x9E37_79B1_85EB_CA87
    }
}
