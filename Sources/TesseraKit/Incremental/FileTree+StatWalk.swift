import Foundation

/// The build cache's walk of a folder tree: every file with its `stat`, every folder stamped.
extension FileTree {
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
}
