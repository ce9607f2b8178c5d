#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What the build cache records of a tool outside Tessera (the highlighting engine,
/// `EngineStamp`; libvips, `LibraryStamp`): what it is, and the `stat` of the files that decide
/// it. While every one of those files is as recorded, a later build knows the tool without
/// starting or loading it.
protocol ToolStamp: Codable {
    /// Each file's `signature(of:)` as it was when the stamp was written.
    var files: [String: String] { get }
}

extension ToolStamp {
    /// The stamp at `path`, when it can be read and every file it names is as it recorded.
    static func read(_ path: String) -> Self? {
        guard let data = FileManager.default.contents(atPath: path), let stamp = try? JSONDecoder().decode(Self.self, from: data),
              !stamp.files.isEmpty, stamp.files.allSatisfy({ signature(of: $0.key) == $0.value }) else { return nil }
        return stamp
    }

    /// Writes the stamp through a file beside `path` renamed over it; failing costs only speed.
    func write(to path: String) {
        guard let data = try? JSONEncoder().encode(self) else { return }
        try? FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        let temporary = path + ".\(getpid()).tmp"
        if (try? data.write(to: URL(fileURLWithPath: temporary))) != nil, rename(temporary, path) != 0 { unlink(temporary) }
    }

    /// The signatures of `paths` (each once).
    static func signatures(_ paths: [String]) -> [String: String] {
        Dictionary(paths.map { ($0, signature(of: $0)) }, uniquingKeysWith: { first, _ in first })
    }

    /// A file's device, inode, size and change times, or `missing`.
    static func signature(of path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing" }
        return "\(info.st_dev):\(info.st_ino):\(info.st_size):\(info.st_mtim.tv_sec).\(info.st_mtim.tv_nsec):\(info.st_ctim.tv_sec).\(info.st_ctim.tv_nsec)"
    }
}
