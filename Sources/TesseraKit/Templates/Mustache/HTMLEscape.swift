import Foundation

/// HTML escaping of `<`, `>`, `&`, `"` and `'`, by bytes.
enum HTMLEscape {
    static func append(_ text: String, to out: RenderOutput) {
        text.withUTF8Bytes { append($0, to: out) }
    }

    /// The runs between the bytes to escape copied as they are, each of those as its entity.
    private static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: RenderOutput) {
        var start = 0
        for index in bytes.indices {
            let entity: StaticString
            switch bytes[index] {
            case 0x3C: entity = "&lt;"
            case 0x3E: entity = "&gt;"
            case 0x26: entity = "&amp;"
            case 0x22: entity = "&quot;"
            case 0x27: entity = "&#39;"
            default: continue
            }
            out.append(UnsafeBufferPointer(rebasing: bytes[start..<index]))
            out.append(entity)
            start = index + 1
        }
        out.append(UnsafeBufferPointer(rebasing: bytes[start...]))
    }

    static func escaped(_ text: String) -> String {
        let out = RenderOutput(capacity: text.utf8.count + 16)
        append(text, to: out)
        return out.string
    }
}
