import Foundation
import HummingbirdTesting
import Testing
@testable import TesseraCLI

extension Serve {
    /// Generated request paths against the preview's URL-to-file mapping: percent-encoding once
    /// and twice, encoded `/` and `\`, NUL, overlong and invalid UTF-8, `..` in every spelling,
    /// Windows separators and drive letters, a link out of the folder, many slashes and 64 KB
    /// names. Whatever the path: never a file outside the output folder, never a crash, and a 400
    /// exactly when `RequestPath` refuses it (else 200, 301 or 404). Seeded;
    /// `TESSERA_PATH_CASES=N` tries more (default 2,000 mapped, one in ten also requested).
    struct GeneratedRequestPathTests {
        static let cases = ProcessInfo.processInfo.environment["TESSERA_PATH_CASES"].flatMap(Int.init) ?? 2_000

        /// Pieces of names: traversal in its spellings, separators, escapes good and bad, and names
        /// that exist (inside, and through the link `escape` to the folder beside the output).
        static let atoms = [
            "..", ".", "...", "%2e%2e", "%2E%2e", ".%2E", "%2e.", "%2e", "%252e%252e", "%25%32%65", "%%32%65", "..;", "..%3b", ";",
            "..\\", "\\", "%5c", "%5C", "%255c", "/", "%2f", "%2F", "%252f", "%00", "%2500", "\u{0}",
            "%c0%ae%c0%ae", "%c0%af", "%e0%80%ae", "%c1%9c", "%ff", "%fe%ff", "%c3%28", "%ed%a0%80", "%f4%90%80%80",
            "C:", "c:\\", "C%3A", "C:%5cwindows", "\\\\server", "%", "%g0", "%2", "%%", "~", "%7e", "%20", "+",
            "outside", "secret.txt", "escape", "index.html", "blog", "404.html", "caf%C3%A9", "café", "\u{202E}",
        ]

        /// A path of a few names, each a few atoms; now and then a 64 KB name or a run of slashes.
        static func path(_ random: inout SplitMix64) -> String {
            var path = ""
            for _ in 0..<Int.random(in: 0...5, using: &random) {
                path += String(repeating: "/", count: Int.random(in: 0..<20, using: &random) == 0 ? Int.random(in: 2...300, using: &random) : 1)
                if Int.random(in: 0..<200, using: &random) == 0 {
                    path += String(repeating: Int.random(in: 0..<2, using: &random) == 0 ? "a" : "%2e", count: 65_536 / 3)
                    continue
                }
                for _ in 0..<Int.random(in: 1...3, using: &random) { path += atoms.randomElement(using: &random)! }
            }
            if Int.random(in: 0..<10, using: &random) == 0 { path += "/" }
            if path.isEmpty { return "/" }
            // Now and then not absolute (an empty target is "/" to any client, so never empty).
            return Int.random(in: 0..<30, using: &random) == 0 && path.count > 1 ? String(path.dropFirst()) : path
        }

        static func site() throws -> PreviewFixture {
            let site = try PreviewFixture(files: ["index.html": "home", "blog/index.html": "blog", "404.html": "missing", "café": "cafe"])
            try site.link("escape", to: site.outside)
            return site
        }

        @Test func noPathMapsToAFileOutsideTheOutput() throws {
            let site = try Self.site()
            let folder = OutputFolder(path: site.output)
            let root = try #require(OutputFolder.realPath(site.output))
            var random = SplitMix64(seed: 27)
            var served = 0
            for _ in 0..<Self.cases {
                let raw = Self.path(&random)
                guard let path = try? RequestPath(raw) else { continue }
                for name in path.names {
                    #expect(!name.isEmpty && name != "." && name != ".." && !name.contains("/") && !name.contains("\\") && !name.contains("\u{0}"),
                            "\(raw.prefix(200)) decodes to the name \(name.debugDescription.prefix(200))")
                }
                if case .file(let file) = folder.lookUp(path) {
                    served += 1
                    #expect(OutputFolder.isInside(file, root: root) && !file.hasSuffix("secret.txt"), "\(raw.prefix(200)) → \(file)")
                }
            }
            // The generator reaches real files too, so the check above is not vacuous.
            #expect(served > 10)
        }

        @Test func everyRequestIsAnsweredAndNonsenseIsA400() async throws {
            let site = try Self.site()
            var random = SplitMix64(seed: 4_027)
            // The HTTP client sends what a URL can hold: no NUL, no raw non-ASCII.
            let paths = (0..<Self.cases).map { _ in Self.path(&random) }.enumerated()
                .filter { $0.offset % 10 == 0 && $0.element.allSatisfy { $0.isASCII && $0 != "\u{0}" } }.map(\.element)
            try await site.test { client in
                for raw in paths {
                    let response = try await client.execute(uri: raw, method: .get)
                    let refused = (try? RequestPath(raw)) == nil
                    let context = "\(raw.prefix(200)) → \(response.status.code)"
                    #expect(refused ? response.status == .badRequest : [200, 301, 404].contains(response.status.code), "\(context)")
                    #expect(!response.text.contains("secret outside the site"), "\(context)")
                }
            }
        }
    }
}
