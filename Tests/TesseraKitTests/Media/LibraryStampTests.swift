import Foundation
import Testing
@testable import TesseraKit

/// libvips' version, as a cached build knows it without loading libvips: the stamp in the cache
/// folder is believed while the library file, the loader's cache and the paths of
/// `LD_LIBRARY_PATH` and `LD_PRELOAD` are as it recorded, and only then.
@Suite struct LibraryStampTests {
    @Test func theStampIsBelievedWhileTheLoaderWouldFindTheSameLibrary() throws {
        let folder = NSTemporaryDirectory() + "tessera-library-stamp-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/images.stamp"
        let library = try #require(ImageCodec.libraryFile)
        // No stamp yet: libvips' own version, stamped with the file the loader found.
        #expect(LibraryStamp.version(cacheFolder: folder, environment: [:]) == ImageCodec.version)
        var stamp = try #require(LibraryStamp.read(path))
        #expect(Set(stamp.files.keys) == [library, "/etc/ld.so.cache"])
        #expect(stamp.version == ImageCodec.version && stamp.environment == ["LD_LIBRARY_PATH=", "LD_PRELOAD="])
        // While it holds, the stamp is what is believed: one that says otherwise shows it.
        stamp.version = "8.99.0"
        stamp.write(to: path)
        #expect(LibraryStamp.version(cacheFolder: folder, environment: [:]) == "8.99.0")
        // Another library file (an upgrade replaces it): libvips is asked again, and stamped anew.
        var moved = stamp
        moved.files[library] = "another file"
        moved.write(to: path)
        #expect(LibraryStamp.version(cacheFolder: folder, environment: [:]) == ImageCodec.version)
        #expect(LibraryStamp.read(path)?.files[library] == LibraryStamp.signature(of: library))
        // Another LD_LIBRARY_PATH: not believed; the new stamp names its folder.
        let libraries = folder + "/lib"
        try FileManager.default.createDirectory(atPath: libraries, withIntermediateDirectories: true)
        let environment = ["LD_LIBRARY_PATH": libraries]
        stamp.write(to: path)
        #expect(LibraryStamp.version(cacheFolder: folder, environment: environment) == ImageCodec.version)
        stamp = try #require(LibraryStamp.read(path))
        #expect(stamp.environment == ["LD_LIBRARY_PATH=\(libraries)", "LD_PRELOAD="] && stamp.files[libraries] != nil)
        stamp.version = "8.99.0"
        stamp.write(to: path)
        #expect(LibraryStamp.version(cacheFolder: folder, environment: environment) == "8.99.0")
        // A library put in that folder, which the loader would now find first: not believed.
        #expect(FileManager.default.createFile(atPath: libraries + "/libvips.so.42", contents: Data()))
        #expect(LibraryStamp.version(cacheFolder: folder, environment: environment) == ImageCodec.version)
        // Without a cache folder there is no stamp: libvips says.
        #expect(LibraryStamp.version(cacheFolder: nil, environment: [:]) == ImageCodec.version)
    }
}
