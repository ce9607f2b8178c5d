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
            for (name, kind) in older.computed.sorted(by: { $0.key < $1.key }) {
                guard let now = newer.computed[name] else {
                    changes.append(Change(breaking: true, message: "computed value '\(name)' of '\(code)' was removed"))
                    continue
                }
                if now != kind { changes.append(Change(breaking: true, message: "computed value '\(name)' of '\(code)' changed from \(kind) to \(now): an app built for the old schema fails to decode it")) }
            }
            for name in newer.computed.keys.sorted() where older.computed[name] == nil {
                changes.append(Change(breaking: false, message: "computed value '\(name)' was added to '\(code)'"))
            }
            // Apps built for the old version (or an older app release) no longer decode it as
            // theirs: they show its fallback, or nothing.
            let instead = replacement(for: code, in: after, known: before)
            if newer.version > older.version {
                changes.append(Change(
                    breaking: instead == nil,
                    message: "'\(code)' is now version \(newer.version) (was \(older.version)): apps built for version \(older.version) "
                        + (instead.map { "show its fallback '\($0)' in its place" } ?? "no longer show it (it has no fallback to show in its place)")))
            } else if newer.version != older.version {
                changes.append(Change(breaking: false, message: "'\(code)' is now version \(newer.version) (was \(older.version))"))
            }
            if let version = newer.minClientVersion, let was = older.minClientVersion ?? ClientVersion("1.0"), was < version {
                changes.append(Change(
                    breaking: instead == nil,
                    message: "'\(code)' now needs app version \(version) (was \(was)): older apps "
                        + (instead.map { "show its fallback '\($0)'" } ?? "do not show it (it has no fallback)")))
            }
        }
        for code in after.keys.sorted() where before[code] == nil {
            let component = after[code]!
            switch component.fallback {
            case nil:
                changes.append(Change(breaking: false, message: "component '\(code)' was added: apps built for the old schema skip it (add `fallback:` to show something in its place)"))
            case "hide"?:
                changes.append(Change(breaking: false, message: "component '\(code)' was added: apps built for the old schema hide it, as its fallback says"))
            case let target?:
                if let shown = replacement(for: code, in: after, known: before) {
                    changes.append(Change(breaking: false, message: "component '\(code)' was added: apps built for the old schema show its fallback '\(shown)'"))
                } else {
                    changes.append(Change(
                        breaking: true,
                        message: "component '\(code)' was added with fallback '\(target)', which leads to no component of the old schema: apps built for it show nothing in its place"))
                }
            }
        }
        return SchemaDiff(changes: changes)
    }

    /// The component an app built for `known` shows for `code`: the first of its fallbacks that
    /// app knows at the version it knows; nil for none (or `hide`).
    static func replacement(for code: String, in components: [String: Component], known: [String: Component]) -> String? {
        var current = components[code]?.fallback, seen: Set<String> = [code]
        while let name = current, name != "hide", seen.insert(name).inserted {
            if let old = known[name], let new = components[name], new.version <= old.version { return name }
            current = components[name]?.fallback
        }
        return nil
    }

    struct Component {
        var fields: [String: SchemaField]
        var required: Set<String>
        var version: Int
        /// `hide` or a component code (`x-tessera-fallback`).
        var fallback: String?
        var minClientVersion: ClientVersion?
        /// A computed value's name → its JSON type (`string`, `boolean`, `one of up, down`).
        var computed: [String: String] = [:]
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
            var component = Component(
                fields: fieldProperties.mapValues { SchemaField($0 as? [String: Any] ?? [:], definitions: definitions) },
                required: Set(fields["required"] as? [String] ?? []), version: version)
            component.fallback = definition["x-tessera-fallback"] as? String
            component.minClientVersion = (definition["x-tessera-minClientVersion"] as? String).flatMap(ClientVersion.init)
            let computed = (properties["computed"] as? [String: Any])?["properties"] as? [String: Any] ?? [:]
            component.computed = computed.mapValues { value in
                let value = value as? [String: Any] ?? [:]
                if let values = value["enum"] as? [String] { return "one of " + SchemaField.Shape.list(values) }
                return value["type"] as? String ?? "a value"
            }
            result[String(key.dropFirst("component-".count))] = component
        }
        return result
    }
}
