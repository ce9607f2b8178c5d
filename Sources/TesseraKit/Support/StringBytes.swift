extension String {
    /// `body` with the text's UTF-8: read in place, as a native string's always is, else from a
    /// copy (`withUTF8` needs a `var`, one retain and release more, on every string written).
    @inline(__always)
    func withUTF8Bytes<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = utf8.withContiguousStorageIfAvailable(body) { return result }
        var text = self
        return text.withUTF8(body)
    }

    /// Text from UTF-8 that is valid by how it was made: whole strings' bytes one after another,
    /// or cut only before or after an ASCII byte. Copied, not decoded again: `String(decoding:)`
    /// checks every byte of text that is not all ASCII, about ten instructions a byte (a feed
    /// page's HTML was checked four times, in its component, shell, section and page renders).
    /// Bytes of any other origin (a file, a library, a cut at any offset) go through
    /// `String(decoding:)`, which repairs what is not UTF-8.
    init(validUTF8 bytes: UnsafeBufferPointer<UInt8>) {
        var text = UTF8Span(unchecked: bytes.span)
        // Marked ASCII when it is, as a decoded string would be: comparing and hashing such a
        // string take their fast paths.
        _ = text.checkForASCII()
        self.init(copying: text)
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
