import Foundation

/// What one render writes: UTF-8 bytes in memory of their own, each append a capacity check and
/// a copy, made a `String` once at the end.
///
/// A render appends dozens of pieces (text between tags, values, escaped values), and a
/// `String` append goes through the text-stream machinery and checks uniqueness, capacity and
/// ASCII-ness each time: about 350 instructions an append, and the renders of 1,000 feed pages
/// made a million appends (6% of the build's instructions). Owned by one render on one thread,
/// as `MustacheRendering` is, so its variables skip the run-time exclusivity check.
final class RenderOutput {
    @exclusivity(unchecked) private var base: UnsafeMutablePointer<UInt8>
    @exclusivity(unchecked) private var capacity: Int
    @exclusivity(unchecked) private(set) var count = 0

    init(capacity: Int) {
        self.capacity = Swift.max(capacity, 256)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// The bytes written, as text. They are whole `String`s' and ASCII literals', one after
    /// another, or runs of a string cut before or after an ASCII byte (`HTMLEscape`), and
    /// strings put in after a `\n` (indentation): valid UTF-8, copied without checking it again.
    var string: String { String(validUTF8: UnsafeBufferPointer(start: base, count: count)) }

    func append(_ text: String) {
        text.withUTF8Bytes { append($0) }
    }

    func append(_ literal: StaticString) {
        append(UnsafeBufferPointer(start: literal.utf8Start, count: literal.utf8CodeUnitCount))
    }

    @inline(__always)
    func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
        if count + bytes.count > capacity { grow(to: count + bytes.count) }
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// The byte at `offset` (below `count`).
    func byte(at offset: Int) -> UInt8 { base[offset] }

    /// `text` put in at `offset`, the bytes from there on moved after it.
    func insert(_ text: String, at offset: Int) {
        text.withUTF8Bytes { bytes in
            guard let source = bytes.baseAddress, !bytes.isEmpty else { return }
            if count + bytes.count > capacity { grow(to: count + bytes.count) }
            memmove(base + offset + bytes.count, base + offset, count - offset)
            (base + offset).update(from: source, count: bytes.count)
            count += bytes.count
        }
    }

    private func grow(to needed: Int) {
        let larger = Swift.max(needed, capacity * 2)
        let new = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        new.update(from: base, count: count)
        base.deallocate()
        base = new
        capacity = larger
    }
}
