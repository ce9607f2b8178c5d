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
                case .copy(let source):
                    guard let attributes = try? fm.attributesOfItem(atPath: source) else {
                        throw TesseraError("cannot read this file: \(FileTree.systemReason())", at: SourceLocation(file: source), hint: "check that it is readable")
                    }
                    record = .copy(source: source, size: (attributes[.size] as? Int) ?? -1, modified: (attributes[.modificationDate] as? Date) ?? .distantPast)
                }
                current[file.path] = record
                guard previous.removeValue(forKey: file.path) != record else { continue }
                let target = root + "/" + file.path
                let folder = (target as NSString).deletingLastPathComponent
                do {
                    try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
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
                changed.append(file.path)
            }
            for stale in previous.keys.sorted() {
                unlink(root + "/" + stale)
                removeEmptyFolders(above: root + "/" + stale, root: root)
                changed.append(stale)
            }
        } catch {
            // Force a clean rewrite next time: the folder may now be partly updated.
            cache.written = [:]
            throw TesseraError.wrapping(error, at: configuredAt)
        }
        cache.written = current
        return changed.sorted()
    }

    private func removeEmptyFolders(above path: String, root: String) {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > root.count, (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true {
            rmdir(folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
    }
}
