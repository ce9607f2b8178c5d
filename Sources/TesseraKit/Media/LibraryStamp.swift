import Foundation

/// libvips' version as the build cache recorded it (`images.stamp`), with what decides which
/// libvips the dynamic loader finds: the file it found, its cache (`/etc/ld.so.cache`, which
/// `ldconfig` writes again when a library is installed or upgraded), and `LD_LIBRARY_PATH` and
/// `LD_PRELOAD` with each path they name. While all of these are as recorded, a cached build keys
/// its images (`ImagePlan`) without loading libvips: loading it maps about a hundred libraries
/// (25 ms), and the default theme's icons are keyed in every build.
struct LibraryStamp: ToolStamp {
    var version: String
    /// `LD_LIBRARY_PATH=…` and `LD_PRELOAD=…`, as they were.
    var environment: [String]
    var files: [String: String]

    static let variables = ["LD_LIBRARY_PATH", "LD_PRELOAD"]

    /// libvips' version for the images of a build whose cache is `folder`: the stamp's while it
    /// holds; else libvips', loaded, and stamped for the next build.
    static func version(cacheFolder folder: String?, environment values: [String: String] = ProcessInfo.processInfo.environment) -> String {
        guard let folder else { return ImageCodec.version }
        let path = folder + "/images.stamp"
        let environment = variables.map { "\($0)=\(values[$0] ?? "")" }
        if let stamp = read(path), stamp.environment == environment { return stamp.version }
        let version = ImageCodec.version
        guard let library = ImageCodec.libraryFile else { return version }
        let searched = variables.flatMap { (values[$0] ?? "").split(whereSeparator: { $0 == ":" || $0 == " " }).map(String.init) }
        LibraryStamp(version: version, environment: environment, files: signatures([library, "/etc/ld.so.cache"] + searched)).write(to: path)
        return version
    }
}
