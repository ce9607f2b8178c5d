import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

extension Serve {
    /// Every page of the example site as assistive technology reads it: Chromium's accessibility
    /// tree (`Accessibility.getFullAXTree`), not the HTML. Each page has one `main`, a banner and
    /// a content-info landmark, navigation, exactly one level-1 heading, and an outline that never
    /// skips a level (h1 → h3), so the headings make sense read alone.
    @Suite(.enabled(if: HeadlessChromium.isAvailable, "chromium is not on PATH"), .serialized, .timeLimit(.minutes(3)))
    struct AccessibilityTreeTests {
        struct Node {
            var role: String
            var name: String
            var level: Int?
        }

        /// The tree's nodes that are not ignored, in document order: depth first from the root
        /// through `childIds` (the protocol's list is not in document order), ignored nodes passed
        /// through.
        static func tree(of page: DevToolsPage) async throws -> [Node] {
            let answer = try await page.send("Accessibility.getFullAXTree")
            let nodes = answer["nodes"] as? [[String: Any]] ?? []
            var byID: [String: [String: Any]] = [:]
            var isChild = Set<String>()
            for node in nodes {
                if let id = node["nodeId"] as? String { byID[id] = node }
                for child in node["childIds"] as? [String] ?? [] { isChild.insert(child) }
            }
            var ordered: [Node] = []
            func visit(_ id: String) {
                guard let node = byID[id] else { return }
                if node["ignored"] as? Bool != true {
                    let role = ((node["role"] as? [String: Any])?["value"] as? String) ?? ""
                    let name = ((node["name"] as? [String: Any])?["value"] as? String) ?? ""
                    let properties = node["properties"] as? [[String: Any]] ?? []
                    let level = properties.first { $0["name"] as? String == "level" }.flatMap { ($0["value"] as? [String: Any])?["value"] as? Int }
                    ordered.append(Node(role: role, name: name, level: level))
                }
                for child in node["childIds"] as? [String] ?? [] { visit(child) }
            }
            for node in nodes {
                if let id = node["nodeId"] as? String, !isChild.contains(id) { visit(id) }
            }
            return ordered
        }

        @Test func everyPageHasLandmarksAndAnOutlineThatReadsAlone() async throws {
            let output = try EndToEndTests.temporaryDirectory()
            let build = try EndToEndTests.tessera(["build", "--no-cache", "--output", output], in: EndToEndTests.repositoryRoot)
            try #require(build.status == 0, "\(build.stderr)")
            let server = try StaticServer(root: output)
            defer { server.stop() }
            let pages = try FileManager.default.subpathsOfDirectory(atPath: output)
                .filter { $0.hasSuffix("index.html") || $0 == "404.html" }
                .filter { !$0.contains("/page/") }  // later pages of a list: the same template as the first
                .sorted()
            try #require(pages.count > 20)
            let browser = try HeadlessChromium(lifetime: .seconds(150))
            defer { browser.stop() }
            var problems: [String] = []
            for path in pages {
                let url = "http://127.0.0.1:\(server.port)/" + (path == "index.html" ? "" : path.replacingOccurrences(of: "index.html", with: ""))
                // A tab per page, opened at its URL: evaluating in a tab while it navigates away
                // can go unanswered.
                let tab = try await DevToolsPage(in: browser, url: url)
                try await tab.waitUntil("String(location.href === '\(url)' && document.readyState === 'complete')", is: "true")
                let nodes = try await Self.tree(of: tab)
                try await tab.close()
                let roles = nodes.map(\.role)
                func count(_ role: String) -> Int { roles.filter { $0 == role }.count }
                if count("main") != 1 { problems.append("\(path): \(count("main")) main landmarks") }
                if count("banner") != 1 { problems.append("\(path): \(count("banner")) banner landmarks") }
                if count("contentinfo") != 1 { problems.append("\(path): \(count("contentinfo")) contentinfo landmarks") }
                if count("navigation") < 1 { problems.append("\(path): no navigation landmark") }
                let headings = nodes.filter { $0.role == "heading" }
                let levels = headings.compactMap(\.level)
                if levels.filter({ $0 == 1 }).count != 1 { problems.append("\(path): \(levels.filter { $0 == 1 }.count) level-1 headings") }
                if levels.first != 1 { problems.append("\(path): the first heading is h\(levels.first ?? 0), not h1") }
                for (previous, next) in zip(levels, levels.dropFirst()) where next > previous + 1 {
                    problems.append("\(path): the outline skips from h\(previous) to h\(next)")
                    break
                }
                for heading in headings where heading.name.trimmingCharacters(in: .whitespaces).isEmpty {
                    problems.append("\(path): an empty h\(heading.level ?? 0)")
                }
                // Every navigation and region landmark has a name, so a list of landmarks tells them apart.
                let unnamed = nodes.filter { ($0.role == "navigation" || $0.role == "region") && $0.name.isEmpty }
                if count("navigation") > 1 && !unnamed.isEmpty { problems.append("\(path): \(unnamed.count) unnamed navigation/region landmarks") }
            }
            #expect(problems.isEmpty, "\(problems.joined(separator: "\n"))")
        }
    }
}

/// Python's file server on a free loopback port, for pages that need a real origin.
final class StaticServer {
    let port: Int
    private let process = Process()

    init(root: String) throws {
        var found = 0
        for candidate in 20000..<20100 {
            let probe = Process()
            probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            probe.arguments = ["python3", "-c", "import socket; s = socket.socket(); s.bind(('127.0.0.1', \(candidate)))"]
            probe.standardError = FileHandle.nullDevice
            try probe.run()
            probe.waitUntilExit()
            if probe.terminationStatus == 0 { found = candidate; break }
        }
        guard found > 0 else { throw BrowserError("no free port for the file server") }
        port = found
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-m", "http.server", String(port), "--bind", "127.0.0.1", "--directory", root]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Ready once it accepts a connection (Foundation's synchronous URL loading spins on Linux).
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        probe.arguments = ["python3", "-c", """
            import socket, time
            for _ in range(100):
                try:
                    socket.create_connection(("127.0.0.1", \(port)), 1).close(); raise SystemExit(0)
                except OSError:
                    time.sleep(0.1)
            raise SystemExit(1)
            """]
        try probe.run()
        probe.waitUntilExit()
        guard probe.terminationStatus == 0 else { throw BrowserError("the file server did not start") }
    }

    /// SIGKILL, not SIGTERM: the preview tests run service groups in this process, which set
    /// SIGTERM to be ignored, and children inherit that.
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}
