import Foundation

/// HTML escaping of `<`, `>`, `&`, `"` and `'`, by bytes.
enum HTMLEscape {
    static func append(_ text: String, to out: inout String) {
        var needs = false
        for byte in text.utf8 where byte == 0x3C || byte == 0x3E || byte == 0x26 || byte == 0x22 || byte == 0x27 {
            needs = true
            break
        }
        guard needs else { out += text; return }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count + 16)
        for byte in text.utf8 {
            switch byte {
            case 0x3C: bytes += [0x26, 0x6C, 0x74, 0x3B]  // &lt;
            case 0x3E: bytes += [0x26, 0x67, 0x74, 0x3B]  // &gt;
            case 0x26: bytes += [0x26, 0x61, 0x6D, 0x70, 0x3B]  // &amp;
            case 0x22: bytes += [0x26, 0x71, 0x75, 0x6F, 0x74, 0x3B]  // &quot;
            case 0x27: bytes += [0x26, 0x23, 0x33, 0x39, 0x3B]  // &#39;
            default: bytes.append(byte)
            }
        }
        out += String(decoding: bytes, as: UTF8.self)
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        append(text, to: &out)
        return out
    }
}
