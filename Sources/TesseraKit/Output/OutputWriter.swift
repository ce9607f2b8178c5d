import Foundation

/// Writes a built site so that a failed or interrupted build never leaves a half-written output:
/// everything goes into a temporary folder beside the output, which then takes its place.
struct OutputWriter {
    var outputDirectory: String
    var siteDirectory: String

    /// Refuses output folders whose replacement would destroy the site itself.
    func checkOutputDirectory() throws {
        let output = URL(fileURLWithPath: outputDirectory).standardizedFileURL.path
        let site = URL(fileURLWithPath: siteDirectory).standardizedFileURL.path
        if output == "/" || output == site || site.hasPrefix(output + "/")
            || FileManager.default.fileExists(atPath: output + "/site.yml")
            || FileTree.isDirectory(output + "/content") {
            throw TesseraError(
                "refusing to use \(outputDirectory) as the output folder: it holds the site itself",
                hint: "the output folder is replaced on every build; choose a folder of its own, such as public/")
        }
    }

    func write(_ files: [OutputFile]) throws {
        try checkOutputDirectory()
        let fm = FileManager.default
        let output = URL(fileURLWithPath: outputDirectory).standardizedFileURL
        let parent = output.deletingLastPathComponent()
        try fm.createDirectory(at: parent, withIntermediateDirectories: true)
        let token = "\(ProcessInfo.processInfo.processIdentifier)-\(UInt32.random(in: 0...UInt32.max))"
        let staging = parent.appendingPathComponent(".tessera-build-\(token)")
        let retired = parent.appendingPathComponent(".tessera-old-\(token)")
        do {
            try fm.createDirectory(at: staging, withIntermediateDirectories: true)
            var made = Set<String>()
            for file in files {
                let target = staging.appendingPathComponent(file.path)
                let folder = target.deletingLastPathComponent().path
                if made.insert(folder).inserted { try fm.createDirectory(atPath: folder, withIntermediateDirectories: true) }
                switch file.contents {
                case .data(let data): try data.write(to: target)
                case .copy(let source): try fm.copyItem(atPath: source, toPath: target.path)
                }
            }
            if fm.fileExists(atPath: output.path) {
                try fm.moveItem(at: output, to: retired)
            }
            do {
                try fm.moveItem(at: staging, to: output)
            } catch {
                try? fm.moveItem(at: retired, to: output)
                throw error
            }
            try? fm.removeItem(at: retired)
        } catch {
            try? fm.removeItem(at: staging)
            throw TesseraError("could not write the output folder: \(error.localizedDescription)", at: SourceLocation(file: outputDirectory),
                               hint: "check that the folder and its parent are writable; the previous output was left as it was")
        }
    }
}
