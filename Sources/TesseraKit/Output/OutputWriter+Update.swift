import Foundation

extension OutputWriter {
    /// Brings the output folder up to date in place: writes the files whose bytes (or copied
    /// source) changed since the last update, removes the files no longer built, and returns the
    /// paths it touched. Each file is written to a temporary name and renamed, so a server reading
    /// the folder never sees half a file.
    func update(_ files: [OutputFile], cache: BuildCache) throws -> [String] {
        try files.forEach { try Self.checkPath($0.path) }
        try checkOutputDirectory()
        let fm = FileManager.default
        let root = resolvedOutput
        do {
            try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        } catch {
            throw Self.writeError("cannot create the folder", root)
        }
        var previous = cache.written
        if previous.isEmpty {
            // A folder we did not write (or wrote before a failure): start from nothing so no
            // stale file survives. checkOutputDirectory made sure it is ours to clear.
            for name in (try? fm.contentsOfDirectory(atPath: root)) ?? [] {
                FolderRemoval.remove(root + "/" + name)
            }
            try Self.write(.text(Self.markerName, Self.markerText), to: root + "/" + Self.markerName)
        }
        var current: [String: BuildCache.WrittenFile] = [:]
        var changed: [String] = []
        do {
            for file in files {
                let record: BuildCache.WrittenFile
                switch file.contents {
                case .data(let data): record = .data(data)
                case .written: _ = try Self.contents(of: file); continue
                case .copy(let source):
                    guard let attributes = try? fm.attributesOfItem(atPath: source) else {
                        throw TesseraError("cannot read this file: \(FileTree.systemReason())", at: SourceLocation(file: source), hint: "check that it is readable")
                    }
                    record = .copy(source: source, size: (attributes[.size] as? Int) ?? -1, modified: (attributes[.modificationDate] as? Date) ?? .distantPast)
                }
                current[file.path] = record
                guard previous.removeValue(forKey: file.path) != record else { continue }
                try replace(file, root: root)
                changed.append(file.path)
            }
            changed += removeStale(previous.keys, root: root)
        } catch {
            // Force a clean rewrite next time: the folder may now be partly updated.
            cache.written = [:]
            throw TesseraError.wrapping(error, at: configuredAt)
        }
        cache.written = current
        return changed.sorted()
    }

    /// Writes `files` over their previous versions in a folder `update` keeps, leaving every
    /// other file alone (a preview rebuild of a few pages); returns the paths whose bytes changed,
    /// or nil (having written nothing) when the folder is not one `update` left whole.
    /// `removing`: files this writer wrote before that the build no longer makes (a file not in
    /// the record of what it wrote is never removed).
    func update(only files: [OutputFile], removing: [String] = [], cache: BuildCache) throws -> [String]? {
        try files.forEach { try Self.checkPath($0.path) }
        try removing.forEach { try Self.checkPath($0) }
        let contents = files.compactMap { file -> (OutputFile, Data)? in
            if case .data(let data) = file.contents { return (file, data) }
            return nil
        }
        // Read, not copied: the record is changed in place once the files are written (a copy
        // would copy every path and its bytes of a large site at each edit).
        var changes: [(path: String, file: BuildCache.WrittenFile?)] = []
        do {
            let written = cache.written
            guard !written.isEmpty, contents.count == files.count else { return nil }
            do {
                // A path given twice is compared with its bytes written just before.
                var now: [String: Data] = [:]
                for (file, data) in contents {
                    guard (now[file.path].map(BuildCache.WrittenFile.data) ?? written[file.path]) != .data(data) else { continue }
                    try replace(file, root: resolvedOutput)
                    now[file.path] = data
                    changes.append((file.path, .data(data)))
                }
                for path in removing where written[path] != nil {
                    if unlink(resolvedOutput + "/" + path) != 0 && errno != ENOENT { throw Self.writeError("cannot remove the file", resolvedOutput + "/" + path) }
                    changes.append((path, nil))
                }
            } catch {
                cache.written = [:]
                throw TesseraError.wrapping(error, at: configuredAt)
            }
        }
        cache.updateWritten { written in
            for (path, file) in changes { written[path] = file }
        }
        return Array(Set(changes.map(\.path))).sorted()
    }

    /// Writes `file` under a temporary name beside its target and renames it over the target, so
    /// a server reading the folder never sees half a file.
    private func replace(_ file: OutputFile, root: String) throws {
        let target = root + "/" + file.path
        let folder = (target as NSString).deletingLastPathComponent
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw Self.writeError("cannot create the folder", folder)
        }
        let temporary = folder + "/.tessera-" + UUID().uuidString
        try Self.write(file, to: temporary)
        guard rename(temporary, target) == 0 else {
            let failure = Self.writeError("cannot replace", target)
            unlink(temporary)
            throw failure
        }
    }

    /// Updates the output folder of a previous build in place, for `tessera build` with a build
    /// cache: writes the files whose bytes differ from what `previous` recorded (every file it
    /// records is there, untouched since), leaves the `keep` paths alone, and removes files no longer built. New
    /// versions are all written under temporary names first and then renamed over the old ones,
    /// so each file is replaced whole and a failure before the renames changes nothing.
    /// `keep`: files of the last build to leave as they are (nil: every file not written now).
    func updateInPlace(_ files: [OutputFile], previous: [String: BuildManifest.FileRecord], keep: Set<String>?, drop: Set<String> = []) throws
        -> (records: [String: BuildManifest.FileRecord], changed: [String]) {
        try files.forEach { try Self.checkPath($0.path) }
        try checkOutputDirectory()
        let root = resolvedOutput
        clearTheWay(for: files, previous: previous, root: root)
        let failures = DiagnosticCollector()
        // (path, record, temporary file to rename over it or nil when the file is unchanged)
        let results = ParallelMap.map(files) { file -> (String, BuildManifest.FileRecord, String?)? in
            failures.attempt { () throws -> (String, BuildManifest.FileRecord, String?)? in
                let data = try Self.contents(of: file)
                let digest = StableDigest.ofOutput(data)
                if let old = previous[file.path], old.digest == digest, old.size == data.count {
                    return (file.path, old, nil)
                }
                let target = root + "/" + file.path
                let folder = PathText.folder(target)
                try Self.createFolders(folder)
                let temporary = folder + "/.tessera-" + UUID().uuidString
                guard var record = try Self.write(data, to: temporary, recording: true) else { return nil }
                record.digest = digest
                return (file.path, record, temporary)
            } ?? nil
        }
        let pending = results.compactMap { $0?.2 }
        guard !failures.hasErrors else {
            pending.forEach { unlink($0) }
            try failures.throwIfErrors()
            return ([:], [])
        }
        var records: [String: BuildManifest.FileRecord] = [:]
        var changed: [String] = []
        for case (let path, var record, let temporary)? in results {
            defer { records[path] = record }
            guard let temporary else { continue }
            guard rename(temporary, root + "/" + path) == 0 else {
                let failure = Self.writeError("cannot replace", root + "/" + path)
                pending.forEach { unlink($0) }
                throw failure
            }
            // The rename set the file's change time: the record is what the next check will see.
            var info = stat()
            if lstat(root + "/" + path, &info) == 0 { record.changed = BuildManifest.FileRecord.from(info).changed }
            changed.append(path)
        }
        if let keep {
            changed += removeStale(previous.keys.filter { records[$0] == nil && !keep.contains($0) }, root: root)
        } else if !drop.isEmpty {
            changed += removeStale(drop.filter { records[$0] == nil && previous[$0] != nil }, root: root)
        }
        return (records, changed.sorted())
    }

    /// A new path where the last build had a file that is now a folder on the way (an asset
    /// `a` replaced by a folder `a/` of pages), or a folder where a file now goes: what stands in
    /// the way is the last build's and stale (a path is never both), so it goes before the new
    /// files are written instead of after, which the writes could not wait for. Only new paths
    /// (few: pages added or moved) are looked at.
    private func clearTheWay(for files: [OutputFile], previous: [String: BuildManifest.FileRecord], root: String) {
        for file in files where previous[file.path] == nil {
            var folder = file.path
            while folder.utf8.contains(UInt8(ascii: "/")) {
                folder = PathText.folder(folder)
                if previous[folder] != nil { unlink(root + "/" + folder) }
            }
            guard FileTree.isDirectory(root + "/" + file.path) else { continue }
            let below = file.path + "/"
            _ = removeStale(previous.keys.filter { $0.hasPrefix(below) }, root: root)
            rmdir(root + "/" + file.path)
        }
    }

    /// Removes files a build no longer writes, and the folders they leave empty; returns them.
    private func removeStale<Paths: Sequence>(_ paths: Paths, root: String) -> [String] where Paths.Element == String {
        let stale = paths.sorted()
        for path in stale {
            unlink(root + "/" + path)
            removeEmptyFolders(above: root + "/" + path, root: root)
        }
        return stale
    }

    private func removeEmptyFolders(above path: String, root: String) {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > root.count, (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true {
            rmdir(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
    }
}
