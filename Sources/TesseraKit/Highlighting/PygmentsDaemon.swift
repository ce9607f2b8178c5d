#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Workers kept for later builds: a `tessera build` leaves its workers running for
/// `PygmentsWorker.idleSeconds`, each serving one build at a time on an abstract Unix socket
/// named for the user, the Python and the worker script, so the next build (an edit's, typically)
/// starts no Python. Only the user who started a worker can use it (its peer's uid is checked on
/// both sides); a worker ends when Pygments changes on disk; anything that goes wrong falls back
/// to a worker of the build's own.
enum PygmentsDaemon {
    /// The socket of the `slot`-th worker of `python`.
    static func name(python: String, slot: Int) -> String {
        var digest = StableDigest()
        digest.combine(python)
        digest.combine(PygmentsWorker.scriptVersion)
        return "tessera-pygments-\(getuid())-\(String(digest.value, radix: 16))-\(slot)"
    }

    /// A worker of the `slot`-th kept Python, started first when none listens; nil when none can
    /// be reached.
    static func worker(python: String, slot: Int) -> PygmentsWorker? {
        let name = name(python: python, slot: slot)
        if let descriptor = connect(name) { return try? PygmentsWorker(socket: descriptor, within: 0.25) }
        let process = PygmentsWorker.process(python: python, arguments: [name])
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        process.currentDirectoryURL = URL(fileURLWithPath: "/")
        guard (try? process.run()) != nil else { return nil }
        // It listens once Pygments is imported: a few tens of milliseconds.
        for _ in 0..<400 {
            if let descriptor = connect(name) { return try? PygmentsWorker(socket: descriptor, within: 2) }
            if !process.isRunning { return nil }
            usleep(5_000)
        }
        return nil
    }

    /// A connected socket to `name`, when a worker of this user listens there.
    static func connect(_ name: String) -> Int32? {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(name.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) - 1 else {
            close(descriptor)
            return nil
        }
        // An abstract name: a zero byte first, no file.
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw[0] = 0
            for (index, byte) in bytes.enumerated() { raw[index + 1] = byte }
        }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + 1 + bytes.count)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(descriptor, $0, length) }
        }
        // `struct ucred` (pid, uid, gid), which Swift's Glibc does not name.
        var credentials: (pid: Int32, uid: UInt32, gid: UInt32) = (0, 0, 0)
        var size = socklen_t(MemoryLayout.size(ofValue: credentials))
        guard connected == 0, getsockopt(descriptor, SOL_SOCKET, SO_PEERCRED, &credentials, &size) == 0, credentials.uid == getuid() else {
            close(descriptor)
            return nil
        }
        return descriptor
    }
}
