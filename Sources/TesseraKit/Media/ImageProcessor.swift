import CAllocation
#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

/// The images of one build: each file looked at once (`SourceImage`), each requested set of
/// sizes planned at once (`ImagePlan`) and made in the background on every core while pages are
/// mapped and rendered, one image per core so that memory stays bounded.
///
/// Made files are kept in the build cache's `images/` folder by name, and every name carries a
/// digest of the source's bytes, the request, the options and libvips' version: a file found
/// there is never made again. What a file looked like (`images.index`) is kept by its `stat`, so
/// a cached build reads no unchanged image at all. Without a build cache the files are made into
/// a temporary folder of the process, which every build of the process shares (a preview session,
/// a test run) and which is removed when the process ends.
public final class ImageProcessor: @unchecked Sendable {
    let options: SiteConfiguration.ImageOptions
    /// Where made files are kept.
    let store: String
    private let indexFile: String?
    let lock = NSLock()
    /// Absolute path → what it is, for files looked at this build.
    private var sources: [String: Inspection] = [:]
    /// Last build's index, by absolute path.
    private var recorded: [String: ImageIndex.Entry]
    /// Made or found files this build, by output path.
    var outputs: [String: String] = [:]
    /// Plans already scheduled, by store name of their largest file.
    private var scheduled: Set<String> = []
    private var failures: [(path: String, reference: SourceLocation?, message: String)] = []
    /// `favicon.ico` files to write around the PNG made for another path, once it is made.
    var icons: [(path: String, png: String)] = []
    private var made = 0
    /// One image per core at a time, and in `finish` one more on the waiting thread, which
    /// makes those no core has begun.
    private let queue: HelpingQueue

    enum Inspection {
        case image(SourceImage, stamp: ImageIndex.Stamp)
        case failed(ImageCodec.Failure)

        func image() throws -> SourceImage {
            switch self {
            case .image(let image, _): return image
            case .failed(let failure): throw failure
            }
        }
    }

    /// Where made images are counted for the progress line.
    private let progress: BuildProgress?

    /// The build cache's folder, where libvips' version is stamped (`LibraryStamp`).
    private let cacheFolder: String?
    private let foundVersion = Mutex<String?>(nil)

    /// libvips' version for the images' keys, found once a build: a cached build whose libvips
    /// is as its stamp recorded does not load it.
    var libvipsVersion: String {
        foundVersion.withLock { found in
            if let found { return found }
            let version = LibraryStamp.version(cacheFolder: cacheFolder)
            found = version
            return version
        }
    }

    public init(options: SiteConfiguration.ImageOptions, cacheDirectory: String?, progress: BuildProgress? = nil) {
        self.options = options
        self.progress = progress
        cacheFolder = cacheDirectory
        if let cacheDirectory {
            store = cacheDirectory + "/images"
            indexFile = cacheDirectory + "/images.index"
            recorded = ImageIndex.read(cacheDirectory + "/images.index")
        } else {
            store = Self.sessionStore
            indexFile = nil
            recorded = [:]
        }
        queue = HelpingQueue(width: ProcessInfo.processInfo.activeProcessorCount)
    }

    /// Starts libvips on another core while the theme and content load, when this build is sure
    /// to make images: none was made before (a first build, or one without the cache). Starting
    /// it loads its modules (PDF, HEIF, ImageMagick, ...), about a tenth of a second that the
    /// site's icons would otherwise wait for. A build that finds its images in the cache starts
    /// it only when one must be made.
    func prepare() {
        guard recorded.isEmpty else { return }
        DispatchQueue.global(qos: .userInitiated).async { _ = ImageCodec.started }
    }

    /// Images made this build (the others were in the cache).
    public var madeImages: Int { lock.withLock { made } }

    /// What the file at `path` is, looked at once a build and kept by its `stat` across builds.
    func source(at path: String) throws -> SourceImage {
        if let known = lock.withLock({ sources[path] }) { return try known.image() }
        // Pages rendered at once that show the same new file wait for one look at it (libvips'
        // error buffer is the process's: two failing decodes of one file would mix their messages).
        let stripe = inspecting[Int(UInt(bitPattern: path.hashValue) % UInt(inspecting.count))]
        stripe.lock()
        defer { stripe.unlock() }
        if let known = lock.withLock({ sources[path] }) { return try known.image() }
        let inspection: Inspection
        let stamp = ImageIndex.Stamp(path: path)
        if let stamp, let entry = lock.withLock({ recorded[path] }) ?? Self.seen.withLock({ $0[path] }), entry.stamp == stamp {
            inspection = .image(entry.image, stamp: stamp)
        } else if let data = FileManager.default.contents(atPath: path), let stamp {
            var pixels: Int?
            defer { ImageCodec.threadDone(pixels: pixels) }
            do {
                let image = try SourceImage.inspect(data, maxPixels: options.maxPixels)
                pixels = image.width * image.height
                Self.seen.withLock { $0[path] = ImageIndex.Entry(stamp: stamp, image: image) }
                inspection = .image(image, stamp: stamp)
            } catch let failure as ImageCodec.Failure {
                inspection = .failed(failure)
            } catch {
                inspection = .failed(ImageCodec.Failure(description: "\(error)"))
            }
        } else {
            inspection = .failed(ImageCodec.Failure(description: "the file cannot be read: \(FileTree.systemReason())", hint: "check that the file is readable"))
        }
        lock.withLock { sources[path] = inspection }
        return try inspection.image()
    }
    private let inspecting = (0..<16).map { _ in NSLock() }

    /// The responsive image of the file at `path`, published at `relative` (its path in the
    /// output folder), for `request`: its variants are made in the background. `reference`: where
    /// it is used, for an error found while making them.
    func image(at path: String, relative: String, url: String, request: ImageRequest, reference: SourceLocation?) throws -> ResponsiveImage {
        let source = try source(at: path)
        guard source.isProcessed, options.process else {
            return ResponsiveImage(source: source, original: url, request: request, variants: [], fallback: nil)
        }
        let plan = ImagePlan(source: source, request: request, options: options, libvips: libvipsVersion)
        var variants = plan.formats.flatMap { format in plan.sizes.map { plan.variant($0, format, relative: relative, url: url) } }
        let fallback = plan.variant(plan.fallback, plan.fallbackFormat, relative: relative, url: url)
        if !variants.contains(where: { $0.variant == fallback.variant }) { variants.append(fallback) }
        schedule(plan, source: path, image: source, variants: variants.map(\.variant), reference: reference)
        return ResponsiveImage(source: source, original: url, request: request, variants: variants, fallback: fallback.variant)
    }

    /// The store's name of a variant: its file name without the stem (images of the same bytes
    /// share their files).
    private static func storeName(_ variant: ImageVariant, plan: ImagePlan) -> String {
        "\(plan.key).\(variant.width)x\(variant.height).\(variant.format.fileExtension)"
    }

    func schedule(_ plan: ImagePlan, source path: String, image: SourceImage, variants: [ImageVariant], reference: SourceLocation?) {
        let names = variants.map { ($0, Self.storeName($0, plan: plan)) }
        let store = self.store
        let isNew = lock.withLock { () -> Bool in
            for (variant, name) in names { outputs[variant.path] = store + "/" + name }
            return scheduled.insert(plan.key + ":" + names.map(\.1).joined(separator: ",")).inserted
        }
        guard isNew else { return }
        let options = self.options
        let missing = names.filter { access(store + "/" + $0.1, F_OK) != 0 }
        guard !missing.isEmpty else { return }
        progress?.expectImages(missing.count)
        // The most pixels the image holds at once: the source's, or the largest size made (an SVG
        // that does not say its size is drawn at it).
        let pixels = max(image.width * image.height, plan.sizes.map { $0.scaledWidth * $0.scaledHeight }.max() ?? 0)
        // Heaps give back what large images free until the last queued one is made.
        let returnsMemory = ImageCodec.returnsMemory(pixels: pixels)
        if returnsMemory { tessera_allocator_images(1) }
        queue.add { [self] in
            defer {
                ImageCodec.threadDone(pixels: pixels)
                if returnsMemory { tessera_allocator_images(0) }
                progress?.imagesDone(missing.count)
            }
            do {
                try FileManager.default.createDirectory(atPath: store, withIntermediateDirectories: true)
                try Self.make(missing.map(\.0), names: missing.map(\.1), plan: plan, source: path, options: options, store: store)
                lock.withLock { made += 1 }
            } catch {
                lock.withLock { failures.append((path, reference, "\(error)")) }
            }
        }
    }

    /// Makes the variants of one image: the largest size decoded once, each smaller size scaled
    /// once from the size before it (1920 → 1280 → 960 ...: a third less resampling than each
    /// from the largest, with the same filter), in memory, encoded in every format asked for it,
    /// and let go as the next size replaces it.
    /// Memory per image in progress is the largest size and one encoder (about 22 MB for a
    /// 1920 × 1280 WebP), so one image per core keeps a build of thousands of photos bounded.
    private static func make(_ variants: [ImageVariant], names: [String], plan: ImagePlan, source path: String, options: SiteConfiguration.ImageOptions, store: String) throws {
        let largest = plan.sizes[0]
        // The size being encoded; each smaller one replaces it, made from it.
        var image = try decoded(path, at: largest)
        var wanted: [ImagePlan.Size: [(ImageVariant, String)]] = [:]
        for (variant, name) in zip(variants, names) {
            let size = plan.sizes.first { $0.width == variant.width && $0.height == variant.height } ?? largest
            wanted[size, default: []].append((variant, name))
        }
        for size in plan.sizes {
            guard let files = wanted[size] else { continue }
            if size != largest { image = try ImageCodec.materialized(ImageCodec.rescaled(image, width: size.width, height: size.height)) }
            for (variant, name) in files {
                let encoding = ImagePlan.encoding(variant.format, options: options)
                try write(ImageCodec.encode(image, as: variant.format, quality: encoding.quality, effort: encoding.effort), to: store + "/" + name)
            }
        }
    }

    /// The file at `path` decoded at `size`, in memory (its bytes are let go once it is).
    private static func decoded(_ path: String, at size: ImagePlan.Size) throws -> ImageCodec.Image {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw ImageCodec.Failure(description: "the file cannot be read: \(FileTree.systemReason())")
        }
        return try ImageCodec.materialized(ImageCodec.scaled(data, width: size.scaledWidth, height: size.scaledHeight, crop: size.crop))
    }

    /// Writes `bytes` to the store under a temporary name, then renames it: a file in the store is
    /// always whole.
    private static func write(_ bytes: Data, to target: String) throws {
        let temporary = target + ".tmp-" + UUID().uuidString
        guard FileManager.default.createFile(atPath: temporary, contents: bytes) else {
            throw ImageCodec.Failure(description: "cannot write \(target): \(FileTree.systemReason())")
        }
        guard rename(temporary, target) == 0 else {
            unlink(temporary)
            throw ImageCodec.Failure(description: "cannot write \(target): \(FileTree.systemReason())")
        }
    }

    /// Waits for every image of the build, and returns the files to write: each variant copied
    /// from the store. Throws the images that could not be made, each at where it is used.
    func finish() throws -> [OutputFile] {
        queue.waitForAll()
        for (path, png) in lock.withLock({ icons }) {
            guard let stored = lock.withLock({ outputs[png] }), let data = FileManager.default.contents(atPath: stored) else { continue }
            add(Self.ico(holding: data, side: 32), at: path)
        }
        let (files, failed) = lock.withLock { (outputs, failures) }
        if !failed.isEmpty {
            throw TesseraError(diagnostics: failed.sorted { $0.path < $1.path }.map {
                Diagnostic(.error, "the image \($0.path) could not be processed: \($0.message)", at: $0.reference ?? SourceLocation(file: $0.path),
                           hint: "open the file in an image editor and save it again, or replace it")
            })
        }
        return files.sorted { $0.key < $1.key }.map { OutputFile(path: $0.key, contents: .copy(from: $0.value)) }
    }

    /// Keeps what this build learnt for the next: the index of the files looked at (and the last
    /// build's entries of files still there). `complete`: every page was built, so made files no
    /// output uses any more are removed from the store.
    func save(complete: Bool) {
        guard let indexFile else { return }
        let (looked, used) = lock.withLock { (sources, Set(outputs.values)) }
        var entries = recorded.filter { looked[$0.key] == nil && access($0.key, F_OK) == 0 }
        for (path, inspection) in looked {
            if case .image(let image, let stamp) = inspection { entries[path] = ImageIndex.Entry(stamp: stamp, image: image) }
        }
        ImageIndex.write(entries, to: indexFile)
        guard complete, let names = try? FileManager.default.contentsOfDirectory(atPath: store) else { return }
        for name in names where !used.contains(store + "/" + name) { unlink(store + "/" + name) }
    }

    /// The store of builds without a cache: one temporary folder per process, named by its
    /// process id, removed when the process exits.
    static let sessionStore: String = {
        let folder = NSTemporaryDirectory() + "tessera-images-\(getpid())-" + UUID().uuidString.prefix(8)
        sessionStorePath.withLock { $0 = folder }
        atexit { if let folder = ImageProcessor.sessionStorePath.withLock({ $0 }) { FolderRemoval.remove(folder) } }
        return folder
    }()
    private static let sessionStorePath = Mutex<String?>(nil)

    /// What files looked like, for every build of the process: a preview session or a test run
    /// looks at an unchanged image once.
    private static let seen = Mutex<[String: ImageIndex.Entry]>([:])
}
