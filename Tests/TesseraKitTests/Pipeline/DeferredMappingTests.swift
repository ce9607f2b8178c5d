import Foundation
import Synchronization
import Testing
@testable import TesseraKit

/// A full build maps each page as it renders it (`DeferredMapping`) unless a step over the mapped
/// site reads every view; both ways write the same bytes, and a page that fails to map fails
/// the build with the output left as it was.
@Suite struct DeferredMappingTests {
    /// Whether the mapping stage deferred, once it ran.
    final class Seen: Sendable {
        let deferred = Mutex<Bool?>(nil)
        var value: Bool? { deferred.withLock { $0 } }
        init() {}
    }

    /// The standard pipeline with its mapping stage reporting whether it deferred.
    static func observed(_ seen: Seen) -> BuildPipeline {
        var pipeline = BuildPipeline.standard
        let map = pipeline.map
        pipeline.map = Stage(map.name, steps: map.steps) { routed, context in
            let mapped = try map.make(routed, context)
            seen.deferred.withLock { $0 = mapped.deferred != nil }
            return mapped
        }
        return pipeline
    }

    @Test func theExampleSiteIsTheSameMappedAsItRendersAndMappedFirst() throws {
        let deferred = Seen(), eager = Seen()
        let streamed = ExampleSite.temporaryDirectory("tessera-deferred")
        let mappedFirst = ExampleSite.temporaryDirectory("tessera-eager")
        defer { try? FileManager.default.removeItem(atPath: streamed); try? FileManager.default.removeItem(atPath: mappedFirst) }
        _ = try ExampleSite.build(writingTo: streamed, pipeline: Self.observed(deferred))
        var reading = Self.observed(eager)
        // A step over the mapped site needs every view at once: the stage makes them all first.
        let counted = Mutex(0)
        reading.map.steps.append(Step("count views") { mapped, _ in counted.withLock { $0 = mapped.views.count } })
        _ = try ExampleSite.build(writingTo: mappedFirst, pipeline: reading)
        #expect(deferred.value == true)
        #expect(eager.value == false)
        #expect(counted.withLock { $0 } > 20)
        let a = OutputSafetyTests.snapshot(streamed), b = OutputSafetyTests.snapshot(mappedFirst)
        #expect(a.count > 100)
        #expect(a.keys.sorted() == b.keys.sorted())
        #expect(a.filter { b[$0.key] != $0.value }.keys.sorted() == [])
    }

    @Test func aPageThatFailsToMapFailsTheBuildAndLeavesTheOutput() throws {
        let site = try TemporarySite([
            "content/index.md": "---\ntitle: Home\n---\nHello.\n",
            "content/a.md": "---\ntitle: A\n---\nBody.\n",
        ])
        try SiteBuilder(options: site.options()).build()
        let before = OutputSafetyTests.snapshot(site.output)
        #expect(before["a/index.html"] != nil)
        try "---\ntitle: A\nsections:\n  - items:\n      - component: no-such-component\n---\nBody.\n"
            .write(toFile: site.root + "/content/a.md", atomically: true, encoding: .utf8)
        let deferred = Seen()
        #expect {
            try SiteBuilder(options: site.options(), pipeline: Self.observed(deferred)).build()
        } throws: { error in
            let messages = (error as? TesseraError)?.diagnostics.map { $0.formatted(relativeTo: site.root) } ?? []
            return messages.count == 1 && messages[0].contains("content/a.md") && messages[0].contains("no-such-component")
        }
        #expect(deferred.value == true)
        #expect(OutputSafetyTests.snapshot(site.output) == before)
    }
}
