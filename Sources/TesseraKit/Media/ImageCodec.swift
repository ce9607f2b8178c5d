import CImages
import Foundation

/// libvips, as Tessera uses it: read a header, scale (with EXIF orientation applied, in sRGB),
/// crop, encode without metadata, read pixels. The one Swift file that calls the C shim.
enum ImageCodec {
    /// A failure libvips explained.
    struct Failure: Error, CustomStringConvertible {
        var description: String
        /// What to do about it.
        var hint = "replace the file with a JPEG, PNG, WebP, AVIF, GIF or SVG that opens in an image viewer"
    }

    /// libvips' version ("8.14.1"): part of every processed image's cache key (as a cached
    /// build knows it without loading libvips: `LibraryStamp`).
    static let version: String = String(cString: tessera_images_version())

    /// The libvips file the dynamic loader found, once loaded; nil when it cannot be.
    static var libraryFile: String? { tessera_images_library().map { String(cString: $0) } }

    /// Starts libvips once; every other call needs it.
    static let started: Bool = tessera_images_start() == 0

    /// What libvips said last on this thread, as one line.
    private static func lastError(_ fallback: String) -> Failure {
        guard let pointer = tessera_images_error() else { return Failure(description: fallback) }
        defer { tessera_images_free(pointer) }
        let text = String(cString: pointer)
        // libvips prefixes each line with the operation ("VipsJpeg: "); the first line says the most.
        // The last line: what failed last (libvips logs some warnings as errors before it).
        guard var last = text.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }).last(where: { !$0.isEmpty }) else {
            return Failure(description: fallback)
        }
        // "VipsJpeg: Premature end of input file": the operation's name says nothing to a writer.
        if last.hasPrefix("Vips"), let colon = last.range(of: ": ") { last = String(last[colon.upperBound...]) }
        if last.contains("not in a known format") { return Failure(description: "the file is not an image libvips can read") }
        if last.lowercased().contains("premature end") { return Failure(description: "the file is truncated (\(last.lowercased()))") }
        return Failure(description: last.prefix(1).lowercased() + last.dropFirst())
    }

    /// Lets go of libvips' buffers for the calling thread, once it is done with an image of
    /// `pixels` pixels (nil: not known); gives the heaps' free memory back to the system after a
    /// large one (`returnsMemory`).
    static func threadDone(pixels: Int?) {
        if started { tessera_images_thread_done(returnsMemory(pixels: pixels) ? 1 : 0) }
    }

    /// Whether making an image of `pixels` pixels gives memory back to the system, at its end
    /// (`malloc_trim`) and while it is made (tighter heaps, `tessera_allocator_images`). That
    /// trims every heap, the page renderers' too, and what they then allocate again faults back
    /// in: it pays for a photo's tens of megabytes of buffers, not for a site icon's or a
    /// thumbnail's few (a site's four icons from an SVG made 30,000 `madvise` calls in a build of
    /// 10,000 pages). From 4 megapixels (16 MiB at four bands), or unknown.
    static func returnsMemory(pixels: Int?) -> Bool {
        pixels.map { $0 >= 4 << 20 } ?? true
    }

    /// libvips is loaded and started on first use (`tessera_images_start`): a build without images
    /// never loads it.
    private static func start() throws {
        guard started else {
            let reason = tessera_images_error().map { pointer in
                defer { tessera_images_free(pointer) }
                return String(cString: pointer)
            } ?? ""
            throw Failure(description: reason.isEmpty ? "libvips could not start" : reason, hint: "install libvips 8.14 (`make deps` does, or `apt-get install libvips42`)")
        }
    }

    /// A file's header, read without decoding its pixels.
    struct Header: Sendable, Equatable {
        /// libvips' loader: "jpegload_buffer", "pngload_buffer", "svgload_buffer", ...
        var loader: String
        /// As stored.
        var width: Int, height: Int
        /// EXIF orientation, 1–8 (1 when the file has none).
        var orientation: Int
        var hasAlpha: Bool
        var pages: Int

        /// The size the image is shown at: orientations 5–8 turn it a quarter.
        var shownWidth: Int { orientation >= 5 ? height : width }
        var shownHeight: Int { orientation >= 5 ? width : height }
    }

    static func header(of data: Data) throws -> Header {
        try start()
        var header = tessera_image_header()
        let status = data.withUnsafeBytes { tessera_images_header($0.baseAddress, $0.count, &header) }
        let loader = withUnsafeBytes(of: header.loader) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if !loader.isEmpty, ImageFormat(loader: loader) == nil { throw unpublished(loader) }
        guard status == 0 else { throw lastError("not an image libvips can read") }
        return Header(
            loader: loader, width: Int(header.width), height: Int(header.height), orientation: Int(header.orientation),
            hasAlpha: header.has_alpha != 0, pages: Int(header.pages))
    }

    /// A file libvips recognizes in a format Tessera does not publish (PPM, FITS, Matlab, PDF,
    /// or anything only ImageMagick reads).
    static func unpublished(_ loader: String) -> Failure {
        let name = ImageFormat.loaderFormat(loader)
        let format = name == "magick" ? "a format only ImageMagick reads" : name.uppercased()
        return Failure(description: "the file is in \(format), not a format Tessera publishes", hint: "convert it to JPEG, PNG, WebP or AVIF")
    }

    /// A decoded (or lazily decoding) image; libvips' reference is let go with it.
    final class Image: @unchecked Sendable {
        fileprivate let pointer: UnsafeMutableRawPointer
        fileprivate init(_ pointer: UnsafeMutableRawPointer) { self.pointer = pointer }
        deinit { tessera_images_release(pointer) }
    }

    /// Part of a scaled image: the window a crop keeps.
    struct Crop: Sendable, Hashable {
        var left: Int, top: Int, width: Int, height: Int
    }

    /// The image in `data` scaled to `width` × `height` as shown (orientation applied), in sRGB,
    /// then cut to `crop`. Fails on truncated or corrupt data.
    static func scaled(_ data: Data, width: Int, height: Int, crop: Crop? = nil) throws -> Image {
        try start()
        let pointer = data.withUnsafeBytes {
            tessera_images_scaled($0.baseAddress, $0.count, Int32(width), Int32(height),
                                  Int32(crop?.left ?? 0), Int32(crop?.top ?? 0), Int32(crop?.width ?? 0), Int32(crop?.height ?? 0))
        }
        guard let pointer else { throw lastError("the image could not be decoded") }
        return Image(pointer)
    }

    /// The image in `data` decoded whole and strictly (a truncated or corrupt file fails), at a
    /// small size `width` × `height` as shown: how a new file is checked. A JPEG is decoded at
    /// the smallest of 1/2, 1/4, 1/8 of its size `shrink` allows.
    static func checked(_ data: Data, header: Header, width: Int, height: Int) throws -> Image {
        try start()
        var shrink: Int32 = 1
        if ImageFormat(loader: header.loader) == .jpeg {
            while shrink < 8, header.shownWidth / Int(shrink * 2) >= width, header.shownHeight / Int(shrink * 2) >= height { shrink *= 2 }
        }
        let pointer = data.withUnsafeBytes { tessera_images_checked($0.baseAddress, $0.count, shrink, Int32(width), Int32(height)) }
        guard let pointer else { throw lastError("the image could not be decoded") }
        return Image(pointer)
    }

    /// `image` in memory, so that several sizes made from it decode it once.
    static func materialized(_ image: Image) throws -> Image {
        guard let pointer = tessera_images_materialized(image.pointer) else { throw lastError("the image could not be decoded") }
        return Image(pointer)
    }

    /// `image` scaled to `width` × `height`.
    static func rescaled(_ image: Image, width: Int, height: Int) throws -> Image {
        guard let pointer = tessera_images_rescaled(image.pointer, Int32(width), Int32(height)) else { throw lastError("the image could not be scaled") }
        return Image(pointer)
    }

    /// `image` encoded, without metadata. `effort`: WebP 0–6, AVIF 0–9.
    static func encode(_ image: Image, as format: ImageFormat, quality: Int, effort: Int) throws -> Data {
        let code: Int32
        switch format {
        case .jpeg: code = 0
        case .png: code = 1
        case .webp: code = 2
        case .avif: code = 3
        default: throw Failure(description: "Tessera does not write \(format.rawValue) images")
        }
        let data = try encoded(as: format) { tessera_images_encode(image.pointer, code, Int32(quality), Int32(effort), &$0, &$1) }
        return format == .webp ? withoutWebPMetadata(data) : data
    }

    /// `image` as WebP by libvips' own saver, which `encode`'s WebP (libwebp called directly, without
    /// the saver's copy of the whole image) must equal: for the differential test.
    static func encodeWithLibvipsSaver(_ image: Image, quality: Int, effort: Int) throws -> Data {
        withoutWebPMetadata(try encoded(as: .webp) { tessera_images_encode(image.pointer, 4, Int32(quality), Int32(effort), &$0, &$1) })
    }

    private static func encoded(as format: ImageFormat, _ encode: (inout UnsafeMutableRawPointer?, inout Int) -> Int32) throws -> Data {
        var bytes: UnsafeMutableRawPointer?
        var length = 0
        guard encode(&bytes, &length) == 0, let bytes else { throw lastError("the image could not be encoded as \(format.rawValue)") }
        defer { tessera_images_free(bytes) }
        return Data(bytes: bytes, count: length)
    }

    /// A WebP without its `EXIF` and `XMP ` chunks (and their flags in `VP8X`): libvips 8.14
    /// writes a fresh EXIF block (orientation, resolution) into every WebP, stripped or not.
    static func withoutWebPMetadata(_ data: Data) -> Data {
        let bytes = [UInt8](data)
        guard bytes.count >= 12, bytes[0..<4].elementsEqual("RIFF".utf8), bytes[8..<12].elementsEqual("WEBP".utf8) else { return data }
        var out = Array(bytes[0..<12])
        var index = 12
        while index + 8 <= bytes.count {
            let size = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
            let end = index + 8 + size + (size & 1)
            guard end <= bytes.count else { return data }
            let type = String(decoding: bytes[index..<(index + 4)], as: UTF8.self)
            if type != "EXIF" && type != "XMP " {
                var chunk = Array(bytes[index..<end])
                // VP8X's flags: bit 3 says EXIF follows, bit 2 XMP.
                if type == "VP8X", chunk.count > 8 { chunk[8] &= ~0b0000_1100 }
                out += chunk
            }
            index = end
        }
        guard index == bytes.count else { return data }
        let riff = UInt32(out.count - 8)
        out[4] = UInt8(riff & 0xFF)
        out[5] = UInt8((riff >> 8) & 0xFF)
        out[6] = UInt8((riff >> 16) & 0xFF)
        out[7] = UInt8(riff >> 24)
        return Data(out)
    }

    /// The image's pixels: 8-bit sRGB, `bands` per pixel (3, or 4 with alpha; 1 or 2 for grey).
    static func pixels(of image: Image) throws -> (width: Int, height: Int, bands: Int, bytes: [UInt8]) {
        var width: Int32 = 0, height: Int32 = 0, bands: Int32 = 0
        guard let pointer = tessera_images_pixels(image.pointer, &width, &height, &bands) else { throw lastError("the image could not be decoded") }
        defer { tessera_images_free(pointer) }
        let count = Int(width) * Int(height) * Int(bands)
        return (Int(width), Int(height), Int(bands), Array(UnsafeBufferPointer(start: pointer, count: count)))
    }
}
