import Foundation

/// Images of a page's Markdown get their file's pixel size (`width`, `height`: no layout shift
/// while they load) and, but for the first, `loading="lazy"`. cmark writes `<img src alt title />`
/// only; the renderer marks each image's title and this moves the attributes out of it.
enum MarkdownImages {
    /// `640x480,lazy`, `-,eager`: what `insertingAttributes` writes for an image.
    static func spec(size: ImageSize?, lazy: Bool) -> String {
        (size.map { "\($0.width)x\($0.height)" } ?? "-") + (lazy ? ",lazy" : ",eager")
    }

    /// The HTML with each marked title (` title="\u{3}spec\u{4}text"`) written as the title it
    /// was (none when empty) and the attributes of its spec.
    static func insertingAttributes(into html: String) -> String {
        let opening = Array(" title=\"".utf8)
        var html = html
        return html.withUTF8 { bytes -> String in
            var out: [UInt8] = []
            out.reserveCapacity(bytes.count + 64)
            var start = 0
            while let marker = ByteSearch.firstIndex(of: 0x03, in: bytes, from: start), let specEnd = ByteSearch.firstIndex(of: 0x04, in: bytes, from: marker),
                  let quote = ByteSearch.firstIndex(of: UInt8(ascii: "\""), in: bytes, from: specEnd),
                  marker - start >= opening.count, Array(bytes[(marker - opening.count)..<marker]) == opening {
                out.append(contentsOf: bytes[start..<(marker - opening.count)])
                let title = bytes[(specEnd + 1)..<quote]
                if !title.isEmpty {
                    out.append(contentsOf: opening)
                    out.append(contentsOf: title)
                    out.append(UInt8(ascii: "\""))
                }
                let spec = String(decoding: bytes[(marker + 1)..<specEnd], as: UTF8.self).split(separator: ",")
                if let size = spec.first, size != "-" {
                    let sides = size.split(separator: "x")
                    out.append(contentsOf: Array(" width=\"\(sides[0])\" height=\"\(sides[1])\"".utf8))
                }
                if spec.last == "lazy" { out.append(contentsOf: Array(" loading=\"lazy\"".utf8)) }
                start = quote + 1
            }
            out.append(contentsOf: bytes[start...])
            return String(decoding: out, as: UTF8.self)
        }
    }
}
