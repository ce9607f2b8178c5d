import Foundation
import Synchronization

/// Digests of content files the build's record has never seen, taken from the one read that
/// loading content makes of each, instead of a read of their own before it.
///
/// Nothing before loading needs them: a file new to the record counts as changed whatever its
/// bytes. A first build is all such files, so it reads each content file once, not twice.
/// `IncrementalBuild.takeLoadedDigests()` puts them in the record once content is loaded, and
/// reads any file the loader did not (its pages came from elsewhere, or it failed to read).
final class LoadedDigests: @unchecked Sendable {
    /// Paths below the site (`content/…`) whose digests wait for the loader.
    let pending: Set<String>
    private let found = Mutex<[String: (digest: UInt64, structure: UInt64)]>([:])

    init(pending: Set<String>) {
        self.pending = pending
    }

    /// Whether the digest of `path` (below the site) is left to the loader: a page file below
    /// `content/` with no record yet. Assets are not read by the loader, and a recorded file's
    /// digest decides what the build keeps, before anything loads.
    static func waits(_ path: String) -> Bool {
        path.hasPrefix("content/") && PageParser.contentExtensions.contains(PathText.pathExtension(path).lowercased())
    }

    /// The loader read `bytes` from `relative` (below `content/`), whose digest is `digest`, and
    /// made `pages` of them: a Markdown page's front matter, parsed, says whether it has a
    /// `summary` key, so the structure digest does not parse it again.
    func read(_ relative: String, bytes: Data, digest: UInt64, pages: [Page]) {
        let path = "content/" + relative
        guard pending.contains(path) else { return }
        let summaryKey = pages.count == 1 && pages[0].kind == .markdown ? pages[0].frontMatter.contains { $0.key == "summary" } : nil
        let structure = IncrementalBuild.structureDigest(of: bytes, path: path, whole: digest, summaryKey: summaryKey)
        found.withLock { $0[path] = (digest, structure) }
    }

    /// What the loader found, by path below the site; emptied.
    func take() -> [String: (digest: UInt64, structure: UInt64)] {
        found.withLock { found in
            defer { found = [:] }
            return found
        }
    }
}
