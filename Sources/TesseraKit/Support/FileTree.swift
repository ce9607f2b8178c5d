#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Lists and reads the files below a folder, the way every Tessera input folder is read:
/// recursively, sorted (same input, same output), without hidden files or editors' temporary
/// files, and refusing what a build must not follow: symbolic-link loops, links out of the site,
/// FIFOs and devices, unreadable folders. Every refusal is a diagnostic naming the path.
public enum FileTree {
    /// The files below `directory`, relative with `/` separators.
    ///
    /// - Parameters:
    ///   - boundary: symbolic links must lead to a path below this folder (the site); nil
    ///     follows links anywhere (the site opted in with `allowExternalSymlinks`).
    ///   - problems: receives one diagnostic per path that cannot be read or followed.
    static func files(in directory: String, boundary: String?, problems: DiagnosticCollector) -> [String] {
        guard isDirectory(directory) else { return [] }
        let boundaryReal = boundary.flatMap(realPath)
        var result: [String] = []
        // Each pending folder carries the real paths of the folders above it, to find loops.
        var pending: [(path: String, relative: String, ancestors: Set<String>)] = [
            (directory, "", Set([realPath(directory) ?? directory])),
        ]
        while let folder = pending.popLast() {
            guard let handle = opendir(folder.path) else {
                problems.report(Diagnostic(.error, "cannot read this folder: \(systemReason())", at: SourceLocation(file: folder.path), hint: "check its permissions (`chmod u+rx`), or move it out of the site"))
                continue
            }
            var names: [String] = []
            while let entry = readdir(handle) {
                let name = withUnsafePointer(to: entry.pointee.d_name) {
                    $0.withMemoryRebound(to: CChar.self, capacity: Int(NAME_MAX) + 1) { String(cString: $0) }
                }
                if name != "." && name != ".." && !isIgnored(name) { names.append(name) }
            }
            closedir(handle)
            for name in names {
                let path = folder.path + "/" + name
                let relative = folder.relative.isEmpty ? name : folder.relative + "/" + name
                let location = SourceLocation(file: path)
                // A name becomes a URL, a link and a line of the sitemap.
                if let control = ControlCharacters.first(in: name) {
                    problems.report(Diagnostic(
                        .error, "this name holds the control character \(ControlCharacters.name(control)), which URLs, HTML and feeds cannot carry",
                        at: location, hint: "rename it without the control character"))
                    continue
                }
                var info = stat()
                guard lstat(path, &info) == 0 else {
                    problems.report(Diagnostic(.error, "cannot read this file: \(systemReason())", at: location, hint: "check its permissions"))
                    continue
                }
                var kind = info.st_mode & S_IFMT
                var real = path
                if kind == S_IFLNK {
                    guard let target = realPath(path) else {
                        let loop = errno == ELOOP
                        problems.report(Diagnostic(
                            .error, loop ? "symbolic link loop at \(relative)" : "broken symbolic link: \(relative) leads nowhere",
                            at: location, hint: loop ? "the link leads back to itself; remove it or point it at a real file" : "remove the link or restore its target"))
                        continue
                    }
                    if let boundaryReal, target != boundaryReal, !target.hasPrefix(boundaryReal + "/") {
                        problems.report(Diagnostic(
                            .error, "symbolic link \(relative) leads outside the site, to \(target)", at: location,
                            hint: "copy the file into the site, or set `allowExternalSymlinks: true` in site.yml if you trust where it leads"))
                        continue
                    }
                    guard stat(path, &info) == 0 else {
                        problems.report(Diagnostic(.error, "cannot read this file: \(systemReason())", at: location, hint: "check its permissions"))
                        continue
                    }
                    kind = info.st_mode & S_IFMT
                    real = target
                }
                switch kind {
                case S_IFDIR:
                    let key = realPath(real) ?? real
                    guard !folder.ancestors.contains(key) else {
                        problems.report(Diagnostic(
                            .error, "symbolic link loop: \(relative) leads back to a folder that holds it", at: location,
                            hint: "remove the link; a site must not contain itself"))
                        continue
                    }
                    pending.append((path, relative, folder.ancestors.union([key])))
                case S_IFREG:
                    result.append(relative)
                default:
                    problems.report(Diagnostic(
                        .error, "\(relative) is \(describe(kind)), not a regular file", at: location,
                        hint: "Tessera reads only files and folders; move it out of the site"))
                }
            }
        }
        return result.sorted()
    }

    /// Hidden files, editor backups, swap files and vim's write-test file `4913` never count as
    /// site input, for a build or for the watcher of `tessera serve`.
    public static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#") || name.hasSuffix(".swp")
            || name.hasSuffix(".swx") || name.hasSuffix(".tmp") || name == "4913"
    }

    /// Writes new files below `directory` (paths relative to it, folders made as needed) for
    /// `tessera new`, `new theme` and `theme eject`. Refuses before writing anything when one of
    /// them exists: Tessera never replaces a file of the user's.
    static func writeNewFiles(_ files: [(path: String, data: Data)], below directory: String) throws -> [String] {
        let fm = FileManager.default
        if let existing = files.first(where: { fm.fileExists(atPath: directory + "/" + $0.path) }) {
            throw TesseraError("\(directory)/\(existing.path) already exists", hint: "move it away first; Tessera never replaces a file of yours")
        }
        for file in files {
            let path = directory + "/" + file.path
            try fm.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            guard fm.createFile(atPath: path, contents: file.data) else {
                throw TesseraError("could not write \(path)", hint: "check that the folder is writable")
            }
        }
        return files.map(\.path)
    }

    static func isRegularFile(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
    }

    static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFDIR
    }

    /// The text of an input file, normalized so every later stage sees one form: no byte-order
    /// mark, `\n` line ends (CRLF and lone CR files give the same output as LF ones).
    static func readText(_ path: String) throws -> String {
        try decode(try readData(path), file: path)
    }

    /// A regular file's bytes, refusing anything else (a FIFO would block).
    static func readData(_ path: String) throws -> Data {
        let location = SourceLocation(file: path)
        // Not blocking on open: a FIFO is refused below instead of waiting for a writer.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else {
            let denied = errno == EACCES
            throw TesseraError("cannot read this file: \(systemReason())", at: location, hint: denied ? "check its permissions (`chmod u+r`)" : "check that it exists and is readable")
        }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw TesseraError("cannot read this file: \(systemReason())", at: location, hint: "check that it exists and is readable")
        }
        // Reading a FIFO or a device would block or never end.
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw TesseraError("this is \(describe(info.st_mode & S_IFMT)), not a regular file", at: location, hint: "Tessera reads only regular files")
        }
        // One read of the size `stat` gave, and more if the file grew meanwhile.
        var data = Data(count: Int(info.st_size) + 1)
        var length = 0
        while true {
            if length == data.count { data.count += max(4096, data.count) }
            let count = data.withUnsafeMutableBytes { buffer in
                read(descriptor, buffer.baseAddress! + length, buffer.count - length)
            }
            if count < 0 && errno == EINTR { continue }
            guard count >= 0 else {
                throw TesseraError("cannot read this file: \(systemReason())", at: location, hint: "check its permissions (`chmod u+r`)")
            }
            if count == 0 { break }
            length += count
        }
        data.count = length
        return data
    }

    /// Writes all of `bytes` to an open file; false when the system refuses (a full disk).
    static func write(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) -> Bool {
        var done = 0
        while done < bytes.count {
            let count = Glibc.write(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return false }
            done += count
        }
        return true
    }

    static func write(_ bytes: [UInt8], to descriptor: Int32) -> Bool {
        bytes.withUnsafeBytes { write($0, to: descriptor) }
    }

    /// UTF-8 bytes to normalized text; invalid UTF-8 is an error at its line and column.
    static func decode(_ data: Data, file: String) throws -> String {
        // The common case, UTF-8 with LF line ends and no byte-order mark, without a copy.
        let plain = data.withUnsafeBytes { raw -> String? in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !bytes.starts(with: [0xEF, 0xBB, 0xBF]), !containsByte(13, UnsafeRawBufferPointer(bytes)),
                  ControlCharacters.firstOffset(in: bytes) == nil else { return nil }
            return String(validating: bytes, as: UTF8.self)
        }
        if let plain { return plain }
        var bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes.removeFirst(3) }
        if bytes.contains(13) {
            var normalized: [UInt8] = []
            normalized.reserveCapacity(bytes.count)
            for (index, byte) in bytes.enumerated() {
                if byte == 13 {
                    if index + 1 < bytes.count && bytes[index + 1] == 10 { continue }
                    normalized.append(10)
                } else {
                    normalized.append(byte)
                }
            }
            bytes = normalized
        }
        if let text = String(validating: bytes, as: UTF8.self) {
            try refuseControlCharacters(bytes, file: file)
            return text
        }
        var parser = Unicode.UTF8.ForwardParser()
        var iterator = bytes.makeIterator()
        var offset = 0
        while case .valid(let scalar) = parser.parseScalar(from: &iterator) { offset += scalar.count }
        // Line endings are LF by now (CRLF and CR were normalized above).
        var line = 1, lineStart = 0, index = 0
        while index < offset {
            if bytes[index] == 10 || (bytes[index] == 13 && (index + 1 >= bytes.count || bytes[index + 1] != 10)) {
                line += 1
                lineStart = index + 1
            }
            index += 1
        }
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        throw TesseraError(
            "this file is not valid UTF-8 (byte 0x\(String(bytes[offset], radix: 16, uppercase: true)))",
            at: SourceLocation(file: file, line: line, column: column), hint: "save the file with UTF-8 encoding")
    }

    /// Throws at the line and column of the first control character of valid UTF-8 `bytes`.
    private static func refuseControlCharacters(_ bytes: [UInt8], file: String) throws {
        guard let offset = bytes.withUnsafeBufferPointer(ControlCharacters.firstOffset) else { return }
        let lineStart = bytes[..<offset].lastIndex(of: 10).map { $0 + 1 } ?? 0
        let line = bytes[..<offset].count { $0 == 10 } + 1
        let column = String(decoding: bytes[lineStart..<offset], as: UTF8.self).count + 1
        let scalar = String(decoding: bytes[offset...].prefix(2), as: UTF8.self).unicodeScalars.first!
        throw ControlCharacters.error(scalar, at: SourceLocation(file: file, line: line, column: column))
    }

    /// Whether `byte` occurs in `bytes` (`memchr`: a large file's scan is the copy's speed).
    static func containsByte(_ byte: UInt8, _ bytes: UnsafeRawBufferPointer) -> Bool {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return false }
        return memchr(base, Int32(byte), bytes.count) != nil
    }

    /// The canonical absolute path, symbolic links resolved; nil when it cannot be resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    static func systemReason() -> String {
        String(cString: strerror(errno))
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFIFO: return "a FIFO (named pipe)"
        case S_IFSOCK: return "a socket"
        case S_IFCHR: return "a character device"
        case S_IFBLK: return "a block device"
        case S_IFDIR: return "a folder"
        default: return "a special file"
        }
    }
}
