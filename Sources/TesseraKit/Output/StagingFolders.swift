#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// The folders a build keeps beside its output while it runs, and how they replace it.
///
/// A build writes into `.tessera-build-<output>-<pid>-<n>` and exchanges it with the output in one
/// `renameat2(RENAME_EXCHANGE)`, so the output is always either the whole old site or the whole
/// new one. Where the exchange is unsupported, the old output is first renamed to
/// `.tessera-old-<output>-<pid>-<n>`; a build killed between the two renames is repaired by the
/// next one, which puts that folder back before doing anything else.
struct StagingFolders {
    let output: String
    var parent: String { (output as NSString).deletingLastPathComponent }
    var base: String { (output as NSString).lastPathComponent }

    private var buildPrefix: String { ".tessera-build-\(base)-" }
    private var oldPrefix: String { ".tessera-old-\(base)-" }

    func newStagingPath() -> String {
        parent + "/" + buildPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
    }

    /// Cleans up after builds that were killed: removes their staging folders and restores an
    /// output that was moved aside and never replaced. Folders of builds still running are left.
    func recover() throws {
        let entries = ((try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []).sorted()
        for name in entries {
            let isOld = name.hasPrefix(oldPrefix)
            guard isOld || name.hasPrefix(buildPrefix) else { continue }
            let owner = name.dropFirst(isOld ? oldPrefix.count : buildPrefix.count).split(separator: "-").first.flatMap { Int32($0) }
            guard let owner, owner == getpid() || !Self.isRunning(owner) else { continue }
            let path = parent + "/" + name
            if isOld && !exists(output) {
                guard rename(path, output) == 0 else { throw OutputWriter.writeError("cannot restore the previous output from", path) }
            } else {
                FolderRemoval.remove(path)
            }
        }
    }

    /// Puts `folder` in the output's place; the previous output is removed.
    func swapIn(_ folder: String) throws {
        guard exists(output) else {
            guard rename(folder, output) == 0 else { throw OutputWriter.writeError("cannot move the new site to", output) }
            return
        }
        if Self.exchange(folder, output) {
            FolderRemoval.remove(folder) // now the previous output
            return
        }
        let retired = parent + "/" + oldPrefix + "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        guard rename(output, retired) == 0 else { throw OutputWriter.writeError("cannot move the previous output aside from", output) }
        guard rename(folder, output) == 0 else {
            let failure = OutputWriter.writeError("cannot move the new site to", output)
            _ = rename(retired, output)
            throw failure
        }
        FolderRemoval.remove(retired)
    }

    private func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    static func isRunning(_ pid: Int32) -> Bool {
        kill(pid, 0) == 0 || errno == EPERM
    }

    private typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    /// Linux's atomic exchange of two paths; Glibc has it but Swift's module does not export it.
    private static let renameExchange: RenameAt2? = {
        guard let symbol = dlsym(dlopen(nil, RTLD_NOW), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: RenameAt2.self)
    }()

    /// Exchanges two paths atomically; false where the system or file system cannot.
    static func exchange(_ a: String, _ b: String) -> Bool {
        guard let renameExchange else { return false }
        return renameExchange(AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) == 0
    }
}
