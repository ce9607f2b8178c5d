#if canImport(Glibc)
import Glibc
#endif
import Foundation
import TesseraKit

/// Watches a site's input folders with inotify and reports batches of changed paths.
///
/// One watch per folder (inotify is not recursive); folders created later are watched as they
/// appear. Events are debounced: a batch is delivered once the tree has been quiet for `quiet`
/// (editors' atomic saves write, rename and delete in quick succession), and hidden files,
/// editor swap and backup files never count.
public final class SiteWatcher: @unchecked Sendable {
    /// Folders of a site that hold input, watched recursively when they exist.
    /// The site's own template folders are the theme's (`Theme.Folder`), `markdown/` among them.
    public static let inputFolders = ["content", "themes"] + Theme.Folder.allCases.map(\.rawValue) + ["data"]

    private let siteDirectory: String
    private let quiet: Duration
    private let descriptor: Int32
    private var folders: [Int32: String] = [:]
    private let lock = NSLock()
    private var stopped = false

    public init(siteDirectory: String, quiet: Duration = .milliseconds(20)) throws {
        self.siteDirectory = siteDirectory
        self.quiet = quiet
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else {
            throw TesseraError("cannot watch files: inotify is unavailable (\(String(cString: strerror(errno))))", hint: "raise fs.inotify.max_user_instances, or use `tessera build` and a static server")
        }
        // The site folder itself, not recursively: site.yml, and input folders created later.
        addWatch(siteDirectory)
        for folder in Self.inputFolders where FileManager.default.fileExists(atPath: siteDirectory + "/" + folder) {
            addRecursively(siteDirectory + "/" + folder)
        }
    }

    deinit { close(descriptor) }

    /// Number of folders watched.
    public var watchCount: Int { lock.withLock { folders.count } }

    public func stop() { lock.withLock { stopped = true } }

    /// Batches of changed file paths, until `stop()` or the task is cancelled. A batch holding
    /// the site folder itself means events were lost: anything may have changed.
    public func changes() -> AsyncStream<Set<String>> {
        AsyncStream { continuation in
            let thread = Thread { [self] in
                var pending = Set<String>()
                var createdInBatch = Set<String>()
                var lastEvent = ContinuousClock.now
                while !lock.withLock({ stopped }) {
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    // Wake when the batch's quiet time is up, not at the next tick: the rebuild
                    // starts as soon as the tree is quiet.
                    var wait = 50
                    if !pending.isEmpty {
                        let left = quiet - (ContinuousClock.now - lastEvent)
                        wait = max(0, min(50, Int((Double(left.components.attoseconds) / 1e15).rounded(.up)) + Int(left.components.seconds) * 1000))
                    }
                    let ready = poll(&poller, 1, Int32(wait))
                    if ready > 0 {
                        let (paths, created) = readEvents()
                        if !paths.isEmpty {
                            pending.formUnion(paths)
                            createdInBatch.formUnion(created)
                            lastEvent = .now
                        }
                    }
                    if !pending.isEmpty, ContinuousClock.now - lastEvent >= quiet {
                        // A file made and removed within one batch is some tool's temporary file
                        // (sed -i, an editor's backup): it changed nothing.
                        let transient = createdInBatch.filter { !FileManager.default.fileExists(atPath: $0) }
                        let batch = pending.subtracting(transient)
                        if !batch.isEmpty { continuation.yield(batch) }
                        pending.removeAll()
                        createdInBatch.removeAll()
                    }
                }
                continuation.finish()
            }
            thread.name = "tessera-watcher"
            continuation.onTermination = { [weak self] _ in self?.stop() }
            thread.start()
        }
    }

    private func addWatch(_ path: String) {
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_DELETE_SELF | IN_MODIFY | IN_ATTRIB)
        let wd = inotify_add_watch(descriptor, path, mask)
        if wd >= 0 { lock.withLock { folders[wd] = path } }
    }

    private func addRecursively(_ path: String) {
        addWatch(path)
        guard let enumerator = FileManager.default.enumerator(atPath: path) else { return }
        while let relative = enumerator.nextObject() as? String {
            let name = (relative as NSString).lastPathComponent
            guard (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory else { continue }
            if name.hasPrefix(".") { enumerator.skipDescendants(); continue }
            addWatch(path + "/" + relative)
        }
    }

    /// Reads every queued event; returns the paths that count as site changes, and those of them
    /// that were created.
    private func readEvents() -> (changed: Set<String>, created: Set<String>) {
        var changed = Set<String>(), created = Set<String>()
        let size = 64 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: size, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(descriptor, buffer, size)
            guard count > 0 else { break }
            var offset = 0
            while offset < count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer.advanced(by: offset + MemoryLayout<inotify_event>.size)
                let name = event.len > 0 ? String(cString: nameStart.assumingMemoryBound(to: CChar.self)) : ""
                offset += MemoryLayout<inotify_event>.size + Int(event.len)
                if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
                    // Events were lost: the batch says the whole site may have changed.
                    changed.insert(siteDirectory)
                    continue
                }
                guard let folder = lock.withLock({ folders[event.wd] }) else { continue }
                if event.mask & UInt32(IN_DELETE_SELF) != 0 {
                    _ = lock.withLock { folders.removeValue(forKey: event.wd) }
                    continue
                }
                guard !name.isEmpty, !Self.isIgnored(name) else { continue }
                let path = folder + "/" + name
                let isFolder = event.mask & UInt32(IN_ISDIR) != 0
                if folder == siteDirectory {
                    // At the top, only site.yml and the input folders matter (not public/).
                    guard name == "site.yml" || Self.inputFolders.contains(name) else { continue }
                }
                if isFolder && event.mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
                    addRecursively(path)
                }
                if event.mask & UInt32(IN_CREATE) != 0 { created.insert(path) }
                changed.insert(path)
            }
        }
        return (changed, created)
    }

    /// The same names a build ignores.
    static func isIgnored(_ name: String) -> Bool { FileTree.isIgnored(name) }
}
