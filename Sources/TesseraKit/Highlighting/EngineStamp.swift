#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// What a build records of the highlighting engine it found (`highlight.stamp` in the cache
/// folder): Pygments' version, its CSS classes and language names, tree-sitter's grammars, and
/// the `stat` of the files that make it (Python, Pygments' package, each folder Python searches
/// for modules). While every one of those files is as recorded, a later build knows the engine
/// without starting Python.
struct EngineStamp: ToolStamp {
    var python: String
    var version: String
    var scriptVersion: String
    var classes: [String: String]
    var aliases: [String]
    var grammars: [String]
    var files: [String: String]

    /// What `hello` says of the engine that `python` (a path, or a name in `PATH`) starts.
    init(_ hello: PygmentsWorker.Hello, python: String) {
        // A package installed, upgraded or removed changes one of these files or folders.
        var paths = [hello.executable, hello.file, (hello.file as NSString).deletingLastPathComponent] + hello.path
        if let found = Self.lookUp(python) { paths.append(found) }
        self.python = python
        version = hello.version
        scriptVersion = PygmentsWorker.scriptVersion
        classes = hello.classes
        aliases = hello.aliases
        grammars = hello.grammars ?? []
        files = Self.signatures(paths)
    }

    /// The stamp at `path`, when it was written for `python` and the current worker, and every
    /// file it names has the `stat` it recorded.
    static func read(_ path: String, python: String) -> EngineStamp? {
        read(path).flatMap { $0.python == python && $0.scriptVersion == PygmentsWorker.scriptVersion ? $0 : nil }
    }

    /// Where `PATH` finds `name` (a path is itself).
    static func lookUp(_ name: String) -> String? {
        if name.contains("/") { return name }
        for folder in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let path = folder + "/" + name
            if access(path, X_OK) == 0 { return path }
        }
        return nil
    }
}
