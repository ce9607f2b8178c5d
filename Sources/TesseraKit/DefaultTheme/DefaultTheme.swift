import Foundation

/// The default theme, carried inside the binary: `theme: default` uses it unless the site has its
/// own `themes/default/`, so a site gets the theme's fixes with each new Tessera, and
/// `tessera theme eject` copies it for those who want to change it.
public enum DefaultTheme {
    public static let name = "default"

    /// Path below the theme folder → contents.
    public static var files: [(path: String, data: Data)] {
        encodedFiles.map { ($0.path, Data(base64Encoded: $0.base64) ?? Data()) }
    }

    /// A digest of every file, naming the unpacked copy: a new theme never reuses an old copy.
    static let digest: String = {
        var digest = StableDigest()
        for file in encodedFiles {
            digest.combine(file.path)
            digest.combine(file.base64)
        }
        return Hex.string(withUnsafeBytes(of: digest.value.bigEndian) { Array($0) })
    }()

    /// The folder the built-in theme is read from: unpacked once per theme digest below the
    /// user's cache folder (`$XDG_CACHE_HOME/tessera`, else `~/.cache/tessera`, else the temporary
    /// folder), never inside the site. A copy is used only when it is complete; it is written
    /// under a temporary name and renamed, so two builds at once never see half a theme.
    public static func installedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) throws -> String {
        var roots: [String] = []
        if let cache = environment["XDG_CACHE_HOME"], cache.hasPrefix("/") { roots.append(cache + "/tessera") }
        if let home = environment["HOME"], home.hasPrefix("/") { roots.append(home + "/.cache/tessera") }
        var temporary = NSTemporaryDirectory()
        while temporary.count > 1 && temporary.hasSuffix("/") { temporary.removeLast() }
        roots.append(temporary + "/tessera-\(getuid())")
        var lastError: Error?
        for root in roots {
            do { return try install(below: root + "/themes") } catch { lastError = error }
        }
        throw TesseraError(
            "could not unpack the built-in theme: \(lastError.map { "\($0)" } ?? "no cache folder")",
            hint: "set XDG_CACHE_HOME to a writable folder, or run `tessera theme eject` to copy the theme into the site")
    }

    static func install(below folder: String) throws -> String {
        let fm = FileManager.default
        let target = folder + "/default-" + digest
        let marker = target + "/.complete"
        if fm.fileExists(atPath: marker) { return target }
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let temporary = folder + "/.default-\(digest)-\(UUID().uuidString)"
        defer { try? fm.removeItem(atPath: temporary) }
        try write(to: temporary)
        try Data(digest.utf8).write(to: URL(fileURLWithPath: temporary + "/.complete"))
        if rename(temporary, target) != 0 {
            // Another build unpacked it first: use its copy.
            guard fm.fileExists(atPath: marker) else { throw TesseraError("could not rename \(temporary) to \(target): \(String(cString: strerror(errno)))") }
        }
        return target
    }

    /// Writes every file of the theme below `directory`, refusing to replace any file.
    @discardableResult
    public static func write(to directory: String) throws -> [String] {
        try FileTree.writeNewFiles(files, below: directory)
    }
}
