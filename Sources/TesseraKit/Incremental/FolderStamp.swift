#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What `stat` says of a folder that changes whenever an entry is added to it, removed from it or
/// renamed in it: its inode and its modification and change times (nobody can set the latter).
struct FolderStamp: Equatable {
    var inode: UInt64
    var modified: Int
    var changed: Int

    init(inode: UInt64, modified: Int, changed: Int) {
        self.inode = inode
        self.modified = modified
        self.changed = changed
    }

    init(_ info: stat) {
        self.init(
            inode: UInt64(info.st_ino), modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
            changed: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec))
    }

    /// This stamp, or, for a folder changed at or after `cutoff` (nanoseconds since 1970), one
    /// that no folder matches.
    func trusted(before cutoff: Int) -> FolderStamp {
        changed < cutoff ? self : FolderStamp(inode: inode, modified: 0, changed: 0)
    }
}
