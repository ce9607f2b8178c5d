extension String {
    /// `parts` one after another, made in one allocation with one copy of each part's bytes:
    /// `a + "/" + b + "-" + c` makes and grows a string at each `+`, a few hundred instructions
    /// each (an id for every component of a page's JSON).
    init(joining parts: String...) {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for part in parts {
                let copied = part.utf8.withContiguousStorageIfAvailable { bytes -> Int in
                    guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return 0 }
                    (target + offset).initialize(from: source, count: bytes.count)
                    return bytes.count
                }
                if let copied {
                    offset += copied
                    continue
                }
                for byte in part.utf8 {
                    buffer[offset] = byte
                    offset += 1
                }
            }
            return offset
        }
    }
}
