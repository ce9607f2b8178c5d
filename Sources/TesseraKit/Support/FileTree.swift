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

/// Lists and reads the files below a folder, the way every Tessera input folder is read:
/// recursively, sorted (same input, same output), without hidden files or editors' temporary
/// files, and refusing what a build must not follow: symbolic-link loops, links out of the site,
/// FIFOs and devices, unreadable folders. Every refusal is a diagnostic naming the path.
public enum FileTree {
    /// The files below `directory`, relative with `/` separators.
    ///
    /// - Parameters:
    ///   - boundary: symbolic links must lead to a path below this folder (the site); nil
    ///     follows links anywhere (the site opted in with `allowExternalSymlinks`).
    ///   - problems: receives one diagnostic per path that cannot be read or followed.
    static func files(in directory: String, boundary: String?, problems: DiagnosticCollector) -> [String] {
        guard isDirectory(directory) else { return [] }
        let boundaryReal = boundary.flatMap(realPath)
        var result: [String] = []
        // Each pending folder carries the real paths of the folders above it, to find loops.
        var pending: [(path: String, relative: String, ancestors: Set<String>)] = [
            (directory, "", Set([realPath(directory) ?? directory])),
        ]
        while let folder = pending.popLast() {
            guard let handle = opendir(folder.path) else {
                problems.report(Diagnostic(.error, "cannot read this folder: \(systemReason())", at: SourceLocation(file: folder.path), hint: "check its permissions (`chmod u+rx`), or move it out of the site"))
                continue
            }
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                if name != "." && name != ".." && !isIgnored(name) { names.append(name) }
            }
            closedir(handle)
            for name in names {
                let path = folder.path + "/" + name
                let relative = folder.relative.isEmpty ? name : folder.relative + "/" + name
                let location = SourceLocation(file: path)
                // A name becomes a URL, a link and a line of the sitemap.
                if let control = ControlCharacters.first(in: name) {
                    problems.report(Diagnostic(
                        .error, "this name holds the control character \(ControlCharacters.name(control)), which URLs, HTML and feeds cannot carry",
                        at: location, hint: "rename it without the control character"))
                    continue
                }
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    problems.report(Diagnostic(.error, "cannot read this file: \(systemReason())", at: location, hint: "check its permissions"))
                    continue
                }
                var kind = info.st_mode & S_IFMT
                var real = path
                if kind == S_IFLNK {
                    guard let target = realPath(path) else {
                        let loop = errno == ELOOP
                        problems.report(Diagnostic(
                            .error, loop ? "symbolic link loop at \(relative)" : "broken symbolic link: \(relative) leads nowhere",
                            at: location, hint: loop ? "the link leads back to itself; remove it or point it at a real file" : "remove the link or restore its target"))
                        continue
                    }
                    if let boundaryReal, target != boundaryReal, !target.hasPrefix(boundaryReal + "/") {
                        problems.report(Diagnostic(
                            .error, "symbolic link \(relative) leads outside the site, to \(target)", at: location,
                            hint: "copy the file into the site, or set `allowExternalSymlinks: true` in site.yml if you trust where it leads"))
                        continue
                    }
                    guard stat(path, &info) == 0 else {
                        problems.report(Diagnostic(.error, "cannot read this file: \(systemReason())", at: location, hint: "check its permissions"))
                        continue
                    }
                    kind = info.st_mode & S_IFMT
                    real = target
                }
                switch kind {
                case S_IFDIR:
                    let key = realPath(real) ?? real
                    guard !folder.ancestors.contains(key) else {
                        problems.report(Diagnostic(
                            .error, "symbolic link loop: \(relative) leads back to a folder that holds it", at: location,
                            hint: "remove the link; a site must not contain itself"))
                        continue
                    }
                    pending.append((path, relative, folder.ancestors.union([key])))
                case S_IFREG:
                    result.append(relative)
                default:
                    problems.report(Diagnostic(
                        .error, "\(relative) is \(describe(kind)), not a regular file", at: location,
                        hint: "Tessera reads only files and folders; move it out of the site"))
                }
            }
        }
        return result.sorted()
    }

    /// Every regular file below `directory` with its `stat`, read through directory handles,
    /// sorted; `includeHidden` lists what `files(in:)` leaves out too. Nil when the
    /// tree holds anything else (a symbolic link, a FIFO, an unreadable folder): the caller then
    /// takes the careful path of `files(in:)`.
    static func statWalk(_ directory: String, includeHidden: Bool = false) -> [(relative: String, record: BuildManifest.FileRecord)]? {
        statWalk(directory, includeHidden: includeHidden, known: nil)?.files
    }

    /// The same walk, which also stamps every folder it passes; a folder whose stamp in `known` is
    /// unchanged is not read again: its entries are the ones `known` lists (each still `stat`ed).
    /// `sorted: false` leaves the files in walk order.
    static func statWalk(_ directory: String, includeHidden: Bool = false, known: KnownTree?, sorted: Bool = true)
        -> (files: [(relative: String, record: BuildManifest.FileRecord)], folders: [String: FolderStamp], changed: Bool)? {
        guard let walk = SharedStatWalk(directory, includeHidden: includeHidden, known: known) else { return nil }
        walk.work()
        guard var result = walk.result() else { return nil }
        if sorted { result.files.sort { $0.0 < $1.0 } }
        return result
    }

    /// What an earlier `statWalk` saw: the stamp of every folder, and the names in each (the
    /// files, from the records of the files it listed; the folders, from the stamps).
    struct KnownTree {
        private var stamps: [String: FolderStamp]
        private var files: [String: [String]] = [:]
        private var folders: [String: [String]] = [:]
        /// Where the walk starts, as the paths here name it ("" when they are relative to it).
        private var base = ""

        init(stamps: [String: FolderStamp], files: some Sequence<String>) {
            self.stamps = stamps
            for path in files {
                let (folder, name) = Self.split(path)
                self.files[folder, default: []].append(name)
            }
            for path in stamps.keys where !path.isEmpty {
                let (folder, name) = Self.split(path)
                self.folders[folder, default: []].append(name)
            }
        }

        /// The same tree for a walk that starts at `base` (a folder the paths here name).
        func rebased(_ base: String) -> KnownTree {
            var tree = self
            tree.base = base
            return tree
        }

        private func key(_ relative: String) -> String {
            base.isEmpty ? relative : relative.isEmpty ? base : base + "/" + relative
        }

        func stamp(_ relative: String) -> FolderStamp? { stamps[key(relative)] }
        func files(in relative: String) -> [String] { files[key(relative)] ?? [] }
        func folders(in relative: String) -> [String] { folders[key(relative)] ?? [] }

        private static func split(_ path: String) -> (folder: String, name: String) {
            guard let slash = path.utf8.lastIndex(of: UInt8(ascii: "/")) else { return ("", path) }
            return (String(path[..<slash]), String(path[path.utf8.index(after: slash)...]))
        }
    }

    /// Hidden files, editor backups, swap files and vim's write-test file `4913` never count as
    /// site input, for a build or for the watcher of `tessera serve`.
    public static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#") || name.hasSuffix(".swp")
            || name.hasSuffix(".swx") || name.hasSuffix(".tmp") || name == "4913"
    }

    /// Writes new files below `directory` (paths relative to it, folders made as needed) for
    /// `tessera new`, `new theme` and `theme eject`. Refuses before writing anything when one of
    /// them exists: Tessera never replaces a file of the user's.
    static func writeNewFiles(_ files: [(path: String, data: Data)], below directory: String) throws -> [String] {
        let fm = FileManager.default
        if let existing = files.first(where: { fm.fileExists(atPath: directory + "/" + $0.path) }) {
            throw TesseraError("\(directory)/\(existing.path) already exists", hint: "move it away first; Tessera never replaces a file of yours")
        }
        for file in files {
            let path = directory + "/" + file.path
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard fm.createFile(atPath: path, contents: file.data) else {
                throw TesseraError("could not write \(path)", hint: "check that the folder is writable")
            }
        }
        return files.map(\.path)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The text of an input file, normalized so every later stage sees one form: no byte-order
    /// mark, `\n` line ends (CRLF and lone CR files give the same output as LF ones).
    static func readText(_ path: String) throws -> String {
        try decode(try readData(path), file: path)
    }

    /// A regular file's bytes, refusing anything else (a FIFO would block).
    static func readData(_ path: String) throws -> Data {
        let location = SourceLocation(file: path)
        // Not blocking on open: a FIFO is refused below instead of waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let denied = errno == EACCES
            throw TesseraError("cannot read this file: \(systemReason())", at: location, hint: denied ? "check its permissions (`chmod u+r`)" : "check that it exists and is readable")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw TesseraError("cannot read this file: \(systemReason())", at: location, hint: "check that it exists and is readable")
        }
        // Reading a FIFO or a device would block or never end.
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TesseraError("this is \(describe(info.st_mode & S_IFMT)), not a regular file", at: location, hint: "Tessera reads only regular files")
        }
        // One read of the size `stat` gave, and more if the file grew meanwhile.
        var data = Data(count: Int(info.st_size) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(4096, data.count) }
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + length, buffer.count - length)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw TesseraError("cannot read this file: \(systemReason())", at: location, hint: "check its permissions (`chmod u+r`)")
            }
            if count == 0 { break }
            length += count
        }
        data.count = length
        return data
    }

    /// Writes all of `bytes` to an open file; false when the system refuses (a full disk).
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { write($0, to: descriptor) }
    }

    /// UTF-8 bytes to normalized text; invalid UTF-8 is an error at its line and column.
    static func decode(_ data: Data, file: String) throws -> String {
        // The common case, UTF-8 with LF line ends and no byte-order mark, without a copy.
        let plain = data.withUnsafeBytes { raw -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]), !containsByte(13, UnsafeRawBufferPointer(bytes)),
                  ControlCharacters.firstOffset(in: bytes) == nil else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        if let plain { return plain }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.contains(13) {
            var normalized: [UInt8] = []
            normalized.reserveCapacity(bytes.count)
            for (index, byte) in bytes.enumerated() {
                if byte == 13 {
                    if index + 1 < bytes.count && bytes[index + 1] == 10 { continue }
                    normalized.append(10)
                } else {
                    normalized.append(byte)
                }
            }
            bytes = normalized
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            try refuseControlCharacters(bytes, file: file)
            return text
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
        // Line endings are LF by now (CRLF and CR were normalized above).
        var line = 1, lineStart = 0, index = 0
        while index < offset {
            if bytes[index] == 10 || (bytes[index] == 13 && (index + 1 >= bytes.count || bytes[index + 1] != 10)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        throw TesseraError(
            "this file is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))",
            at: SourceLocation(file: file, line: line, column: column), hint: "save the file with UTF-8 encoding")
    }

    /// Throws at the line and column of the first control character of valid UTF-8 `bytes`.
    private static func refuseControlCharacters(_ bytes: [UInt8], file: String) throws {
        guard let offset = bytes.withUnsafeBufferPointer(ControlCharacters.firstOffset) else { return }
        let lineStart = bytes[..<offset].lastIndex(of: 10).map { $0 + 1 } ?? 0
        let line = bytes[..<offset].count { $0 == 10 } + 1
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        let scalar = String(decoding: bytes[offset...].prefix(2), as: UTF8.self).unicodeScalars.first!
        throw ControlCharacters.error(scalar, at: SourceLocation(file: file, line: line, column: column))
    }

    /// Whether `byte` occurs in `bytes` (`memchr`: a large file's scan is the copy's speed).
    static func containsByte(_ byte: UInt8, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    }

    /// The canonical absolute path, symbolic links resolved; nil when it cannot be resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func systemReason() -> String {
        String(cString: strerror(errno))
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a folder"
        default: return "a special file"
        }
    }
}

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
