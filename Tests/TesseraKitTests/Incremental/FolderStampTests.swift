#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing
@testable import TesseraKit

/// The build cache's walk skips reading a folder whose stamp (inode, modification and change
/// times) is what the last walk recorded: its entries are then the recorded ones. These tests
/// check that the recorded lists are really what is used, that any other stamp means the folder
/// is read, and that a folder changed in the last two seconds is never trusted.
@Suite struct FolderStampTests {
    static func makeTree() throws -> TemporarySite.Folder {
        let folder = TemporarySite.Folder(NSTemporaryDirectory() + "stamps-\(UUID().uuidString)")
        for path in ["a.md", "posts/one.md", "posts/two.md", "posts/deep/three.md"] {
            let full = folder.path + "/" + path
            try FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try Data(path.utf8).write(to: URL(fileURLWithPath: full))
        }
        return folder
    }

    static func stamp(_ path: String) -> FolderStamp {
        var info = stat()
        #expect(stat(path, &info) == 0)
        return FolderStamp(info)
    }

    static func walk(_ root: String, _ known: FileTree.KnownTree? = nil) -> [String]? {
        FileTree.statWalk(root, known: known)?.files.map(\.relative)
    }

    @Test func aFreshWalkListsEverythingAndRecordsNoTrustedStamp() throws {
        let tree = try Self.makeTree()
        let walk = try #require(FileTree.statWalk(tree.path, known: nil))
        #expect(walk.files.map(\.relative) == ["a.md", "posts/deep/three.md", "posts/one.md", "posts/two.md"])
        #expect(Set(walk.folders.keys) == ["", "posts", "posts/deep"])
        // Just made: changed within the last two seconds, so recorded but never matched.
        #expect(walk.folders.values.allSatisfy { $0.changed == 0 && $0.modified == 0 })
        #expect(walk.changed, "no stamps were known")
    }

    @Test func aFolderWithItsRecordedStampIsListedFromTheRecord() throws {
        let tree = try Self.makeTree()
        let stamps = ["": Self.stamp(tree.path), "posts": Self.stamp(tree.path + "/posts"), "posts/deep": Self.stamp(tree.path + "/posts/deep")]
        // The record leaves out posts/two.md: a trusted folder is not read, so it is not listed.
        let partial = FileTree.KnownTree(stamps: stamps, files: ["a.md", "posts/one.md", "posts/deep/three.md"])
        #expect(Self.walk(tree.path, partial) == ["a.md", "posts/deep/three.md", "posts/one.md"])
        // A recorded file that is not there fails the walk (the caller then does a full build).
        let ghost = FileTree.KnownTree(stamps: stamps, files: ["a.md", "posts/gone.md"])
        #expect(Self.walk(tree.path, ghost) == nil)
    }

    @Test func anyOtherStampMeansTheFolderIsRead() throws {
        let tree = try Self.makeTree()
        let posts = Self.stamp(tree.path + "/posts")
        let stamps = ["": Self.stamp(tree.path), "posts/deep": Self.stamp(tree.path + "/posts/deep")]
        let files = ["a.md", "posts/one.md", "posts/deep/three.md"]
        var others = [posts, posts, posts]
        others[0].inode += 1
        others[1].modified += 1
        others[2].changed += 1
        for other in others {
            let known = FileTree.KnownTree(stamps: stamps.merging(["posts": other]) { $1 }, files: files)
            #expect(Self.walk(tree.path, known) == ["a.md", "posts/deep/three.md", "posts/one.md", "posts/two.md"], "posts/ is read: two.md is seen")
        }
        // Adding a file changes the folder's stamp: the recorded one no longer matches.
        let root = FileTree.KnownTree(stamps: ["": Self.stamp(tree.path)], files: ["a.md"])
        try Data("new".utf8).write(to: URL(fileURLWithPath: tree.path + "/b.md"))
        #expect(Self.walk(tree.path, root)?.contains("b.md") == true)
    }

    @Test func aMissingFolderIsAnEmptyWalk() throws {
        let walk = try #require(FileTree.statWalk(NSTemporaryDirectory() + "missing-\(UUID().uuidString)", known: nil))
        #expect(walk.files.isEmpty && walk.folders.isEmpty && !walk.changed)
    }

    @Test func aWalkSharedByTwoThreadsFindsWhatOneThreadFinds() throws {
        let tree = try Self.makeTree()
        for index in 0..<200 {
            let folder = tree.path + "/many/\(index)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/index.html"))
        }
        let alone = try #require(Self.walk(tree.path))
        let shared = try #require(SharedStatWalk(tree.path, known: nil))
        DispatchQueue.concurrentPerform(iterations: 3) { _ in shared.work() }
        let result = try #require(shared.result())
        #expect(result.files.map(\.relative).sorted() == alone)
        #expect(result.folders.count == 204, "the root, posts, posts/deep, many and its 200")
    }
}
