import Foundation
import Testing
import Yams
@testable import TesseraKit

/// The parser's shortcut for plain text must type every scalar exactly as Yams's own tag
/// resolution does.
@Suite struct YAMLScalarTests {
    static let scalars = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE", "on", "On", "ON",
        "off", "Off", "OFF", "null", "Null", "NULL", "~", "y", "Y", "n", "N", "NaN", "nan", ".nan", ".inf", "-.inf",
        "Infinity", "e5", "x1", "0x1F", "0o17", "017", "1_000", "12", "-3", "+4", "1.5", "1e3", "2026-11-01",
        "2026-11-01T09:30:00Z", "café", "Ünïcode", "nullable", "Yesterday", "onward", "offset", "TRUEly", "Nothing",
        "a:b", "hello world", "16:9", "Swift 6", "v1.2",
        // The shapes typed without Yams, and their neighbours.
        "0", "-0", "7", "12987", "-499", "0.99", "-499.5", "12.", ".5", "0.0", "00", "01", "08", "0.5e3", "1.5.2",
        "123456789012345", "1234567890123456789", "3.141592653589793", "2024-04-04", "2024-4-4", "2024-04-04T10:00:00Z",
        "2024-04-04T10:00:00", "2024-04-04t10:00:00Z", "2024-04-04T10:00:00+02:00", "2024-04-04 10:00:00", "2024-13-45",
        "20240404", "2024-04-04T1:00:00Z", "12:30", "-a", "-0.5", "/about/", "(c) 2026", "$5", "_x", "^up", "/", "~", "<<", "=", "<x", "=x", ".5x", "+", "+x", "1-2", "2024-04",
    ]

    @Test(arguments: scalars)
    func plainScalarsAreTypedAsYamsTypesThem(_ scalar: String) throws {
        let yaml = "value: \(scalar)\n"
        let parsed = try YAMLParser.parseMapping(yaml, file: "t.yml", what: "a test")["value"]?.value
        let node = try #require(try Yams.compose(yaml: yaml)?.mapping?["value"])
        let expected: ContentNode.Value
        switch Tag.Name(rawValue: node.tag.description) {
        case .null: expected = .null
        case .bool: expected = node.bool.map(ContentNode.Value.bool) ?? .string(scalar)
        case .int where !scalar.contains(":"): expected = node.int.map(ContentNode.Value.int) ?? .string(scalar)
        case .float where !scalar.contains(":"): expected = node.float.map(ContentNode.Value.double) ?? .string(scalar)
        case .timestamp: expected = .timestamp(scalar)
        default: expected = .string(node.scalar?.string ?? scalar)
        }
        if case .double(let a)? = parsed, case .double(let b) = expected, a.isNaN, b.isNaN { return }
        #expect(parsed == expected, "\(scalar)")
    }
}
