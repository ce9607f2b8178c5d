#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// A new output folder, filled while the build still renders and swapped in whole at the end.
///
/// Files handed to `add` (pages' HTML and JSON, as they are made) are written at once on a thread
/// of their own, their folders made as first needed, so the disk works while the cores render.
/// `finish` writes the rest on every core, then the marker, and swaps the folder in: until then
/// nothing is seen at the output path, and a build that fails `abandon`s the folder.
final class StagedOutput: @unchecked Sendable {
    private let writer: OutputWriter
    private let recording: Bool
    private let staging: StagingFolders
    let folder: String
    private let handle: Int32
    /// Where the output's thread is woken (a test gives one that never runs it).
    private let queue: DispatchQueue
    /// Files handed over and not written yet, at most this many: a disk slower than the cores
    /// makes the renderers wait, instead of every page's bytes waiting in memory.
    private let backlog = DispatchSemaphore(value: 512)
    /// Held by the thread writing the files handed over: the output's own (woken on `queue`), or
    /// one that finds the backlog full and nobody writing it, or `finish`.
    private let writing = NSLock()
    /// Touched with `writing` held only: folders made, and what each file written is on disk.
    private var madeFolders: Set<String> = []
    private var records: [String: BuildManifest.FileRecord] = [:]
    /// Paths handed to `add`, the first error writing them, the files waiting for the output's
    /// thread, and whether it is draining them (one wake-up of it for many files: a wake-up per
    /// file was 2% of a build's samples, in the kernel waking threads).
    private let streamed = Mutex<Streamed>(Streamed())
    private struct Streamed {
        var paths: Set<String> = []
        var failure: Error?
        var pending: [OutputFile] = []
        var draining = false
    }
    private var closed = false

    /// Checks the output folder and makes the staging folder beside it.
    init(writer: OutputWriter, recording: Bool, wakingOn queue: DispatchQueue = DispatchQueue(label: "tessera.staged-output")) throws {
        self.queue = queue
        self.writer = writer
        self.recording = recording
        try writer.checkOutputDirectory()
        let output = writer.resolvedOutput
        try OutputWriter.createFolders((output as NSString).deletingLastPathComponent)
        staging = StagingFolders(output: output)
        try staging.recover()
        folder = staging.newStagingPath()
        guard mkdir(folder, 0o755) == 0 else { throw TesseraError.wrapping(OutputWriter.writeError("cannot create", folder), at: writer.configuredAt) }
        handle = open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard handle >= 0 else {
            let failure = OutputWriter.writeError("cannot open", folder)
            FolderRemoval.remove(folder)
            throw TesseraError.wrapping(failure, at: writer.configuredAt)
        }
    }

    deinit {
        if !closed { close(handle) }
    }

    /// Writes `file` on the output's thread, soon, and returns it as `written`, holding no bytes;
    /// an error is thrown by `finish`.
    @discardableResult
    func add(_ file: OutputFile) -> OutputFile {
        defer { enqueue(file) }
        return OutputFile(path: file.path, contents: .written)
    }

    private func enqueue(_ file: OutputFile) {
        let first = streamed.withLock { state -> Bool in
            guard state.failure == nil else { return false }
            do {
                try OutputWriter.checkPath(file.path)
            } catch {
                state.failure = error
                return false
            }
            return state.paths.insert(file.path).inserted
        }
        guard first else { return }
        // A full backlog waits for the thread writing it. When none is (its wake-up is queued
        // behind the renderers: on one core, the dispatch queue ran it only once it gave up on
        // its one busy thread, a second later), this one writes the backlog itself.
        if backlog.wait(timeout: .now() + .milliseconds(5)) == .timedOut {
            if writing.try() {
                drainHeld()
                writing.unlock()
            }
            backlog.wait()
        }
        let wakes = streamed.withLock { state -> Bool in
            state.pending.append(file)
            guard !state.draining, state.pending.count >= Self.batch else { return false }
            state.draining = true
            return true
        }
        if wakes { queue.async { [self] in drain() } }
    }

    /// Files that wait before the output's thread is woken for them; `finish` and `abandon`
    /// write those still waiting.
    private static let batch = 32

    /// Writes the files waiting, in the order handed over, until none is left.
    private func drain() {
        writing.lock()
        drainHeld()
        writing.unlock()
    }

    /// `drain`, with `writing` held.
    private func drainHeld() {
        while true {
            var batch = streamed.withLock { state -> [OutputFile] in
                if state.pending.isEmpty { state.draining = false }
                var batch: [OutputFile] = []
                swap(&batch, &state.pending)
                return batch
            }
            if batch.isEmpty { return }
            // Each file's bytes go as it is written (taken from the end of the reversed batch):
            // the batch may hold the whole backlog.
            batch.reverse()
            while let file = batch.popLast() {
                defer { backlog.signal() }
                do {
                    try makeFolders(of: file.path)
                    let record = try OutputWriter.write(try OutputWriter.contents(of: file), to: folder + "/" + file.path, in: (handle, file.path), recording: recording)
                    if let record { records[file.path] = record }
                } catch {
                    streamed.withLock { if $0.failure == nil { $0.failure = error } }
                }
            }
        }
    }

    /// The folders above `path` not made yet, from the top (with `writing` held).
    private func makeFolders(of path: String) throws {
        var missing: [String] = []
        var current = PathText.folder(path)
        while !current.isEmpty, !madeFolders.contains(current) {
            missing.append(current)
            current = PathText.folder(current)
        }
        for folder in missing.reversed() {
            guard mkdirat(handle, folder, 0o755) == 0 || errno == EEXIST else { throw OutputWriter.writeError("cannot create", self.folder + "/" + folder) }
            madeFolders.insert(folder)
        }
    }

    /// Writes every file of `files` not written yet, then the marker, and swaps the folder in;
    /// with `recording`, returns what each file of `files` is on disk.
    func finish(_ files: [OutputFile]) throws -> [String: BuildManifest.FileRecord] {
        // Written here, not waited for on `queue`: a wake-up still queued there would need a
        // thread the dispatch queue may not have (one core: this one).
        drain()
        do {
            let (written, failure) = streamed.withLock { ($0.paths, $0.failure) }
            if let failure { throw failure }
            let rest = written.isEmpty ? files : files.filter { !written.contains($0.path) }
            try rest.forEach { try OutputWriter.checkPath($0.path) }
            try makeFolders(for: rest)
            let failures = DiagnosticCollector()
            let made = ParallelMap.map(rest) { file in
                failures.attempt {
                    try OutputWriter.write(try OutputWriter.contents(of: file), to: folder + "/" + file.path, in: (handle, file.path), recording: recording)
                } ?? nil
            }
            try OutputWriter.write(.text(OutputWriter.markerName, OutputWriter.markerText), to: folder + "/" + OutputWriter.markerName)
            try failures.throwIfErrors()
            close(handle)
            closed = true
            try staging.swapIn(folder)
            guard recording else { return [:] }
            for (file, record) in zip(rest, made) { if let record { records[file.path] = record } }
            // Taken, not copied, and trimmed in place: at 100,000 tagged posts it is 240,000
            // records, at the build's peak.
            var kept: [String: BuildManifest.FileRecord] = [:]
            swap(&kept, &records)
            let wanted = Set(files.map(\.path))
            for path in kept.keys.filter({ !wanted.contains($0) }) { kept.removeValue(forKey: path) }
            return kept
        } catch {
            abandon()
            throw TesseraError.wrapping(error, at: writer.configuredAt)
        }
    }

    /// Folders of `files` level by level, a folder's parent made the level before; the folders
    /// of one parent by one core (two making entries in one folder wait on its lock), parents on
    /// every core.
    private func makeFolders(for files: [OutputFile]) throws {
        var levels: [[String]] = []
        var listed = madeFolders
        for file in files {
            var current = PathText.folder(file.path)
            while !current.isEmpty, listed.insert(current).inserted {
                let depth = current.utf8.count { $0 == UInt8(ascii: "/") }
                while levels.count <= depth { levels.append([]) }
                levels[depth].append(current)
                current = PathText.folder(current)
            }
        }
        for level in levels {
            let byParent = Array(Dictionary(grouping: level, by: PathText.folder).values)
            let handle = self.handle
            let failed = ParallelMap.map(byParent) { siblings in
                siblings.sorted().first { mkdirat(handle, $0, 0o755) != 0 && errno != EEXIST }
            }
            if let path = failed.lazy.compactMap({ $0 }).first { throw OutputWriter.writeError("cannot create", folder + "/" + path) }
        }
    }

    /// Removes the staging folder: the output stays as it was.
    func abandon() {
        drain()
        if !closed {
            close(handle)
            closed = true
        }
        FolderRemoval.remove(folder)
    }
}
