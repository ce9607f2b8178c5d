extension String {
    /// `body` with the text's UTF-8: read in place, as a native string's always is, else from a
    /// copy (`withUTF8` needs a `var`, one retain and release more, on every string written).
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = self
        return text.withUTF8(body)
    }

    /// `parts` one after another, made in one allocation with one copy of each part's bytes:
    /// `a + "/" + b + "-" + c` makes and grows a string at each `+`, a few hundred instructions
    /// each (an id for every component of a page's JSON).
    init(joining parts: String...) {
        let count = parts.reduce(0) { $0 + $1.utf8.count }
        self.init(unsafeUninitializedCapacity: count) { buffer in
            var offset = 0
            for part in parts {
                offset += part.withUTF8Bytes { bytes -> Int in
                    guard let source = bytes.baseAddress, let target = buffer.baseAddress else { return 0 }
                    (target + offset).initialize(from: source, count: bytes.count)
                    return bytes.count
                }
            }
            return offset
        }
    }
}
