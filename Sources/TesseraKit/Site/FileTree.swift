import Foundation

/// Lists the files below a folder, the way every Tessera input folder is read: recursively,
/// sorted (same input, same output), without hidden files or editors' temporary files.
public enum FileTree {
    /// Relative paths with `/` separators.
    static func files(in directory: String) -> [String] {
        let fm = FileManager.default
        var isDirectory: ObjCBool = false
        guard fm.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue,
              let enumerator = fm.enumerator(atPath: directory) else { return [] }
        var result: [String] = []
        while let path = enumerator.nextObject() as? String {
            let name = (path as NSString).lastPathComponent
            if isIgnored(name) {
                if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { enumerator.skipDescendants() }
                continue
            }
            if (enumerator.fileAttributes?[.type] as? FileAttributeType) == .typeDirectory { continue }
            result.append(path)
        }
        return result.sorted()
    }

    /// Hidden files, editor backups, swap files and vim's write-test file `4913` never count as
    /// site input, for a build or for the watcher of `tessera serve`.
    public static func isIgnored(_ name: String) -> Bool {
        name.hasPrefix(".") || name.hasSuffix("~") || name.hasPrefix("#") || name.hasSuffix(".swp")
            || name.hasSuffix(".swx") || name.hasSuffix(".tmp") || name == "4913"
    }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    static func readText(_ path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw TesseraError("cannot read this file", at: SourceLocation(file: path), hint: "check that it exists and is readable")
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw TesseraError("this file is not UTF-8 text", at: SourceLocation(file: path), hint: "save it with UTF-8 encoding")
        }
        return text
    }
}
