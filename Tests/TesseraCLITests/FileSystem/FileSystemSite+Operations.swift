#if canImport(Glibc)
import Glibc
#endif
import Foundation

extension FileSystemSite {
    /// Applies one random file system operation and returns its description. Operations reach
    /// content, static and data files and folders, and `site.yml`.
    func randomOperation(_ random: inout SplitMix64) throws -> String {
        let all = entries()
        let files = all.filter { kind($0) == S_IFREG }
        let pages = files.filter { $0.hasSuffix(".md") || $0.hasSuffix(".yml") && $0.hasPrefix("content/") }
        let folders = all.filter { kind($0) == S_IFDIR } + ["content", "static", "data"]
        func pick(_ list: [String]) -> String? { list.isEmpty ? nil : list[Int(random.next() % UInt64(list.count))] }
        let number = random.next() % 1000
        let fm = FileManager.default
        switch random.next() % 24 {
        case 0, 1:
            guard let page = pick(pages) else { return "nothing" }
            try append(page, "\nMore words \(number).\n")
            return "append to \(page)"
        case 2:
            // Same size and the old times, as `touch -r` leaves it: only the change time shows it.
            guard let file = pick(files), let old = times(file), var bytes = fm.contents(atPath: path(file)), let last = bytes.lastIndex(where: { (97...122).contains($0) }) else { return "nothing" }
            bytes[last] = bytes[last] == 122 ? 97 : bytes[last] + 1
            try bytes.write(to: URL(fileURLWithPath: path(file)))
            setTimes(path(file), old)
            return "rewrite \(file) keeping its size and times"
        case 3:
            // `cp -a`: another file's bytes and times.
            guard let file = pick(files), let source = pick(files.filter { $0 != file }), let old = times(source) else { return "nothing" }
            try fm.contents(atPath: path(source))!.write(to: URL(fileURLWithPath: path(file)))
            setTimes(path(file), old)
            return "cp -a \(source) over \(file)"
        case 4:
            // `git checkout`: a new file renamed over the old one, with the old modification time.
            guard let file = pick(files), let old = times(file) else { return "nothing" }
            let temporary = outside + "/checkout-\(number)"
            try Data("---\ntitle: Checked out \(number)\n---\nFrom another branch.\n".utf8).write(to: URL(fileURLWithPath: temporary))
            setTimes(temporary, old)
            guard rename(temporary, path(file)) == 0 else { return "nothing" }
            return "check out \(file) with its old time"
        case 5, 6:
            guard let folder = pick(folders.filter { $0.hasPrefix("content") }) else { return "nothing" }
            try write(folder.dropFirst("content".count).isEmpty ? "content/new-\(number).md" : "\(folder)/new-\(number).md", "---\ntitle: New \(number)\n---\nNew page \(number).\n")
            return "create \(folder)/new-\(number).md"
        case 7:
            guard let entry = pick(all) else { return "nothing" }
            _ = try? EndToEndTests.run("/bin/rm", ["-rf", path(entry)])
            return "delete \(entry)"
        case 8:
            guard let entry = pick(all), let folder = pick(folders) else { return "nothing" }
            let target = folder + "/moved-\(number)" + (entry.hasSuffix(".md") ? ".md" : "")
            guard !target.hasPrefix(entry + "/"), rename(path(entry), path(target)) == 0 else { return "nothing" }
            return "rename \(entry) to \(target)"
        case 9:
            guard let entry = pick(all) else { return "nothing" }
            let name = (entry as NSString).lastPathComponent
            let swapped = name.first!.isUppercase ? name.prefix(1).lowercased() + name.dropFirst() : name.prefix(1).uppercased() + name.dropFirst()
            let target = (entry as NSString).deletingLastPathComponent + "/" + swapped
            guard rename(path(entry), path(target)) == 0 else { return "nothing" }
            return "rename \(entry) to \(target) (case only)"
        case 10:
            guard let folder = pick(folders.filter { $0.hasPrefix("content/") }) else { return "nothing" }
            guard rename(path(folder), outside + "/out-\(number)") == 0 else { return "nothing" }
            return "move \(folder) out of the site as out-\(number)"
        case 11:
            guard let moved = pick((try? fm.contentsOfDirectory(atPath: outside))?.filter { $0.hasPrefix("out-") } ?? []) else { return "nothing" }
            let target = "content/back-\(moved.dropFirst(4))"
            guard rename(outside + "/" + moved, path(target)) == 0 else { return "nothing" }
            return "move \(moved) back as \(target)"
        case 12:
            guard let file = pick(files), let target = pick(files.filter { $0 != file }) else { return "nothing" }
            unlink(path(file))
            symlink(relativeLink(from: file, to: target), path(file))
            return "replace \(file) with a link to \(target)"
        case 13:
            guard let file = pick(files) else { return "nothing" }
            unlink(path(file))
            mkfifo(path(file), 0o644)
            return "replace \(file) with a FIFO"
        case 14:
            guard let file = pick(files) else { return "nothing" }
            unlink(path(file))
            try write(file + "/inside.md", "---\ntitle: Inside \(number)\n---\nA folder where a file was.\n")
            return "replace \(file) with a folder"
        case 15:
            guard let folder = pick(folders) else { return "nothing" }
            symlink("loop-b-\(number)", path(folder + "/loop-a-\(number)"))
            symlink("loop-a-\(number)", path(folder + "/loop-b-\(number)"))
            return "make a link loop in \(folder)"
        case 16:
            guard let folder = pick(folders) else { return "nothing" }
            symlink(number % 2 == 0 ? "nowhere-\(number).md" : "/etc/hostname", path(folder + "/link-\(number).md"))
            return number % 2 == 0 ? "make a dangling link in \(folder)" : "make a link out of the site in \(folder)"
        case 17:
            guard let entry = pick(all.filter { kind($0) != S_IFLNK }) else { return "nothing" }
            chmod(path(entry), 0)
            return "chmod 000 \(entry)"
        case 18, 19:
            return repair()
        case 20:
            try write("site.yml", "title: Files \(number)\nbuildDate: 2026-11-22T12:00:00Z\nbaseURL: https://example.org/\n")
            return "edit site.yml"
        case 21:
            if number % 2 == 0 {
                stepClockBack()
                return "step the clock back an hour"
            }
            resetClock()
            return "set the clock right"
        default:
            return "nothing"
        }
    }

    /// Takes back what breaks a build: unreadable entries, FIFOs and links.
    func repair() -> String {
        for entry in entries() {
            switch kind(entry) {
            case S_IFLNK, S_IFIFO: unlink(path(entry))
            case S_IFDIR: chmod(path(entry), 0o755)
            default: chmod(path(entry), 0o644)
            }
        }
        return "repair (links, FIFOs and permissions)"
    }

    private func append(_ relative: String, _ text: String) throws {
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path(relative)))
        handle.seekToEndOfFile()
        handle.write(Data(text.utf8))
        try handle.close()
    }

    private func times(_ relative: String) -> timespec? {
        var info = stat()
        return lstat(path(relative), &info) == 0 ? info.st_mtim : nil
    }

    private func relativeLink(from link: String, to target: String) -> String {
        let depth = link.split(separator: "/").count - 1
        return String(repeating: "../", count: depth) + target
    }
}
