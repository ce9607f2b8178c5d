#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Writing the stored pages: new bodies appended, or all compacted into a new generation; then the table.
extension StoredPages {
    /// Writes the entries this build used or made, and only those (the pages of a file that
    /// is gone, changed or no longer parses are dropped). Nothing is written when the file
    /// already holds exactly those. New bodies go at the end of the bodies file, unless most of
    /// it would then be bodies no entry uses: the next generation holds the used ones alone.
    func save() {
        ready()
        // Taken, not copied: the build goes on for long after, and the pages' bytes and bodies
        // (3.6 KB a post on disk, more in growing arrays) would wait in memory to the end.
        let taken = self.fresh.withLock { fresh in
            defer { fresh = FreshPages() }
            return fresh
        }
        let fresh = taken.entries.sorted { $0.key < $1.key }
        // A used entry was not parsed again, so no path is in both.
        let kept = storedKey != key ? [] : order.filter { usedFlags[$0.1.index] }
        if fresh.isEmpty && kept.count == order.count { return }
        guard (try? BuildManifest.makeFolder(of: path)) != nil else { return }
        let keptBodies = kept.reduce(0) { $0 + $1.1.bodies.count }, freshBodies = fresh.reduce(0) { $0 + $1.value.bodies.count }
        // Appended to the last generation's file (from its real end: a save cut short may have
        // left bytes there), or a new generation.
        var generation = bodiesGeneration, appendAt = 0
        var appends = bodiesMapping != nil && storedKey == key
        if appends {
            var info = stat()
            appends = stat(bodiesPath(generation), &info) == 0 && Int(info.st_size) >= bodiesLength
            appendAt = Int(info.st_size)
            // Mostly bodies of files changed since: written anew.
            if appendAt + freshBodies > 2 * (keptBodies + freshBodies) + (1 << 20) { appends = false }
        }
        if !appends {
            generation = bodiesGeneration &+ 1
            appendAt = 0
        }
        let target = bodiesPath(generation)
        let bodiesDescriptor = Glibc.open(target, O_WRONLY | O_CREAT | O_CLOEXEC | (appends ? 0 : O_TRUNC), 0o644)
        guard bodiesDescriptor >= 0 else { return }
        var complete = lseek(bodiesDescriptor, off_t(appendAt), SEEK_SET) == off_t(appendAt)
        // Where each entry's bodies go: kept ones stay where they are when appending, else they
        // are copied first; new ones after.
        var end = appendAt
        var movedBodies: [Range<Int>] = []
        if !appends {
            movedBodies = kept.map { _, entry in
                defer { end += entry.bodies.count }
                return end..<(end + entry.bodies.count)
            }
            if let bodiesMapping, complete { complete = Self.write(runsOf: kept.map(\.1.bodies), in: bodiesMapping, to: bodiesDescriptor) }
        }
        let freshStart = fresh.map { _, entry in
            defer { end += entry.bodies.count }
            return end
        }
        if complete { complete = Self.write(fresh.lazy.map { taken.bodies(of: $0.value) }, to: bodiesDescriptor) }
        close(bodiesDescriptor)
        guard complete else { return }

        // The table, with each entry's bytes where they go: the kept ones first, in their order.
        var table = PageEncoder(sourcePath: "")
        var offset = 0
        func row(_ relative: String, _ digest: UInt64, _ length: Int, _ bodies: Range<Int>) {
            table.string(relative)
            table.fixed64(digest)
            table.fixed64(UInt64(offset))
            table.fixed32(UInt32(length))
            table.fixed64(UInt64(bodies.lowerBound))
            table.fixed32(UInt32(bodies.count))
            offset += length
        }
        for (position, (relative, entry)) in kept.enumerated() {
            row(relative, entry.digest, entry.payload.count, appends ? entry.bodies : movedBodies[position])
        }
        for (position, (relative, entry)) in fresh.enumerated() {
            row(relative, entry.digest, entry.bytes.count, freshStart[position]..<(freshStart[position] + entry.bodies.count))
        }
        var header = PageEncoder(sourcePath: "")
        header.bytes.append(contentsOf: Self.magic)
        header.fixed32(Self.format)
        header.fixed64(key)
        header.fixed64(generation)
        header.fixed64(UInt64(end))
        header.fixed32(UInt32(kept.count + fresh.count))
        header.fixed32(UInt32(table.bytes.count))
        let temporary = path + ".tmp-\(getpid())"
        let descriptor = Glibc.open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { return }
        complete = FileTree.write(header.bytes, to: descriptor) && FileTree.write(table.bytes, to: descriptor)
        // Runs of kept entries go out straight from the old file.
        if let mapping, complete { complete = Self.write(runsOf: kept.map(\.1.payload), in: mapping, to: descriptor) }
        if complete { complete = Self.write(fresh.lazy.map { taken.bytes(of: $0.value) }, to: descriptor) }
        close(descriptor)
        guard complete, rename(temporary, path) == 0 else {
            unlink(temporary)
            return
        }
        // The last generation's bodies, once no table reads them.
        if generation != bodiesGeneration { unlink(bodiesPath(bodiesGeneration)) }
    }

    /// Writes the bytes of `ranges` of `mapping`, in order, neighbours in one write.
    private static func write(runsOf ranges: [Range<Int>], in mapping: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var run: Range<Int>?
        for range in ranges {
            if let current = run, current.upperBound == range.lowerBound {
                run = current.lowerBound..<range.upperBound
                continue
            }
            if let current = run, !FileTree.write(UnsafeRawBufferPointer(rebasing: mapping[current]), to: descriptor) { return false }
            run = range
        }
        return run.map { FileTree.write(UnsafeRawBufferPointer(rebasing: mapping[$0]), to: descriptor) } ?? true
    }

    /// Writes `chunks` one after another, gathered into writes of about a megabyte.
    private static func write<Chunks: Sequence>(_ chunks: Chunks, to descriptor: Int32) -> Bool where Chunks.Element: Sequence<UInt8> {
        var batch: [UInt8] = []
        for chunk in chunks {
            batch.append(contentsOf: chunk)
            if batch.count > 1 << 20 {
                guard FileTree.write(batch, to: descriptor) else { return false }
                batch.removeAll(keepingCapacity: true)
            }
        }
        return FileTree.write(batch, to: descriptor)
    }
}
