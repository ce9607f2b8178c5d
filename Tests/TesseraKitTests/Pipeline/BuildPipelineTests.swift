import Foundation
import Testing
@testable import TesseraKit

/// The pipeline is a value of typed stages: a step added over a product runs in its place and is
/// timed by name, and the cache layer runs the same stages with or without a cache.
@Suite struct BuildPipelineTests {
    static let files = [
        "content/index.md": "---\ntitle: Home\n---\nHello.\n",
        "content/a.md": "---\ntitle: A\ndate: 2024-01-02\n---\nBody of *A*.\n",
    ]

    @Test func aStepAddedOverRenderedPagesWritesItsFileAndIsTimed() throws {
        let site = try TemporarySite(Self.files)
        var pipeline = BuildPipeline.standard
        // A plugin: one file listing every page's URL, made from the rendered site.
        pipeline.render.steps.append(Step("page list") { rendered, _ in
            let urls = rendered.pages.map(\.url).sorted().joined(separator: "\n")
            rendered.outputs.append(.text("pages.txt", urls + "\n"))
        })
        let (built, report) = try SiteBuilder(options: site.options(), pipeline: pipeline).run()
        #expect(try String(contentsOfFile: site.output + "/pages.txt", encoding: .utf8) == "/\n/a/\n")
        #expect(built.changedOutputs.contains("pages.txt"))
        let names = report.stepTimings.map(\.step)
        #expect(names.firstIndex(of: "page list") == names.firstIndex(of: "search index").map { $0 + 1 }, "after the standard render steps: \(names)")
    }

    @Test func timingsNameEveryStepInPipelineOrder() throws {
        let site = try TemporarySite(Self.files)
        let report = try SiteBuilder(options: site.options()).build()
        #expect(report.stepTimings.map(\.step) == BuildPipeline.standard.stepNames)
        #expect(report.stepTimings.allSatisfy { $0.seconds >= 0 }, "a step timed inside another counts once")
    }

    @Test func aCachedBuildRunsTheSameStagesAsAnUncachedOne() throws {
        let site = try TemporarySite(Self.files)
        var options = site.options()
        let plain = try SiteBuilder(options: options).build()
        options.cacheDirectory = site.root + "/.tessera/cache"
        options.outputDirectory = site.root + "/cached"
        let cached = try SiteBuilder(options: options).build()
        #expect(cached.stepTimings.map(\.step) == plain.stepTimings.map(\.step))
        // Nothing changed: the cache layer ends the build after comparing, before loading anything.
        let again = try SiteBuilder(options: options).build()
        #expect(again.upToDate)
        #expect(again.stepTimings.map(\.step) == Array(BuildPipeline.standard.stepNames.prefix { $0 != "load templates" }))
    }

    @Test func aStageThatThrowsEndsTheBuildWithItsErrorAndWritesNothing() throws {
        let site = try TemporarySite(Self.files)
        var pipeline = BuildPipeline.standard
        pipeline.route.steps.insert(Step("refuse") { _, _ in throw TesseraError("refused by a step") }, at: 0)
        #expect {
            try SiteBuilder(options: site.options(), pipeline: pipeline).build()
        } throws: { error in
            (error as? TesseraError)?.diagnostics.map(\.message) == ["refused by a step"]
        }
        #expect(!FileManager.default.fileExists(atPath: site.output + "/index.html"))
    }
}
