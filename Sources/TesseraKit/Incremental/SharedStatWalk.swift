#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A `statWalk` whose folders are shared out to every thread that calls `work()`: a thread that
/// finished its own task joins the walk another one started.
final class SharedStatWalk: @unchecked Sendable {
    private let root: Int32
    private let makeWalker: () -> StatWalker
    /// Folders found and not yet read (with their `stat` when a listing gave it), how many
    /// threads are reading one, what each thread found, and whether some folder failed.
    private struct Progress {
        var pending: [(String, FolderStamp?)] = []
        var active = 0
        var done: [StatWalker] = []
        var failed = false
    }
    private var progress = Progress()
    private let condition = NSCondition()

    /// Opens the folder; nil when it cannot be read. A missing folder is an empty walk.
    init?(_ directory: String, includeHidden: Bool = false, known: FileTree.KnownTree?) {
        // Failing before `root` is set: the handle is closed here, never again by `deinit`.
        let root = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if root < 0 && errno != ENOENT { return nil }
        var info = stat()
        if root >= 0 && fstat(root, &info) != 0 {
            close(root)
            return nil
        }
        self.root = root
        // A folder changed in the last two seconds may change again within the same clock tick
        // without its stamp showing it: its stamp is kept, but never trusted.
        let trustedBefore = Int((Date().timeIntervalSince1970 - 2) * 1e9)
        makeWalker = { StatWalker(root: root, includeHidden: includeHidden, known: known, trustedBefore: trustedBefore) }
        if root < 0 {
            // A missing folder.
            let walker = makeWalker()
            walker.changed = known?.stamp("") != nil
            progress.done.append(walker)
        } else {
            progress.pending.append(("", FolderStamp(info)))
        }
    }

    deinit {
        if root >= 0 { close(root) }
    }

    /// Reads folders until none is left: while another thread reads one (and may find more), a
    /// thread with nothing to do waits. The walk is complete once every `work()` returned.
    func work() {
        let walker = makeWalker()
        var found: [(String, FolderStamp?)] = []
        var finished = false, failed = false
        while true {
            condition.lock()
            if finished {
                progress.pending.append(contentsOf: found)
                progress.active -= 1
                if failed { progress.failed = true }
                condition.broadcast()
                finished = false
            }
            while progress.pending.isEmpty && progress.active > 0 && !progress.failed { condition.wait() }
            guard !progress.failed, let next = progress.pending.popLast() else {
                progress.done.append(walker)
                condition.unlock()
                return
            }
            progress.active += 1
            condition.unlock()
            if let folders = walker.entries(of: next.0, next.1) { found = folders } else { failed = true; found = [] }
            finished = true
        }
    }

    /// Every file (in walk order), every folder's stamp, and whether a stamp differs from the
    /// known one; nil when some folder could not be read. Call it once every `work()` returned.
    func result() -> (files: [(relative: String, record: BuildManifest.FileRecord)], folders: [String: FolderStamp], changed: Bool)? {
        condition.lock()
        let state = progress
        condition.unlock()
        guard !state.failed, state.pending.isEmpty, let first = state.done.first else { return nil }
        var stamps = first.stamps
        stamps.reserveCapacity(state.done.reduce(0) { $0 + $1.stamps.count })
        for walker in state.done.dropFirst() { stamps.merge(walker.stamps) { first, _ in first } }
        return (state.done.flatMap(\.files), stamps, state.done.contains(where: \.changed))
    }
}

/// One thread's part of `FileTree.statWalk`: what it found below the folders it visited.
private final class StatWalker: @unchecked Sendable {
    let root: Int32
    let includeHidden: Bool
    let known: FileTree.KnownTree?
    let trustedBefore: Int
    /// Each file with what `stat` said of it (no digest).
    var files: [(String, BuildManifest.FileRecord)] = []
    var stamps: [String: FolderStamp] = [:]
    /// Some folder's stamp is not the one `known` holds.
    var changed = false

    init(root: Int32, includeHidden: Bool, known: FileTree.KnownTree?, trustedBefore: Int) {
        self.root = root
        self.includeHidden = includeHidden
        self.known = known
        self.trustedBefore = trustedBefore
    }

    private func join(_ relative: String, _ name: String) -> String { relative.isEmpty ? name : relative + "/" + name }

    /// Stamps the folder at `relative` (relative to the root; `given` is its stamp, nil to look
    /// it up), records its files and returns its subfolders (with their stamp when the folder
    /// was read), or nil for anything but files and folders.
    func entries(of relative: String, _ given: FolderStamp?) -> [(String, FolderStamp?)]? {
        // A folder listed from a record is `stat`ed here, by the thread that reads it.
        let stamp: FolderStamp
        if let given {
            stamp = given
        } else {
            var info = stat()
            guard fstatat(root, relative, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
            stamp = FolderStamp(info)
        }
        let recorded = stamp.trusted(before: trustedBefore)
        stamps[relative] = recorded
        let old = known?.stamp(relative)
        if old != recorded { changed = true }
        if let known, old == stamp {
            // An unchanged folder holds the entries it held: each is looked up by its path (files
            // may have been rewritten in place, and subfolders changed).
            for name in known.files(in: relative) {
                let path = join(relative, name)
                var info = stat()
                guard fstatat(root, path, &info, AT_SYMLINK_NOFOLLOW) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
                files.append((path, .from(info)))
            }
            return known.folders(in: relative).map { (join(relative, $0), nil) }
        }
        // A handle of its own (not a `dup`, which would share the root's read position).
        let descriptor = openat(root, relative.isEmpty ? "." : relative, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        guard let handle = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(handle) }
        let folder = dirfd(handle)
        var folders: [(String, FolderStamp?)] = []
        while let entry = readdir(handle) {
            let name = withUnsafePointer(to: entry.pointee.d_name) {
                $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
            }
            if name == "." || name == ".." || (!includeHidden && FileTree.isIgnored(name)) { continue }
            // Refused with a diagnostic by the careful walk of `files(in:)`.
            if ControlCharacters.first(in: name) != nil { return nil }
            var info = stat()
            guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
            switch info.st_mode & S_IFMT {
            case S_IFREG: files.append((join(relative, name), .from(info)))
            case S_IFDIR: folders.append((join(relative, name), FolderStamp(info)))
            default: return nil
            }
        }
        return folders
    }
}
