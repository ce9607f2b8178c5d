import Foundation

extension OutputWriter {
    /// Brings the output folder up to date in place: writes the files whose bytes (or copied
    /// source) changed since the last update, removes the files no longer built, and returns the
    /// paths it touched. Each file is written to a temporary name and renamed, so a server reading
    /// the folder never sees half a file.
    func update(_ files: [OutputFile], cache: BuildCache) throws -> [String] {
        try checkOutputDirectory()
        let fm = FileManager.default
        let root = URL(fileURLWithPath: outputDirectory).standardizedFileURL.path
        try fm.createDirectory(atPath: root, withIntermediateDirectories: true)
        var previous = cache.written
        if previous.isEmpty {
            // A folder we did not write: start from nothing so no stale file survives.
            for name in (try? fm.contentsOfDirectory(atPath: root)) ?? [] {
                try fm.removeItem(atPath: root + "/" + name)
            }
        }
        var current: [String: BuildCache.WrittenFile] = [:]
        var changed: [String] = []
        do {
            for file in files {
                let record: BuildCache.WrittenFile
                switch file.contents {
                case .data(let data): record = .data(data)
                case .copy(let source):
                    let attributes = try fm.attributesOfItem(atPath: source)
                    record = .copy(source: source, size: (attributes[.size] as? Int) ?? -1, modified: (attributes[.modificationDate] as? Date) ?? .distantPast)
                }
                current[file.path] = record
                guard previous.removeValue(forKey: file.path) != record else { continue }
                let target = root + "/" + file.path
                try fm.createDirectory(atPath: (target as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                let temporary = (target as NSString).deletingLastPathComponent + "/.tessera-" + UUID().uuidString
                switch file.contents {
                case .data(let data): try data.write(to: URL(fileURLWithPath: temporary))
                case .copy(let source): try fm.copyItem(atPath: source, toPath: temporary)
                }
                guard rename(temporary, target) == 0 else {
                    try? fm.removeItem(atPath: temporary)
                    throw TesseraError("could not write \(target)", hint: "check that the output folder is writable")
                }
                changed.append(file.path)
            }
            for stale in previous.keys.sorted() {
                try? fm.removeItem(atPath: root + "/" + stale)
                removeEmptyFolders(above: root + "/" + stale, root: root)
                changed.append(stale)
            }
        } catch {
            // Force a clean rewrite next time: the folder may now be partly updated.
            cache.written = [:]
            throw TesseraError.wrapping(error, at: SourceLocation(file: outputDirectory))
        }
        cache.written = current
        return changed.sorted()
    }

    private func removeEmptyFolders(above path: String, root: String) {
        var folder = (path as NSString).deletingLastPathComponent
        while folder.count > root.count, (try? FileManager.default.contentsOfDirectory(atPath: folder))?.isEmpty == true {
            try? FileManager.default.removeItem(atPath: folder)
            folder = (folder as NSString).deletingLastPathComponent
        }
    }
}
