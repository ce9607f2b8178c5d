#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `images.index` in the build cache: what each image file looked like at its last `stat`, so a
/// build that finds the same size, modification and change times reads nothing of it. One line
/// per file, tab-separated; a line that does not read is left out (the file is looked at again).
enum ImageIndex {
    struct Stamp: Sendable, Equatable {
        var size: Int64, modified: Int64, changed: Int64, inode: UInt64

        init?(path: String) {
            var info = stat()
            guard stat(path, &info) == 0 else { return nil }
            size = Int64(info.st_size)
            modified = Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec)
            changed = Int64(info.st_ctim.tv_sec) * 1_000_000_000 + Int64(info.st_ctim.tv_nsec)
            inode = UInt64(info.st_ino)
        }

        init(size: Int64, modified: Int64, changed: Int64, inode: UInt64) {
            self.size = size
            self.modified = modified
            self.changed = changed
            self.inode = inode
        }
    }

    struct Entry: Sendable, Equatable {
        var stamp: Stamp
        var image: SourceImage
    }

    static let header = "tessera images 2"

    static func read(_ file: String) -> [String: Entry] {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { return [:] }
        var lines = text.split(separator: "\n")
        guard lines.first == Substring(header) else { return [:] }
        lines.removeFirst()
        var entries: [String: Entry] = [:]
        for line in lines {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard fields.count == 13, let size = Int64(fields[1]), let modified = Int64(fields[2]), let changed = Int64(fields[3]),
                  let inode = UInt64(fields[4]), let digest = UInt64(fields[5], radix: 16), let format = ImageFormat(rawValue: fields[6]),
                  let width = Int(fields[7]), let height = Int(fields[8]) else { continue }
            let image = SourceImage(
                digest: digest, format: format, width: width, height: height, hasAlpha: fields[9] == "1", animated: fields[10] == "1",
                color: fields[11].isEmpty ? nil : fields[11], preview: fields[12].isEmpty ? nil : fields[12])
            entries[fields[0]] = Entry(stamp: Stamp(size: size, modified: modified, changed: changed, inode: inode), image: image)
        }
        return entries
    }

    static func write(_ entries: [String: Entry], to file: String) {
        var text = header + "\n"
        for (path, entry) in entries.sorted(by: { $0.key < $1.key }) where !path.contains("\t") && !path.contains("\n") {
            let stamp = entry.stamp, image = entry.image
            text += [path, "\(stamp.size)", "\(stamp.modified)", "\(stamp.changed)", "\(stamp.inode)", String(image.digest, radix: 16),
                     image.format.rawValue, "\(image.width)", "\(image.height)", image.hasAlpha ? "1" : "0", image.animated ? "1" : "0",
                     image.color ?? "", image.preview ?? ""].joined(separator: "\t") + "\n"
        }
        let temporary = file + ".tmp-" + UUID().uuidString
        guard FileManager.default.createFile(atPath: temporary, contents: Data(text.utf8)) else { return }
        if rename(temporary, file) != 0 { unlink(temporary) }
    }
}
