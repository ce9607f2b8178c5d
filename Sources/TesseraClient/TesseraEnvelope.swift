import Foundation

/// The `format`/`version` pair every Tessera document starts with, checked before anything else
/// so that fetching the wrong kind of document fails with "expected tessera.page, found
/// tessera.section" instead of a puzzling missing key deep inside.
enum TesseraEnvelope {
    /// The oldest format version this client reads. Newer versions only add keys.
    static let minimumVersion = 5

    private enum Keys: String, CodingKey { case format, version }

    static func check(_ decoder: any Decoder, format expected: String) throws -> (format: String, version: Int) {
        let container = try decoder.container(keyedBy: Keys.self)
        let format = try container.decode(String.self, forKey: .format)
        guard format == expected else { throw TesseraClientError.wrongFormat(expected: expected, found: format) }
        let version = try container.decode(Int.self, forKey: .version)
        guard version >= minimumVersion else {
            throw TesseraClientError.unsupportedFormatVersion(version, minimum: minimumVersion)
        }
        return (format, version)
    }

    /// The keys of the current object that are not in `known`, as values.
    static func unknownKeys(_ decoder: any Decoder, known: Set<String>) throws -> [String: TesseraValue] {
        let container = try decoder.container(keyedBy: AnyKey.self)
        var extra: [String: TesseraValue] = [:]
        for key in container.allKeys where !known.contains(key.stringValue) {
            extra[key.stringValue] = try container.decode(TesseraValue.self, forKey: key)
        }
        return extra
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
