import Foundation
import Testing

/// Images through the `tessera` binary: what a build without a cache leaves behind.
@Suite struct ImageCommandTests {
    /// A site of the default theme with one photo (a cover of the example site).
    static func site() throws -> String {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-images-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root + "/static", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/content", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: EndToEndTests.repositoryRoot + "/static/images/covers/feeds.jpg", toPath: root + "/static/feeds.jpg")
        try "title: Photos\ntheme: default\n".write(toFile: root + "/site.yml", atomically: true, encoding: .utf8)
        try "---\ntitle: Home\n---\n![A feed](/feeds.jpg)\n".write(toFile: root + "/content/index.md", atomically: true, encoding: .utf8)
        return root
    }

    @Test func aBuildWithoutACacheLeavesNoTemporaryFolder() throws {
        let root = try Self.site()
        defer { try? FileManager.default.removeItem(atPath: root) }
        // The child's temporary folder is one of its own, empty, so anything left in it is the build's.
        let temporary = root + "-tmp"
        try FileManager.default.createDirectory(atPath: temporary, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: temporary) }
        let run = try EndToEndTests.tessera(["build", "--no-cache"], in: root, environment: ["TMPDIR": temporary + "/"])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: root + "/public").contains { $0.hasPrefix("feeds.") && $0.hasSuffix(".webp") })
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary) == [])
    }
}
