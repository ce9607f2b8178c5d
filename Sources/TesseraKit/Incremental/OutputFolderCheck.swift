#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// Whether an output folder is exactly as the last build left it: every file it recorded is there
/// with the `stat` recorded, and nothing else is.
///
/// One `stat` per recorded folder and file, and no listing of a folder whose stamp is the recorded
/// one (its entries are the ones it had). A folder whose stamp changed is listed: each entry must
/// be a recorded file, a recorded folder, or a new folder holding only recorded files and such
/// folders. The work is cut in slices that every thread calling `work()` takes in turn, so a thread
/// done with its own task joins the check another one started.
final class OutputFolderCheck: @unchecked Sendable {
    private let root: Int32
    private let files: [(path: String, record: BuildManifest.FileRecord)]
    private let folders: [(path: String, stamp: FolderStamp)]
    private let recordedFiles: [String: BuildManifest.FileRecord]
    private let recordedFolders: [String: FolderStamp]
    private let trustedBefore: Int
    private let next = Atomic<Int>(0)
    private let failed = Atomic<Bool>(false)
    /// Stamps that differ from the recorded ones (folders listed), gathered from every thread.
    private let restamped = Mutex<[(String, FolderStamp)]>([])
    private static let slice = 256

    /// Opens the folder; nil when it is missing or cannot be opened.
    init?(_ directory: String, files: [String: BuildManifest.FileRecord], folders: [String: FolderStamp]) {
        root = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard root >= 0 else { return nil }
        // Without a recorded stamp, the folder itself is listed (and so everything new below it).
        var folders = folders
        if folders[""] == nil { folders[""] = FolderStamp(inode: 0, modified: 0, changed: 0) }
        self.files = files.map { ($0.key, $0.value) }
        self.folders = folders.map { ($0.key, $0.value) }
        recordedFiles = files
        recordedFolders = folders
        // A folder changed in the last two seconds may change again within the same clock tick
        // without its stamp showing it: its stamp is kept, but never trusted.
        trustedBefore = Int((Date().timeIntervalSince1970 - 2) * 1e9)
    }

    deinit { close(root) }

    /// Checks slices until none is left.
    func work() {
        let total = folders.count + files.count
        var changed: [(String, FolderStamp)] = []
        defer { if !changed.isEmpty { restamped.withLock { $0 += changed } } }
        while !failed.load(ordering: .relaxed) {
            let start = next.wrappingAdd(Self.slice, ordering: .relaxed).oldValue
            guard start < total else { return }
            for index in start..<min(start + Self.slice, total) {
                let ok = index < folders.count ? checkFolder(folders[index], changed: &changed) : checkFile(files[index - folders.count])
                if !ok { return failed.store(true, ordering: .relaxed) }
            }
        }
    }

    /// Once every `work()` returned: whether the folder is intact, every folder's stamp now (the
    /// recorded ones with those that changed), and whether any changed.
    func result() -> (intact: Bool, folders: [String: FolderStamp], changed: Bool) {
        guard !failed.load(ordering: .relaxed) else { return (false, [:], true) }
        let changed = restamped.withLock { $0 }
        var stamps = recordedFolders
        for (path, stamp) in changed { stamps[path] = stamp }
        return (true, stamps, !changed.isEmpty)
    }

    private func checkFile(_ file: (path: String, record: BuildManifest.FileRecord)) -> Bool {
        var info = stat()
        guard fstatat(root, file.path, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return false }
        return file.record.sameStat(as: .from(info))
    }

    private func checkFolder(_ folder: (path: String, stamp: FolderStamp), changed: inout [(String, FolderStamp)]) -> Bool {
        var info = stat()
        guard fstatat(root, folder.path.isEmpty ? "." : folder.path, &info, AT_SYMLINK_NOFOLLOW) == 0,
              info.st_mode & S_IFMT == S_IFDIR else { return false }
        let stamp = FolderStamp(info)
        if stamp == folder.stamp { return true }
        return relist(folder.path, stamp: stamp, changed: &changed)
    }

    /// Lists a folder whose stamp changed, and the new folders in it.
    private func relist(_ path: String, stamp: FolderStamp, changed: inout [(String, FolderStamp)]) -> Bool {
        changed.append((path, stamp.trusted(before: trustedBefore)))
        // A handle of its own (not a `dup`, which would share the root's read position).
        let descriptor = openat(root, path.isEmpty ? "." : path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        guard let handle = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        var newFolders: [(String, FolderStamp)] = []
        let complete: Bool = {
            defer { closedir(handle) }
            while let entry = readdir(handle) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                if name == "." || name == ".." || (path.isEmpty && name == OutputWriter.markerName) { continue }
                let child = path.isEmpty ? name : path + "/" + name
                // A recorded file's `stat` is checked by its own slice; a recorded folder, by its own.
                if recordedFiles[child] != nil || recordedFolders[child] != nil { continue }
                var info = stat()
                guard fstatat(dirfd(handle), name, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFDIR else { return false }
                newFolders.append((child, FolderStamp(info)))
            }
            return true
        }()
        guard complete else { return false }
        for (folder, stamp) in newFolders where !relist(folder, stamp: stamp, changed: &changed) { return false }
        return true
    }
}
