import Foundation
import Testing

/// Every site, schema and template example of `README.md` and `Documentation/` is built here with
/// the real binary, so the documentation cannot drift from what Tessera does.
///
/// A fenced block's info string is its language, then attributes a reader on GitHub never sees:
///
/// - `example=NAME`: the block belongs to the example site NAME of this document;
/// - `file=PATH`: the block is written to PATH in that site (a later block replaces it);
/// - `base=new` (on an example's first block): the site starts as `tessera new` writes it;
/// - `expect=PATH`: the site as it stands builds, and PATH contains the block;
/// - `expect-error`: the site as it stands fails to build, and the error says the block;
/// - in an `sh` block with `example=`, every `tessera …` line runs in the site's folder.
///
/// Blocks in a site-file language (YAML, Mustache, HTML, Markdown, JSON, CSS) must belong to an
/// example; commands, program code and terminal output are not checked.
@Suite(.serialized) struct DocumentationExamplesTests {
    struct Block: CustomStringConvertible {
        var document: String
        var line: Int
        var language: String
        var attributes: [String: String]
        var text: String
        var description: String { "\(document):\(line)" }
    }

    static let checkedLanguages: Set = ["yaml", "yml", "mustache", "html", "markdown", "md", "json", "css"]

    static var documents: [String] {
        let root = EndToEndTests.repositoryRoot
        let docs = (try? FileManager.default.contentsOfDirectory(atPath: root + "/Documentation")) ?? []
        return ["README.md"] + docs.filter { $0.hasSuffix(".md") }.sorted().map { "Documentation/" + $0 }
    }

    /// The fenced blocks of a Markdown document (backtick or tilde fences of three or more).
    static func blocks(of document: String) throws -> [Block] {
        let text = try String(contentsOfFile: EndToEndTests.repositoryRoot + "/" + document, encoding: .utf8)
        var blocks: [Block] = []
        var open: (fence: String, indent: Int, block: Block, lines: [String])?
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let trimmed = line.drop { $0 == " " }
            if var current = open {
                if trimmed.hasPrefix(current.fence), trimmed.allSatisfy({ $0 == current.fence.first || $0 == " " }) {
                    current.block.text = current.lines.joined(separator: "\n") + (current.lines.isEmpty ? "" : "\n")
                    blocks.append(current.block)
                    open = nil
                } else {
                    // Inside a fence indented by N spaces (a list item's), up to N are the fence's.
                    current.lines.append(String(line.dropFirst(min(line.count - trimmed.count, current.indent))))
                    open = current
                }
                continue
            }
            guard let marker = trimmed.first, marker == "`" || marker == "~" else { continue }
            let fence = String(trimmed.prefix { $0 == marker })
            guard fence.count >= 3 else { continue }
            let info = trimmed.dropFirst(fence.count).trimmingCharacters(in: .whitespaces)
            var words = Self.words(info)
            let language = words.isEmpty ? "" : words.removeFirst().lowercased()
            var attributes: [String: String] = [:]
            for word in words {
                let parts = word.split(separator: "=", maxSplits: 1)
                attributes[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
            }
            open = (fence, line.count - trimmed.count, Block(document: document, line: index + 1, language: language, attributes: attributes, text: ""), [])
        }
        return blocks
    }

    /// Space-separated words; double quotes keep spaces in a value.
    static func words(_ text: String) -> [String] {
        var words: [String] = [], current = "", quoted = false
        for character in text {
            if character == "\"" { quoted.toggle(); continue }
            if character == " " && !quoted {
                if !current.isEmpty { words.append(current) }
                current = ""
            } else {
                current.append(character)
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }

    /// Whitespace runs become one space, and none is left between tags.
    static func normalized(_ text: String) -> String {
        let collapsed = text.split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return collapsed.replacingOccurrences(of: "> <", with: "><")
    }

    @Test func everySiteSchemaAndTemplateBlockIsAnExample() throws {
        var unchecked: [String] = []
        var count = 0
        for document in Self.documents {
            for block in try Self.blocks(of: document) where Self.checkedLanguages.contains(block.language) {
                count += 1
                if block.attributes["example"] == nil {
                    unchecked.append("\(block) (\(block.language))")
                } else if block.attributes["file"] == nil && block.attributes["expect"] == nil && block.attributes["expect-error"] == nil {
                    unchecked.append("\(block): says neither file=, expect= nor expect-error")
                }
            }
        }
        #expect(count > 30, "the documentation's examples were not found")
        #expect(unchecked.isEmpty, "blocks that no test builds:\n\(unchecked.joined(separator: "\n"))")
    }

    @Test(arguments: documents) func theExamplesBuildAsDocumented(document: String) throws {
        var sites: [String: String] = [:]
        var built = Set<String>()
        func site(for block: Block) throws -> String {
            let name = block.attributes["example"]!
            if let folder = sites[name] { return folder }
            let parent = try EndToEndTests.temporaryDirectory()
            let folder = parent + "/site"
            if block.attributes["base"] == "new" {
                let run = try EndToEndTests.tessera(["new", "site"], in: parent)
                guard run.status == 0 else { throw ExampleFailure("\(block): tessera new failed: \(run.stderr)") }
            } else {
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            }
            sites[name] = folder
            return folder
        }
        func build(_ folder: String) throws -> EndToEndTests.Run {
            try EndToEndTests.tessera(["build", "--no-cache"], in: folder, environment: ["NO_COLOR": "1"])
        }
        for block in try Self.blocks(of: document) where block.attributes["example"] != nil {
            let folder = try site(for: block)
            if block.language == "sh" || block.language == "console" {
                for line in block.text.split(separator: "\n") {
                    let command = line.hasPrefix("$ ") ? line.dropFirst(2) : line[...]
                    guard command.hasPrefix("tessera ") else { continue }
                    let run = try EndToEndTests.tessera(Self.words(String(command.dropFirst("tessera ".count))), in: folder, environment: ["NO_COLOR": "1"])
                    #expect(run.status == 0, "\(block): `\(command)` failed:\n\(run.stdout)\(run.stderr)")
                }
                continue
            }
            if let file = block.attributes["file"] {
                #expect(!file.hasPrefix("/") && !file.split(separator: "/").contains(".."), "\(block): file= must stay inside the site")
                let path = folder + "/" + file
                try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
                try block.text.write(toFile: path, atomically: true, encoding: .utf8)
            }
            if let expected = block.attributes["expect"] {
                let run = try build(folder)
                built.insert(block.attributes["example"]!)
                guard run.status == 0 else {
                    Issue.record("\(block): the example does not build:\n\(run.stderr)")
                    continue
                }
                let output = (try? String(contentsOfFile: folder + "/" + expected, encoding: .utf8)) ?? ""
                #expect(!output.isEmpty, "\(block): the build wrote no \(expected)")
                #expect(Self.normalized(output).contains(Self.normalized(block.text)),
                        "\(block): \(expected) does not contain the documented text. It is:\n\(output)")
            }
            if block.attributes["expect-error"] != nil {
                let run = try build(folder)
                built.insert(block.attributes["example"]!)
                #expect(run.status != 0, "\(block): the example should fail to build, but built:\n\(run.stdout)")
                #expect(Self.normalized(run.stderr).contains(Self.normalized(block.text)),
                        "\(block): the error output does not contain the documented text. It is:\n\(run.stderr)")
            }
        }
        // An example that only writes files still has to build.
        for (name, folder) in sites.sorted(by: { $0.key < $1.key }) where !built.contains(name) {
            let run = try build(folder)
            #expect(run.status == 0, "\(document): example '\(name)' does not build:\n\(run.stderr)")
        }
    }

    struct ExampleFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }
}
