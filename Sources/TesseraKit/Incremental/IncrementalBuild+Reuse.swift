import CAllocation
#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a build takes from the last one: stored pages while content loads, then the pages and
/// files whose output stays.
extension IncrementalBuild {
    // MARK: Loading content

    /// Lets loading content take the pages of unchanged files from `storedPages`.
    func useStoredPages(parser: PageParser, directory: String) -> StoredPages {
        let inputs = current.inputs, pending = loadedDigests.pending
        storedPages.use(key: StoredPages.key(parser: parser, directory: directory)) { relative in
            let path = "content/" + relative
            return pending.contains(path) ? nil : inputs[path]?.digest
        }
        return storedPages
    }

    /// Puts the digests the loader took into the record; a file it did not read is read here.
    /// One that cannot be read keeps no digest and is read again next time.
    func takeLoadedDigests(site: String) {
        let found = loadedDigests.take()
        let missing = loadedDigests.pending.filter { found[$0] == nil && current.inputs[$0] != nil }
        let read = ParallelMap.map(Array(missing)) { path in
            FileManager.default.contents(atPath: site + "/" + path).map { Self.digests(of: $0, path: path) }
        }
        for (path, digests) in found.map({ ($0.key, Optional($0.value)) }) + zip(missing, read).map({ ($0, $1) }) {
            guard var record = current.inputs[path] else { continue }
            if let digests {
                record.digest = digests.digest
                record.structure = digests.structure
            } else {
                record.modified = 0
            }
            current.inputs[path] = record
        }
        loadedDigests = LoadedDigests(pending: [])
    }

    /// Writes the pages just loaded on another core, while the build goes on.
    func storePages() {
        storing = SideTask { [self] in
            storedPages.save()
            // The pages' bytes and bodies it wrote are free now (700 MiB of 100,000 tagged posts'
            // first build): given back before the rendering grows the heaps past them.
            _ = tessera_return_free_memory(256 << 20)
        }
    }

    /// Waits for `storePages` (or writes the file here, if no thread has begun): the build ends
    /// with the file written, or left as it was.
    func finishStoringPages() {
        storing?.wait()
    }

    // MARK: After loading content

    /// Decides, once content is loaded, whether this build keeps the last one's structure: only
    /// bodies changed, of pages that list no others (a list's own body is on each of its pages),
    /// no feed carries bodies, the last build, intact, printed no warning (the steps skipped
    /// would print the same ones), and `canKeep` says each page that lists others may be kept
    /// whole (one made again would list nothing: its lists are not made). Then queries, feeds,
    /// aliases and the JSON index are not made again: what they made is the last build's, kept
    /// in the output folder.
    func keepsStructure(site loaded: LoadedSite, context: BuildContext, canKeep: (Page) -> Bool) -> Bool {
        guard onlyBodiesChanged, !loaded.configuration.feeds.fullContent else { return false }
        settleReference()
        guard let reference, reference.warnings == 0, !context.diagnostics.hasErrors else { return false }
        let site = context.siteDirectory
        let edited = Set(changedInputs.map { site + "/" + $0 })
        var pages: [(url: String, language: String)] = []
        for page in loaded.pages {
            let lists = page.listsPages
            if edited.contains(page.sourcePath) {
                // An edited page that lists others, or that the last build did not have at its URL.
                guard !lists, reference.pages[page.url]?.source == Self.source(of: page, site: site) else { return false }
                pages.append((page.url, page.language))
            } else if lists, reference.pages[page.url] != nil, !canKeep(page) {
                return false
            }
        }
        editedPages = pages
        structureKept = true
        return true
    }

    /// URLs of the last build's pages, for links, when this build keeps its structure: the later
    /// pages of paginated lists are not made again.
    var keptPageURLs: [String] { structureKept ? reference.map { Array($0.pages.keys) } ?? [] : [] }

    /// Chooses the pages whose output stays: those whose file is unchanged, when no page's front
    /// matter, no file's presence and no URL changed. That includes pages that list others
    /// (queries, term pages, pages of a paginated list): a list shows what listed pages' front
    /// matter says, never their bodies.
    func planReuse(site routed: RoutedSite, context: BuildContext) {
        let pages = routed.loaded.pages
        settleReference()
        if structureKept, let reference {
            // The last build's pages, but for those of the edited files.
            current.structure = reference.structure
            structureUnchanged = true
            reused = reference.pages
            var counts = reference.languagePages
            for page in editedPages {
                if reused.removeValue(forKey: page.url)?.html == true { counts[page.language, default: 0] -= 1 }
            }
            reusedHTMLPages = counts.filter { $0.value != 0 }
            // Their outputs are listed only if something asks (`keptOutputs`): every file not
            // written again is kept.
            return
        }
        // A digest of a set, whatever its order: the sum of its members' digests.
        var structure: UInt64 = 0
        func add(_ kind: UInt64, _ text: String, _ value: UInt64 = 0) {
            var digest = StableDigest()
            digest.combine(kind)
            digest.combine(text)
            digest.combine(value)
            structure &+= digest.value
        }
        for (path, record) in current.inputs where path.hasPrefix("content/") { add(1, path, record.structure) }
        for file in routed.staticFiles { add(2, file.path) }
        for page in pages { add(3, page.url) }
        current.structure = structure
        guard let reference, reference.structure == current.structure else { return }
        structureUnchanged = true
        reused.reserveCapacity(pages.count)
        let site = context.siteDirectory
        for page in pages {
            // Every output the record lists is verified: a reference is only kept for an intact
            // output folder.
            guard let record = reference.pages[page.url], Self.isFile(page.sourcePath, site: site, relative: record.source),
                  !changedInputs.contains(record.source) else { continue }
            reused[page.url] = record
            if record.html { reusedHTMLPages[page.language, default: 0] += 1 }
        }
        reusedOutputs = reused.values.flatMap(\.outputs)
    }

    /// Makes these kept pages again (a page whose search document the cache does not have).
    /// In a build that keeps the structure, never a page that lists others (`keepsStructure`'s
    /// `canKeep`): this build does not make its lists.
    func remake(_ pages: [Page]) {
        assert(!structureKept || !pages.contains(where: \.listsPages), "a list made again in a build that keeps the lists")
        for page in pages {
            guard let record = reused.removeValue(forKey: page.url), record.html else { continue }
            reusedHTMLPages[page.language, default: 0] -= 1
            if reusedHTMLPages[page.language] == 0 { reusedHTMLPages[page.language] = nil }
        }
        if !structureKept { reusedOutputs = reused.values.flatMap(\.outputs) }
    }
}
