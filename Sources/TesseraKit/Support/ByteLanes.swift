/// Bytes of valid UTF-8 read as they are: eight ASCII bytes at a time as the lanes of one
/// number, and a scalar from its lead byte.
enum ByteLanes {
    /// A one in every lane, and every lane's high bit.
    static let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080

    /// The high bit of each lane from `low` to `high`, for lanes below 0x80 (then no lane
    /// carries into the next): at `low` and above, adding `0x80 - low` sets the high bit; above
    /// `high`, adding `0x7F - high` does.
    @inline(__always) static func within(_ lanes: UInt64, _ low: UInt64, _ high: UInt64) -> UInt64 {
        (lanes &+ (0x80 &- low) &* ones) & ~(lanes &+ (0x7F &- high) &* ones) & highs
    }

    /// The number of bytes of the scalar whose lead byte (beyond ASCII) is `lead`.
    @inline(__always) static func scalarLength(lead: UInt8) -> Int {
        lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
    }

    /// The value of the scalar whose UTF-8 starts at `index` (a lead byte beyond ASCII of valid
    /// UTF-8), and its length.
    @inline(__always) static func scalar(in bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> (value: UInt32, length: Int) {
        let lead = bytes[index], length = scalarLength(lead: lead)
        var value = UInt32(lead) & (0x7F >> length)
        for offset in 1..<length where index + offset < bytes.count { value = value << 6 | UInt32(bytes[index + offset] & 0x3F) }
        return (value, length)
    }
}
