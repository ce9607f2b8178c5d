import Foundation
import Testing
@testable import TesseraClient

@Suite struct VersionTests {
    @Test(arguments: [
        ("1", "1.0", 0), ("1.0.0", "1", 0), ("1.4", "1.10", -1), ("1.10", "1.9", 1),
        ("2", "1.99.99", 1), ("2.10.1", "2.10", 1), ("0.9", "1", -1), ("10", "9.9", 1), ("1.01", "1.1", 0),
    ])
    func comparison(left: String, right: String, order: Int) throws {
        let a = try #require(TesseraVersion(left)), b = try #require(TesseraVersion(right))
        #expect((a < b) == (order < 0))
        #expect((a > b) == (order > 0))
        #expect((a == b) == (order == 0))
        if order == 0 { #expect(a.hashValue == b.hashValue) }
    }

    @Test(arguments: ["", ".", "1.", ".1", "1..2", "v1", "1.0-beta", "-1", "1.+2", "one", "1,2"])
    func rejectsMalformed(string: String) {
        #expect(TesseraVersion(string) == nil)
    }

    @Test func descriptionRoundTripsAndDecodes() throws {
        #expect(TesseraVersion("2.10.1")?.description == "2.10.1")
        #expect(TesseraVersion(" 1.4 ") == TesseraVersion(1, 4))
        let versions = try JSONDecoder().decode([TesseraVersion].self, from: Data(#"["1.4", 2]"#.utf8))
        #expect(versions == [TesseraVersion(1, 4), TesseraVersion(2, 0)])
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([TesseraVersion].self, from: Data(#"["1.x"]"#.utf8)) }
        #expect(String(decoding: try JSONEncoder().encode(TesseraVersion(1, 0)), as: UTF8.self) == #""1.0""#)
    }
}
