import Foundation

/// What changed between two `/api/schema.json` files, and which changes break an app already
/// shipped against the old one.
public struct SchemaDiff: Sendable {
    public struct Change: Sendable, Equatable, CustomStringConvertible {
        public var breaking: Bool
        public var message: String
        public var description: String { (breaking ? "breaking: " : "compatible: ") + message }
    }

    public var changes: [Change]
    public var isBreaking: Bool { changes.contains { $0.breaking } }

    /// Compares two schema documents; throws when either is not a Tessera content schema.
    public static func compare(old: Data, new: Data, oldName: String = "old", newName: String = "new") throws -> SchemaDiff {
        let before = try components(in: old, name: oldName), after = try components(in: new, name: newName)
        var changes: [Change] = []
        for code in before.keys.sorted() {
            guard let newer = after[code] else {
                changes.append(Change(breaking: true, message: "component '\(code)' was removed"))
                continue
            }
            let older = before[code]!
            for field in older.fields.keys.sorted() {
                guard let type = newer.fields[field] else {
                    changes.append(Change(breaking: true, message: "field '\(field)' of '\(code)' was removed"))
                    continue
                }
                let oldType = older.fields[field]!
                if let change = oldType.change(to: type) {
                    changes.append(Change(breaking: change.breaking, message: "field '\(field)' of '\(code)' " + change.text))
                }
                if let oldValues = oldType.values, let newValues = type.values {
                    for value in oldValues where !newValues.contains(value) {
                        changes.append(Change(breaking: true, message: "enum value '\(value)' of field '\(field)' of '\(code)' was removed"))
                    }
                    for value in newValues where !oldValues.contains(value) {
                        changes.append(Change(breaking: false, message: "enum value '\(value)' was added to field '\(field)' of '\(code)'"))
                    }
                }
                if newer.required.contains(field) && !older.required.contains(field) {
                    changes.append(Change(breaking: true, message: "field '\(field)' of '\(code)' was optional and is now required"))
                } else if older.required.contains(field) && !newer.required.contains(field) {
                    changes.append(Change(breaking: true, message: "field '\(field)' of '\(code)' was required and is now optional: apps that rely on it may find it missing"))
                }
            }
            for field in newer.fields.keys.sorted() where older.fields[field] == nil {
                changes.append(Change(breaking: false, message: "field '\(field)' was added to '\(code)'"))
            }
            if newer.version != older.version {
                changes.append(Change(breaking: false, message: "'\(code)' is now version \(newer.version) (was \(older.version))"))
            }
        }
        for code in after.keys.sorted() where before[code] == nil {
            changes.append(Change(breaking: false, message: "component '\(code)' was added"))
        }
        return SchemaDiff(changes: changes)
    }

    struct Component {
        var fields: [String: SchemaField]
        var required: Set<String>
        var version: Int
    }

    static func components(in data: Data, name: String) throws -> [String: Component] {
        guard let root = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let definitions = root["$defs"] as? [String: Any],
              (root["properties"] as? [String: Any])?["format"] != nil else {
            throw TesseraError("\(name) is not a Tessera content schema (an api/schema.json written by tessera build)")
        }
        var result: [String: Component] = [:]
        for (key, value) in definitions where key.hasPrefix("component-") {
            guard let definition = value as? [String: Any], let properties = definition["properties"] as? [String: Any],
                  let fields = properties["fields"] as? [String: Any] else { continue }
            let fieldProperties = fields["properties"] as? [String: Any] ?? [:]
            let version = (properties["version"] as? [String: Any])?["const"] as? Int ?? 1
            result[String(key.dropFirst("component-".count))] = Component(
                fields: fieldProperties.mapValues { SchemaField($0 as? [String: Any] ?? [:], definitions: definitions) },
                required: Set(fields["required"] as? [String] ?? []), version: version)
        }
        return result
    }
}
