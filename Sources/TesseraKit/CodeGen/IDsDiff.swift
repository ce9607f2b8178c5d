import Foundation

/// Which ids an app relied on are gone between two builds of a site: pages (`page.id`) and the
/// components on them. Analytics keyed by component id, or an app's saved state (a dismissed
/// banner, a bookmark), lose track of what disappears.
public struct IDsDiff: Sendable {
    /// Page id → component ids it had in the old build that the new build's page lacks.
    public var removedComponents: [(page: String, ids: [String])]
    /// Page ids of the old build the new one does not have.
    public var removedPages: [String]
    /// How many components the new build has that the old one did not.
    public var addedComponents: Int

    public var isEmpty: Bool { removedPages.isEmpty && removedComponents.isEmpty }

    /// Compares the page JSON of two output folders (each with its `api/index.json`).
    public static func compare(old: String, new: String) throws -> IDsDiff {
        let before = try ids(in: old), after = try ids(in: new)
        var diff = IDsDiff(removedComponents: [], removedPages: [], addedComponents: 0)
        for page in before.keys.sorted() {
            guard let now = after[page] else {
                diff.removedPages.append(page)
                continue
            }
            let gone = before[page]!.subtracting(now).sorted()
            if !gone.isEmpty { diff.removedComponents.append((page, gone)) }
        }
        for (page, now) in after { diff.addedComponents += now.subtracting(before[page] ?? []).count }
        return diff
    }

    /// Page id → every component id on it (sections, children, the body's components).
    static func ids(in folder: String) throws -> [String: Set<String>] {
        let indexPath = folder + "/api/index.json"
        guard let data = FileManager.default.contents(atPath: indexPath),
              let index = try? JSONSerialization.jsonObject(with: data) as? [String: Any], let pages = index["pages"] as? [[String: Any]] else {
            throw TesseraError("\(folder) has no content API index (api/index.json)", hint: "pass the output folders of two builds that wrote page JSON, such as public/")
        }
        let basePath = (index["schema"] as? String).map { String($0.dropLast("api/schema.json".count)) } ?? "/"
        var result: [String: Set<String>] = [:]
        for entry in pages {
            guard let id = entry["id"] as? String, let json = entry["json"] as? String, json.hasPrefix(basePath) else { continue }
            let path = folder + "/" + json.dropFirst(basePath.count)
            guard let bytes = FileManager.default.contents(atPath: path), let document = try? JSONSerialization.jsonObject(with: bytes) else {
                throw TesseraError("cannot read \(path), which api/index.json lists", hint: "compare two complete builds")
            }
            var found = Set<String>()
            func walk(_ value: Any) {
                if let object = value as? [String: Any] {
                    if let id = object["id"] as? String, object["type"] is String, object["fields"] is [String: Any] { found.insert(id) }
                    for (key, child) in object where key != "fallback" { walk(child) }
                } else if let list = value as? [Any] {
                    list.forEach(walk)
                }
            }
            walk((document as? [String: Any])?["sections"] ?? [])
            walk((document as? [String: Any])?["body"] ?? [])
            result[id] = found
        }
        return result
    }
}
