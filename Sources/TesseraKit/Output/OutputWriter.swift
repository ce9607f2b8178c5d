#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes a built site so that a failed or interrupted build never leaves a half-written output:
/// everything goes into a staging folder beside the output, which then takes its place in one
/// atomic exchange. The output folder is checked first: it may never be, hold or lie inside the
/// site's own files, and a non-empty folder Tessera did not create is replaced only with `--force`.
struct OutputWriter {
    var outputDirectory: String
    var siteDirectory: String
    /// Folders of the site that are input (content/, the theme, the site's overrides).
    var sourceFolders: [String] = []
    /// Replace a non-empty folder that holds no Tessera marker.
    var force = false
    /// Where the output folder was configured (`output:` in site.yml); nil for `--output`.
    var configuredAt: SourceLocation? = nil

    /// The file that marks a folder as Tessera's output, so a later build may replace it.
    static let markerName = ".tessera-output"
    static let markerText = "This folder is built by Tessera and replaced on every build; do not keep your own files here.\n"

    /// The output folder as an absolute path with symbolic links resolved, as far as it exists.
    var resolvedOutput: String { Self.resolve(outputDirectory) }

    /// The output folder as messages name it: relative to the site when it lies there.
    var displayedOutput: String { Diagnostic.displayPath(outputDirectory, relativeTo: siteDirectory) }

    /// Repairs what a killed build left: its staging folder goes, and an output it had moved
    /// aside and never replaced comes back. Runs before a build reads anything.
    func recoverInterruptedBuilds() throws {
        try StagingFolders(output: resolvedOutput).recover()
    }

    /// Refuses output folders whose replacement would destroy anything but a previous output.
    func checkOutputDirectory() throws {
        let output = resolvedOutput
        let site = Self.resolve(siteDirectory)
        let location = configuredAt
        func refuse(_ reason: String) -> TesseraError {
            TesseraError(
                "refusing to use \(displayedOutput) as the output folder: \(reason)", at: location,
                hint: "the output folder is replaced on every build; choose a folder of its own, such as public/")
        }
        if output == "/" || output == site || Self.isInside(site, output) {
            throw refuse("it holds the site itself")
        }
        for source in sourceFolders.map(Self.resolve) {
            if output == source || Self.isInside(output, source) || Self.isInside(source, output) {
                throw refuse("it is or holds the site's source folder \(Diagnostic.displayPath(source, relativeTo: site))")
            }
        }
        if FileManager.default.fileExists(atPath: output + "/site.yml") || FileTree.isDirectory(output + "/content") {
            throw refuse("it holds a site (site.yml or content/)")
        }
        var info = stat()
        if lstat(output, &info) == 0 && info.st_mode & S_IFMT != S_IFDIR {
            throw refuse("it is a file, not a folder")
        }
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: output)) ?? []
        if !entries.isEmpty && !entries.contains(Self.markerName) && !force {
            throw TesseraError(
                "refusing to replace \(displayedOutput): it holds files Tessera did not write (\(entries.sorted().prefix(3).joined(separator: ", "))\(entries.count > 3 ? ", …" : ""))",
                at: location,
                hint: "choose an empty or new folder, or pass --force to replace this one and everything in it")
        }
    }

    /// `path` made absolute and standardized, with symbolic links resolved as far as it exists.
    static func resolve(_ path: String) -> String {
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        if let real = FileTree.realPath(standard) { return real }
        let parent = (standard as NSString).deletingLastPathComponent
        guard parent != standard else { return standard }
        return (resolve(parent) as NSString).appendingPathComponent((standard as NSString).lastPathComponent)
    }

    /// True when `path` lies strictly below `folder`.
    static func isInside(_ path: String, _ folder: String) -> Bool {
        path.hasPrefix(folder == "/" ? "/" : folder + "/") && path != folder
    }

    /// Every output path must stay inside the output folder, whatever content or configuration
    /// produced it.
    static func checkPath(_ path: String) throws {
        guard staysInside(path) else {
            throw TesseraError("refusing to write '\(path)': the path would leave the output folder", hint: "check the slugs, language codes and file names that make this path")
        }
    }

    /// True for a relative path of non-empty segments, none `.` or `..`, without NUL or `\`
    /// (read byte by byte: every output file of every build goes through here).
    static func staysInside(_ path: String) -> Bool {
        var length = 0, dots = 0
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "/"):
                guard length > 0, dots != length || length > 2 else { return false }
                length = 0
                dots = 0
                continue
            case 0, UInt8(ascii: "\\"): return false
            case UInt8(ascii: "."): dots += 1
            default: break
            }
            length += 1
        }
        return length > 0 && (dots != length || length > 2)
    }

    /// Writes one file with plain POSIX calls.
    static func write(_ file: OutputFile, to path: String) throws {
        try write(try contents(of: file), to: path, recording: false)
    }

    /// The bytes of a file to write: its data, or the file it copies.
    static func contents(of file: OutputFile) throws -> Data {
        switch file.contents {
        case .data(let bytes): return bytes
        case .written:
            throw TesseraError("internal error: \(file.path) was written to a folder that is not the one being written", hint: "report this, with the command that failed")
        case .copy(let source):
            guard let bytes = FileManager.default.contents(atPath: source) else {
                throw TesseraError("cannot read this file: \(FileTree.systemReason())", at: SourceLocation(file: source), hint: "check that the file is readable")
            }
            return bytes
        }
    }

    /// Writes `data` to `path`; with `recording`, returns what `stat` and a digest say of the
    /// file written, for the build cache.
    @discardableResult
    static func write(_ data: Data, to path: String, recording: Bool) throws -> BuildManifest.FileRecord? {
        try write(data, to: path, in: (AT_FDCWD, path), recording: recording)
    }

    /// `write(_:to:recording:)` with the path looked up from a folder's handle (`relative` in it):
    /// a short path is a short walk, and a build opens every file it writes. `path` names it in
    /// messages.
    static func write(_ data: Data, to path: @autoclosure () -> String, in folder: (handle: Int32, relative: String), recording: Bool) throws -> BuildManifest.FileRecord? {
        let descriptor = openat(folder.handle, folder.relative, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw writeError("cannot create", path()) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = Foundation.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
                guard written > 0 else { throw writeError("cannot write", path()) }
                offset += written
            }
        }
        guard recording else { return nil }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw writeError("cannot read back", path()) }
        var record = BuildManifest.FileRecord.from(info)
        record.digest = StableDigest.ofOutput(data)
        return record
    }

    /// `mkdir -p`, with the system's reason for the first folder that cannot be made.
    static func createFolders(_ path: String) throws {
        var current = ""
        for component in path.split(separator: "/") {
            current += "/" + component
            if mkdir(current, 0o755) == 0 { continue }
            let failure = errno
            if failure == EEXIST && FileTree.isDirectory(current) { continue }
            errno = failure == EEXIST ? ENOTDIR : failure
            throw writeError("cannot create the folder", current)
        }
    }

    static func writeError(_ what: String, _ path: String) -> TesseraError {
        // Not located at `path`: a file of the output is never the source of a problem.
        TesseraError("\(what) \(path): \(FileTree.systemReason())",
                     hint: "check that the disk has room and the folder is writable; the previous output was left as it was")
    }

    /// Builds a new output folder and swaps it in; with `recording`, returns what each file is
    /// on disk (for the build cache).
    @discardableResult
    func write(_ files: [OutputFile], recording: Bool = false) throws -> [String: BuildManifest.FileRecord] {
        try files.forEach { try Self.checkPath($0.path) }
        return try StagedOutput(writer: self, recording: recording).finish(files)
    }
}
