import Foundation

/// Content-addressed copies of the site's stylesheets and scripts: `assets/site.css` is also
/// written as `assets/site.3f2a1c9b.css`, so a page can let browsers cache it forever and
/// still get the new file the moment it changes, with a Subresource Integrity hash to match.
public struct AssetFingerprints: Sendable, Equatable {
    public struct Entry: Sendable, Hashable {
        /// Relative to the output folder: `assets/site.3f2a1c9b.css`.
        public var path: String
        /// `sha256-<base64>`, for the `integrity` attribute.
        public var integrity: String
    }

    /// Output path of the original file → its fingerprinted copy.
    public var entries: [String: Entry] = [:]

    /// Files that get a fingerprinted copy.
    static let extensions: Set<String> = ["css", "js", "mjs"]

    /// `assets/site.css` → `assets/site.3f2a1c9b.css`: the first 8 hex digits of the digest.
    static func fingerprintedPath(_ path: String, digest: [UInt8]) -> String {
        let hex = Hex.string(digest.prefix(4))
        let ext = (path as NSString).pathExtension
        return (path as NSString).deletingPathExtension + "." + hex + "." + ext
    }

    /// The output path a template's `assets/site.css` or `/assets/site.css` names (spaces around already dropped).
    static func key(_ name: String) -> String {
        String(name.drop { $0 == "/" })
    }
}

/// The fingerprinted assets one page's templates asked for: kept with its rendering, so a
/// reused page still gets its copies written, and is rendered again when one changes.
final class AssetUse: @unchecked Sendable {
    private(set) var used: [String: AssetFingerprints.Entry] = [:]
    func record(_ name: String, _ entry: AssetFingerprints.Entry) { used[name] = entry }
}

/// SHA-256 (FIPS 180-4), for fingerprints and integrity hashes; Foundation on Linux has no CryptoKit.
enum SHA256 {
    private static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
        0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
        0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
        0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
        0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
        0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
        0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
        0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2,
    ]

    static func hash(_ data: Data) -> [UInt8] {
        var h: [UInt32] = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19]
        var message = [UInt8](data)
        let bitLength = UInt64(message.count) * 8
        message.append(0x80)
        while message.count % 64 != 56 { message.append(0) }
        for shift in stride(from: 56, through: 0, by: -8) { message.append(UInt8(truncatingIfNeeded: bitLength >> UInt64(shift))) }
        var w = [UInt32](repeating: 0, count: 64)
        for chunk in stride(from: 0, to: message.count, by: 64) {
            for i in 0..<16 {
                let j = chunk + i * 4
                w[i] = UInt32(message[j]) << 24 | UInt32(message[j + 1]) << 16 | UInt32(message[j + 2]) << 8 | UInt32(message[j + 3])
            }
            for i in 16..<64 {
                let s0 = rotate(w[i - 15], 7) ^ rotate(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotate(w[i - 2], 17) ^ rotate(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotate(e, 6) ^ rotate(e, 11) ^ rotate(e, 25)
                let choice = (e & f) ^ (~e & g)
                let t1 = hh &+ s1 &+ choice &+ k[i] &+ w[i]
                let s0 = rotate(a, 2) ^ rotate(a, 13) ^ rotate(a, 22)
                let majority = (a & b) ^ (a & c) ^ (b & c)
                let t2 = s0 &+ majority
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h[0] = h[0] &+ a; h[1] = h[1] &+ b; h[2] = h[2] &+ c; h[3] = h[3] &+ d
            h[4] = h[4] &+ e; h[5] = h[5] &+ f; h[6] = h[6] &+ g; h[7] = h[7] &+ hh
        }
        return h.flatMap { word in [UInt8(word >> 24), UInt8(truncatingIfNeeded: word >> 16), UInt8(truncatingIfNeeded: word >> 8), UInt8(truncatingIfNeeded: word)] }
    }

    private static func rotate(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
}

extension Step where Product == RoutedSite {
    /// The fingerprint of every stylesheet and script among the static files, for
    /// `{{#asset}}assets/site.css{{/asset}}` and `{{#integrity}}assets/site.css{{/integrity}}`;
    /// rendering writes the copies that pages link.
    public static var fingerprintAssets: Step { Step("fingerprint assets") { site, context in
        var fingerprints = AssetFingerprints()
        for file in site.staticFiles where AssetFingerprints.extensions.contains((file.path as NSString).pathExtension.lowercased()) {
            let data: Data
            switch file.contents {
            case .data(let bytes): data = bytes
            // Static files are handed to no folder before they are fingerprinted.
            case .written: continue
            case .copy(let source):
                do { data = try Data(contentsOf: URL(fileURLWithPath: source)) } catch {
                    context.diagnostics.report(Diagnostic(.error, "cannot read \(file.path) to fingerprint it: \(error.localizedDescription)", at: SourceLocation(file: source)))
                    continue
                }
            }
            let digest = SHA256.hash(data)
            let path = AssetFingerprints.fingerprintedPath(file.path, digest: digest)
            fingerprints.entries[file.path] = .init(path: path, integrity: "sha256-" + Data(digest).base64EncodedString())
        }
        site.fingerprints = fingerprints
    } }
}
