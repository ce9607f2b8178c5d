import Foundation
import Testing

/// Runs the real `tessera` binary, as a user would.
@Suite(.serialized) struct EndToEndTests {
    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    static let binary: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("tessera").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        var url = URL(fileURLWithPath: #filePath)
        while url.path != "/" {
            url.deleteLastPathComponent()
            let candidate = url.appendingPathComponent(".build/debug/tessera").path
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return beside
    }()

    static var repositoryRoot: String {
        var url = URL(fileURLWithPath: #filePath)
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { url.deleteLastPathComponent() }
        return url.path
    }

    @discardableResult
    static func tessera(_ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> Run {
        try run(binary, arguments, in: directory, environment: environment)
    }

    /// Runs a program to its end and returns what it printed.
    static func run(_ executable: String, _ arguments: [String], in directory: String? = nil, environment: [String: String] = [:]) throws -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        // Both read at once: a child that fills one pipe while the other is read would wait for
        // ever (the dynamic loader's log fills standard error before anything is printed).
        nonisolated(unsafe) var stderr = Data()
        let errors = DispatchGroup()
        DispatchQueue.global().async(group: errors) { stderr = err.fileHandleForReading.readDataToEndOfFile() }
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        errors.wait()
        process.waitUntilExit()
        return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }

    static func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("tessera-e2e-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test func theBuildCacheSkipsAnUnchangedSiteWithFewFileHandles() throws {
        let dir = try Self.temporaryDirectory()
        #expect(try Self.tessera(["new", "site"], in: dir).status == 0)
        // 300 pages, each written to its own folder: the output tree has more folders than the
        // process may open files at once.
        for index in 0..<300 {
            try "---\ntitle: Page \(index)\n---\nBody \(index).\n".write(toFile: dir + "/site/content/page-\(index).md", atomically: true, encoding: .utf8)
        }
        func build(_ arguments: String = "") throws -> Run {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n 64 && exec \"$0\" build \(arguments)", Self.binary]
            process.currentDirectoryURL = URL(fileURLWithPath: dir + "/site")
            let out = Pipe(), err = Pipe()
            process.standardOutput = out
            process.standardError = err
            try process.run()
            let stdout = out.fileHandleForReading.readDataToEndOfFile(), stderr = err.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return Run(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
        }
        let first = try build()
        #expect(first.status == 0 && first.stdout.hasPrefix("Built 303 pages"), "\(first.stdout)\(first.stderr)")
        #expect(FileManager.default.fileExists(atPath: dir + "/site/.tessera/cache"))
        let second = try build()
        #expect(second.status == 0 && second.stdout.hasPrefix("Up to date: 303 pages"), "\(second.stdout)\(second.stderr)")
        try "---\ntitle: Page 7\n---\nBody 7.\n\nA new body.\n".write(toFile: dir + "/site/content/page-7.md", atomically: true, encoding: .utf8)
        let third = try build()
        #expect(third.status == 0 && third.stdout.contains("302 unchanged pages kept from the last build"), "\(third.stdout)\(third.stderr)")
        #expect(try String(contentsOfFile: dir + "/site/public/page-7/index.html", encoding: .utf8).contains("A new body."))
        let full = try build("--no-cache")
        #expect(full.status == 0 && full.stdout.hasPrefix("Built 303 pages") && !full.stdout.contains("kept"), "\(full.stdout)\(full.stderr)")
    }

    @Test func newSiteBuildsAtOnce() throws {
        let dir = try Self.temporaryDirectory()
        let created = try Self.tessera(["new", "blog", "--title", "My \"Blog\""], in: dir)
        #expect(created.status == 0, "\(created.stderr)")
        #expect(created.stdout.contains("Created a site in blog"))
        let built = try Self.tessera(["build"], in: dir + "/blog")
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.hasPrefix("Built 3 pages and "))
        #expect(built.stdout.hasSuffix("→ public\n"))
        let home = try String(contentsOfFile: dir + "/blog/public/index.html", encoding: .utf8)
        #expect(home.contains("My &quot;Blog&quot;"))
        #expect(FileManager.default.fileExists(atPath: dir + "/blog/public/about/index.html"))
        let again = try Self.tessera(["new", "blog"], in: dir)
        #expect(again.status != 0, "new refuses a folder that is not empty")
        #expect(again.stderr.contains("already exists and is not empty"))
    }

    @Test func timingsListEveryStepWithItsWholeNameInOneColumn() throws {
        let dir = try Self.temporaryDirectory()
        try Self.tessera(["new", "site"], in: dir)
        let run = try Self.tessera(["build", "--timings", "--no-cache"], in: dir + "/site")
        #expect(run.status == 0, "\(run.stderr)")
        let lines = run.stdout.split(separator: "\n").filter { $0.hasSuffix(" ms") }
        // A line is the name, padding, the figure and "ms".
        let names = lines.map { $0.split(separator: " ").dropLast(2).joined(separator: " ") }
        #expect(names.contains("compare with last build") && names.contains("load content") && names.contains("write output"), "\(run.stdout)")
        // The figures start in one column, after the longest name.
        let columns = Set(lines.map { line in line.distance(from: line.startIndex, to: line.lastIndex(of: " ")!) })
        #expect(lines.count > 10 && columns.count == 1, "\(run.stdout)")
        #expect(run.stdout.hasSuffix("→ public\n"))
    }

    @Test func buildOfABrokenSiteExitsNonZeroWithDiagnosticsAndKeepsPublic() throws {
        let dir = try Self.temporaryDirectory()
        try Self.tessera(["new", "site"], in: dir)
        let site = dir + "/site"
        #expect(try Self.tessera(["build"], in: site).status == 0)
        let before = try String(contentsOfFile: site + "/public/index.html", encoding: .utf8)
        try "---\ntitle: X\ncomponents:\n  - component: notise\n    message: Hi\n---\n".write(toFile: site + "/content/index.md", atomically: true, encoding: .utf8)
        let run = try Self.tessera(["build", "--source", "site"], in: dir)
        #expect(run.status == 1)
        #expect(run.stderr == """
            site/content/index.md:4:16: error: unknown component 'notise'
              4 |   - component: notise
                |                ^
                hint: did you mean 'notice'? `tessera components` lists them all
            build failed with 1 error

            """)
        #expect(run.stdout.isEmpty, "no success line for a failed build")
        #expect(try String(contentsOfFile: site + "/public/index.html", encoding: .utf8) == before)
    }

    @Test func buildOptionsOutputDraftsAndBuildDate() throws {
        let dir = try Self.temporaryDirectory()
        try Self.tessera(["new", "site"], in: dir)
        let site = dir + "/site"
        try "---\ntitle: Later\ndraft: true\ncomponents:\n  - { component: course-progress, title: T, progress: 0.5, updated: 2026-01-01 }\n---\n".write(toFile: site + "/content/later.md", atomically: true, encoding: .utf8)
        let plain = try Self.tessera(["build", "-s", site, "-o", dir + "/out"])
        #expect(plain.stdout.contains("(1 draft left out; --drafts includes them)"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/out/later/index.html"))
        let drafts = try Self.tessera(["build", "-s", site, "-o", dir + "/out", "--drafts", "--build-date", "2026-01-04"])
        #expect(drafts.status == 0, "\(drafts.stderr)")
        let later = try String(contentsOfFile: dir + "/out/later/index.html", encoding: .utf8)
        #expect(later.contains("3 days ago"))
        let badDate = try Self.tessera(["build", "-s", site, "--build-date", "tomorrow"])
        #expect(badDate.status != 0)
        #expect(badDate.stderr.contains("--build-date 'tomorrow' is not a date"))
        let noSuchDay = try Self.tessera(["build", "-s", site, "--build-date", "2026-11-31"])
        #expect(noSuchDay.status != 0)
        #expect(noSuchDay.stderr.contains("--build-date '2026-11-31' is not a date: November 2026 has 30 days; write a day from 01 to 30, as in 2026-11-30"), "\(noSuchDay.stderr)")
    }

    @Test func sourceDateEpochFixesRelativeDates() throws {
        let dir = try Self.temporaryDirectory()
        try Self.tessera(["new", "site"], in: dir)
        let site = dir + "/site"
        try "---\ncomponents:\n  - { component: course-progress, title: T, progress: 0.5, updated: 2026-01-01 }\n---\n".write(toFile: site + "/content/index.md", atomically: true, encoding: .utf8)
        try Self.tessera(["build"], in: site, environment: ["SOURCE_DATE_EPOCH": "1767484800"]) // 2026-01-04
        #expect(try String(contentsOfFile: site + "/public/index.html", encoding: .utf8).contains("3 days ago"))
    }

    @Test func checkValidatesWithoutWriting() throws {
        let dir = try Self.temporaryDirectory()
        try Self.tessera(["new", "site"], in: dir)
        let run = try Self.tessera(["check"], in: dir + "/site")
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.contains("Checked 3 pages"))
        #expect(run.stdout.contains("Translations:\n  en: "), "per-language coverage of the translation tables")
        #expect(!FileManager.default.fileExists(atPath: dir + "/site/public"))
    }

    @Test func codegenWritesItsFileButNeverReplacesTheUsers() throws {
        let dir = try Self.temporaryDirectory()
        let first = try Self.tessera(["codegen", "swift", "--source", Self.repositoryRoot, "--output", dir])
        #expect(first.status == 0 && first.stdout.contains("Wrote \(dir)/TesseraContent.swift"), "\(first.stderr)")
        #expect(try Self.tessera(["codegen", "swift", "--source", Self.repositoryRoot, "--output", dir]).status == 0, "its own file is regenerated")
        try "// my types\n".write(toFile: dir + "/tessera-content.ts", atomically: true, encoding: .utf8)
        let refused = try Self.tessera(["codegen", "typescript", "--source", Self.repositoryRoot, "--output", dir])
        #expect(refused.status == 1 && refused.stderr.contains("was not generated by Tessera"), "\(refused.stderr)")
        #expect(try String(contentsOfFile: dir + "/tessera-content.ts", encoding: .utf8) == "// my types\n")
        let printed = try Self.tessera(["codegen", "typescript", "--source", Self.repositoryRoot, "--output", "-"])
        #expect(printed.stdout.contains("export type TesseraComponent ="))
        #expect(try Self.tessera(["codegen", "kotlin"]).status == 64)
    }

    @Test func schemaDiffExitsOneOnABreakingChange() throws {
        let dir = try Self.temporaryDirectory()
        try Self.tessera(["new", "site"], in: dir)
        let site = dir + "/site"
        #expect(try Self.tessera(["theme", "eject"], in: site).status == 0)
        try Self.tessera(["build", "--output", dir + "/old"], in: site)
        let schemaFile = site + "/themes/default/components/stat.yml"
        let schema = try String(contentsOfFile: schemaFile, encoding: .utf8)
        // An accent colour goes, and a caption is added.
        try schema.replacingOccurrences(of: "purple, pink, teal]", with: "purple, pink]").replacingOccurrences(of: "  period: { type: text,", with: "  caption: text\n  period: { type: text,")
            .write(toFile: schemaFile, atomically: true, encoding: .utf8)
        try Self.tessera(["build", "--output", dir + "/new"], in: site)
        let same = try Self.tessera(["schema", "diff", dir + "/old/api/schema.json", dir + "/old/api/schema.json"])
        #expect(same.status == 0 && same.stdout == "No changes.\n")
        let diff = try Self.tessera(["schema", "diff", dir + "/old/api/schema.json", dir + "/new/api/schema.json"])
        #expect(diff.status == 1, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.contains("breaking: enum value 'teal' of field 'accent' of 'stat' was removed"))
        #expect(diff.stdout.contains("compatible: field 'caption' was added to 'stat'"))
        let missing = try Self.tessera(["schema", "diff", dir + "/nope.json", dir + "/old/api/schema.json"])
        #expect(missing.status == 1 && missing.stderr.contains("cannot read"))
    }

    @Test func componentsListsTheCatalogAsTextAndJSON() throws {
        let text = try Self.tessera(["components", "--source", Self.repositoryRoot])
        #expect(text.status == 0, "\(text.stderr)")
        #expect(text.stdout.contains("course-progress  (shell: card)"))
        #expect(text.stdout.contains("    progress: percent, required"))
        let json = try Self.tessera(["components", "--json", "--source", Self.repositoryRoot])
        let entries = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]]
        let notice = try #require(entries?.first { $0["code"] as? String == "notice" })
        #expect(notice["shell"] as? String == "none")
        let tone = (notice["fields"] as? [[String: Any]])?.first { $0["name"] as? String == "tone" }
        #expect(tone?["type"] as? String == "enum" && tone?["default"] as? String == "info")
        #expect(tone?["values"] as? [String] == ["info", "success", "warning", "error"])
        #expect(text.stdout.contains("    tone: enum [info|success|warning|error], default info"), "\(text.stdout)")
    }

    @Test func exampleSiteBuilds() throws {
        let output = try Self.temporaryDirectory() + "/public"
        let run = try Self.tessera(["build", "--source", Self.repositoryRoot, "--output", output])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(run.stdout.hasPrefix("Built "))
        #expect(FileManager.default.fileExists(atPath: output + "/index.html"))
    }

    @Test func helpForEachCommand() throws {
        for command in ["build", "check", "new", "components"] {
            let run = try Self.tessera([command, "--help"])
            #expect(run.status == 0)
            #expect(run.stdout.contains("USAGE: tessera \(command)"))
        }
    }
}
