#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What the last successful build into an output folder was made of and what it wrote, so the
/// next `tessera build` redoes only what changed.
///
/// Kept in `.tessera/cache/` beside the site (that folder ignores itself in git and may be
/// deleted at any time; the next build is then a full one). Entries are compared on file
/// contents (a stat match short-cuts the read), the Tessera version and the cache format, so an
/// upgrade or an edit never reuses a stale result; the test suite checks that every incremental
/// build writes exactly what a full build writes.
struct BuildManifest: Equatable {
    /// 6: output files' digests are `StableDigest.ofOutput`'s.
    static let format = 6

    /// A file the build read or wrote: what `stat` said and a digest of its bytes (an output's
    /// by `StableDigest.ofOutput`, an input's by `StableDigest.of`).
    struct FileRecord: Equatable {
        var size: Int
        var modified: Int
        /// The change time: set by the system at every write, rename or `chmod`, and by nobody
        /// else, so a file rewritten with its old size and modification time still shows it.
        var changed: Int = 0
        var inode: UInt64
        var digest: UInt64
        /// For content files: the digest of the front matter alone (other pages see it through
        /// links, menus, queries and taxonomies; the body only through lists, which are rebuilt).
        var structure: UInt64 = 0
    }

    /// A page whose output can be kept: its source, what it wrote and what its HTML linked.
    struct PageRecord: Equatable {
        var source: String
        var outputs: [String]
        var assets: [String]
        var html: Bool
    }

    /// A relative date the build printed, to check it would read the same at another build date.
    struct RelativeDate: Equatable {
        var date: Double
        var hasTime: Bool
        var locale: String
        var timeZone: String
        var text: String
    }

    var tessera = Tessera.version
    var output = ""
    var environment: UInt64 = 0
    /// The code highlighter's identity (`IncrementalBuild.highlightDigest`) when the build's
    /// pages were written with it; 0 when none was: then no page depends on which engine is
    /// installed, and the next build starts no Python to find out. Nil (a record without the
    /// line) matches no build.
    var highlight: UInt64?
    var structure: UInt64 = 0
    var buildDate: Double = 0
    /// Templates print `site.buildDate`, or relative dates were not all recorded: another build
    /// date means a full build.
    var readsBuildDate = false
    /// The build dates between which the same pages are published (drafts aside): a later build
    /// date may publish a future page or retire an expired one.
    var publishedFrom: Double = -.infinity
    var publishedUntil: Double = .infinity
    var relativeDates: [RelativeDate] = []
    /// Content files by path relative to `content/`.
    var inputs: [String: FileRecord] = [:]
    /// Pages by URL.
    var pages: [String: PageRecord] = [:]
    /// Output files by path relative to the output folder.
    var files: [String: FileRecord] = [:]
    /// The folders the last check walked, so an unchanged one is not read again: input folders by
    /// path relative to the site, output folders relative to the output folder ("" for itself).
    var inputFolders: [String: FolderStamp] = [:]
    var outputFolders: [String: FolderStamp] = [:]
    var skippedDrafts = 0, skippedFuture = 0, skippedExpired = 0, staticFiles = 0
    /// Warnings the build printed: a build with warnings is never skipped, so they are printed again.
    var warnings = 0
    /// The summary's figures, for a build that had nothing to do.
    var builtPages = 0, builtFiles = 0
    /// Pages per language code, for the summary's line per language.
    var languagePages: [String: Int] = [:]
}

extension BuildManifest.FileRecord {
    /// What `stat` says of `path` now, with no digest; nil when it is not a regular file.
    static func current(_ path: String) -> BuildManifest.FileRecord? {
        guard let info = fileStatus(path), info.st_mode & S_IFMT == S_IFREG else { return nil }
        return from(info)
    }

    /// The record of what `stat` returned, with no digest.
    static func from(_ info: stat) -> BuildManifest.FileRecord {
        BuildManifest.FileRecord(
            size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec) * 1_000_000_000 + Int(info.st_mtim.tv_nsec),
            changed: Int(info.st_ctim.tv_sec) * 1_000_000_000 + Int(info.st_ctim.tv_nsec), inode: UInt64(info.st_ino), digest: 0)
    }

    /// Same file as far as `stat` can tell: nobody wrote it since.
    func sameStat(as other: BuildManifest.FileRecord) -> Bool {
        size == other.size && modified == other.modified && changed == other.changed && inode == other.inode
    }
}

/// `stat(2)` of `path` (following links), or nil.
private func fileStatus(_ path: String) -> stat? {
    var info = stat()
    return stat(path, &info) == 0 ? info : nil
}
