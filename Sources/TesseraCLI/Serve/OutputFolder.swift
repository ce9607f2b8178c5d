import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The built site on disk, looked up afresh on every request because rebuilds replace it.
///
/// Every answer is checked after `realpath`: a symbolic link (or anything else) that resolves
/// outside the folder is reported as not found, exactly like a missing file, so the preview never
/// reveals what lies around the site. Only regular files are served: a FIFO or a device would block
/// or stream forever, and folders are never listed.
struct OutputFolder: Sendable {
    /// What a request path names in the output folder.
    enum Lookup: Equatable {
        /// A regular file to serve, by its resolved path.
        case file(String)
        /// A folder named without the trailing slash: redirect, so its relative links resolve.
        case folderWithoutSlash
        case notFound
        /// The output folder does not exist (yet, or for the instant of a rebuild's swap).
        case outputMissing
    }

    let path: String

    func lookUp(_ request: RequestPath) -> Lookup {
        guard let root = Self.realPath(path), Self.isDirectory(root) else { return .outputMissing }
        let candidate = request.names.isEmpty ? root : root + "/" + request.relativePath
        guard let resolved = Self.realPath(candidate), Self.isInside(resolved, root: root) else { return .notFound }
        if Self.isDirectory(resolved) {
            guard request.endsWithSlash || request.names.isEmpty else { return .folderWithoutSlash }
            guard let index = Self.realPath(resolved + "/index.html"), Self.isInside(index, root: root),
                  Self.isRegularFile(index) else { return .notFound }
            return .file(index)
        }
        // `page.html/` names a folder that is not one.
        guard Self.isRegularFile(resolved), !request.endsWithSlash else { return .notFound }
        return .file(resolved)
    }

    /// Reads a whole file off the cooperative thread pool.
    ///
    /// Reading all of it at once gives one consistent snapshot even when a rebuild swaps the file
    /// mid-response, and HTML needs the whole text anyway to inject the live-reload script. Preview
    /// sites are small; this is not a server for large media.
    func read(_ resolvedPath: String) async -> Data? {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async {
                continuation.resume(returning: FileManager.default.contents(atPath: resolvedPath))
            }
        }
    }

    static func isInside(_ resolved: String, root: String) -> Bool {
        if resolved == root { return true }
        return resolved.hasPrefix(root.hasSuffix("/") ? root : root + "/")
    }

    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    private static func fileType(_ path: String) -> FileAttributeType? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.type] as? FileAttributeType
    }

    private static func isDirectory(_ path: String) -> Bool { fileType(path) == .typeDirectory }

    private static func isRegularFile(_ path: String) -> Bool { fileType(path) == .typeRegular }
}
