import Foundation

/// Bytes on their way to an open file, written a mebibyte at a time: a large cache file (the
/// build record, the search documents) is written as it is made, never held whole in memory.
struct BufferedFile {
    let descriptor: Int32
    var bytes: [UInt8] = []
    /// False once a write failed (a full disk).
    private(set) var written = true

    static let size = 1 << 20

    init(descriptor: Int32) {
        self.descriptor = descriptor
        bytes.reserveCapacity(Self.size + 4096)
    }

    mutating func flushIfFull() {
        if bytes.count >= Self.size { flush() }
    }

    mutating func flush() {
        written = written && FileTree.write(bytes, to: descriptor)
        bytes.removeAll(keepingCapacity: true)
    }

    /// `data` after what is buffered, written at once.
    mutating func write(_ data: some DataProtocol & ContiguousBytes) {
        flush()
        written = written && data.withUnsafeBytes { FileTree.write($0, to: descriptor) }
    }
}
