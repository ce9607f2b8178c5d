import Foundation
import Testing
@testable import TesseraKit

/// Images through the real pipeline: the sizes and formats made, EXIF orientation and metadata,
/// `<picture>` in Markdown, crops, the build cache, and what a build leaves on disk.
@Suite struct ImageProcessingTests {
    /// A 1200 × 800 JPEG whose EXIF says to turn it a quarter (orientation 6), with a camera
    /// make ("TesseraCam") and a GPS latitude.
    static let rotated = Repository.fixture("images/rotated.jpg")

    static let component: [String: String] = [
        "themes/mini/components/photo.yml": "fields:\n  image: { type: image, required: true, sizes: \"(min-width: 40rem) 50vw, 100vw\" }\n  square: { type: image, ratio: \"1:1\", widths: [100, 200] }\n",
        "themes/mini/components/photo.mustache": "<img src=\"{{image}}\" srcset=\"{{image.srcset}}\" data-sizes=\"{{image.sizes}}\" width=\"{{image.width}}\" height=\"{{image.height}}\" data-color=\"{{image.color}}\">{{#image.sources}}<source type=\"{{type}}\" srcset=\"{{srcset}}\">{{/image.sources}}{{#square}}<img class=\"square\" src=\"{{square}}\" width=\"{{square.width}}\" height=\"{{square.height}}\">{{/square}}",
    ]

    static func page(_ fields: String) -> String {
        "---\ntitle: Photos\nsections:\n  - items:\n      - component: photo\n\(fields)---\n"
    }

    /// Output files of `site` under `folder` whose names say they were made (`name.key.WxH.ext`).
    static func made(_ site: TemporarySite, in folder: String = "images") throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: site.output + "/" + folder).filter { $0.split(separator: ".").count == 4 }.sorted()
    }

    static func header(_ path: String) throws -> ImageCodec.Header {
        try ImageCodec.header(of: try Data(contentsOf: URL(fileURLWithPath: path)))
    }

    @Test func anImageFieldGetsWebPAtEachWidthItHasPixelsForAndAFallbackInItsOwnFormat() throws {
        let site = try TemporarySite(Self.component.merging([
            "static/images/wide.png": TestImages.png(1000, 500),
            "content/index.md": Self.page("        image: { src: /images/wide.png, alt: A gradient }\n"),
        ]) { _, new in new })
        try site.build()
        let made = try Self.made(site)
        // Widths of 320, 640 and 960 (no 1280 or 1920: never made larger), WebP, and the PNG fallback at the largest.
        #expect(made.count == 4, "\(made)")
        for (width, format) in [(320, "webp"), (640, "webp"), (960, "webp"), (960, "png")] {
            let name = try #require(made.first { $0.hasSuffix(".\(width)x\(width / 2).\(format)") }, "\(width) \(format): \(made)")
            let header = try Self.header(site.output + "/images/" + name)
            #expect(header.width == width && header.height == width / 2)
            #expect(ImageFormat(loader: header.loader)?.rawValue == format)
        }
        let html = try site.read("index.html")
        let fallback = try #require(made.first { $0.hasSuffix(".png") })
        #expect(html.contains("<img src=\"/images/\(fallback)\" srcset=\"/images/\(fallback) 960w\" data-sizes=\"(min-width: 40rem) 50vw, 100vw\" width=\"960\" height=\"480\" data-color=\"#"), "\(html)")
        let webp = made.filter { $0.hasSuffix(".webp") }.sorted { $0.count < $1.count || ($0.count == $1.count && $0 < $1) }
        #expect(html.contains("<source type=\"image/webp\" srcset=\"" + webp.map { name in "/images/\(name) \(name.split(separator: ".")[2].split(separator: "x")[0])w" }.joined(separator: ", ") + "\">"), "\(html)")
        // The file itself is still copied as it is: links to it keep working.
        #expect(site.exists("images/wide.png"))
    }

    @Test func exifOrientationIsAppliedAndNoMetadataLeavesTheSite() throws {
        let site = try TemporarySite(Self.component.merging([
            "content/index.md": Self.page("        image: /images/rotated.jpg\n") + "![Turned](/images/rotated.jpg)\n",
        ]) { _, new in new })
        try FileManager.default.createDirectory(atPath: site.root + "/static/images", withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: Self.rotated, toPath: site.root + "/static/images/rotated.jpg")
        try site.build()
        let made = try Self.made(site)
        #expect(made.count == 4, "320, 640 and 800 wide in WebP, and the JPEG fallback: \(made)")
        for name in made {
            let data = try Data(contentsOf: URL(fileURLWithPath: site.output + "/images/" + name))
            let header = try ImageCodec.header(of: data)
            // Turned upright: taller than wide, and no orientation left to apply.
            #expect(header.height > header.width && header.orientation == 1, "\(name)")
            for marker in ["Exif", "TesseraCam", "GPS"] {
                #expect(data.range(of: Data(marker.utf8)) == nil, "\(name) holds \(marker)")
            }
        }
        // The placeholder in the page is metadata-free too.
        let html = try site.read("index.html")
        #expect(html.contains("<picture><source type=\"image/webp\" srcset=\"/images/rotated."), "\(html)")
        #expect(html.contains("alt=\"Turned\" width=\"800\" height=\"1200\""), "the Markdown image is eager, the first of its text: \(html)")
        let previews = html.components(separatedBy: "base64,").dropFirst().compactMap { Data(base64Encoded: String($0.prefix { $0 != "%" && $0 != "\"" && $0 != "&" })) }
        #expect(!previews.isEmpty && previews.allSatisfy { $0.range(of: Data("Exif".utf8)) == nil })
    }

    @Test func markdownImagesArePicturesLazyButTheFirstAndRemoteOnesStayAsTheyAre() throws {
        let site = try TemporarySite([
            "static/a.png": TestImages.png(800, 400),
            "static/b.png": TestImages.png(400, 300, alpha: true),
            "site.yml": "title: T\nbuildDate: 2026-11-22T12:00:00Z\ntheme: mini\nimages: { sizes: \"(min-width: 50rem) 48rem, 100vw\" }\n",
            "content/index.md": "---\ntitle: Home\n---\n![First](/a.png \"Its title\")\n\nText ![second](/b.png) and ![far](https://example.com/far.png).\n",
        ])
        try site.build()
        let html = try site.read("index.html")
        let first = try #require(html.range(of: "<picture>")).lowerBound
        let picture = String(html[first...].prefix { $0 != "\n" })
        #expect(picture.contains("sizes=\"(min-width: 50rem) 48rem, 100vw\""))
        #expect(picture.contains("alt=\"First\" title=\"Its title\" width=\"800\" height=\"400\" decoding=\"async\" style=\"background:#"), "opaque: a placeholder behind it: \(picture)")
        #expect(html.contains("alt=\"second\" width=\"400\" height=\"300\" loading=\"lazy\" decoding=\"async\"></picture>"), "transparent: no placeholder; lazy: \(html)")
        #expect(html.contains("<img src=\"https://example.com/far.png\" alt=\"far\" loading=\"lazy\" />"))
        #expect(try Self.made(site, in: ".").contains { $0.hasPrefix("b.") && $0.hasSuffix(".400x300.png") }, "a PNG with transparency falls back to PNG")
    }

    @Test func aRatioCropsAroundTheFocus() throws {
        let site = try TemporarySite(Self.component.merging([
            "static/images/wide.png": TestImages.png(600, 300),
            "content/index.md": Self.page("        image: /images/wide.png\n        square: { src: /images/wide.png, focus: right }\n"),
        ]) { _, new in new })
        try site.build()
        let made = try Self.made(site)
        let squares = made.filter { $0.contains(".100x100.") || $0.contains(".200x200.") }
        #expect(squares.count == 3, "100 and 200 in WebP, and the fallback: \(made)")
        // The gradient's red grows to the right: the right-hand crop is redder than the left of the image.
        let square = try #require(squares.first { $0.hasSuffix(".200x200.png") })
        let pixels = try ImageCodec.pixels(of: ImageCodec.checked(
            Data(contentsOf: URL(fileURLWithPath: site.output + "/images/" + square)), header: Self.header(site.output + "/images/" + square), width: 1, height: 1))
        #expect(pixels.bytes[0] > 160, "the right half of the image: \(pixels.bytes)")
        #expect(try site.read("index.html").contains("class=\"square\" src=\"/images/\(square)\" width=\"200\" height=\"200\""))
    }

    @Test func aCachedBuildProcessesNoImageAndAnEditedImageIsMadeAgain() throws {
        let site = try TemporarySite(Self.component.merging([
            "static/images/wide.png": TestImages.png(700, 350),
            "content/index.md": Self.page("        image: /images/wide.png\n"),
            "content/other.md": "---\ntitle: Other\n---\n![Wide](/images/wide.png)\n",
        ]) { _, new in new })
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        func build() throws -> Int {
            let (built, _) = try SiteBuilder(options: options).run()
            // A build that finds nothing changed writes nothing and makes no image.
            return built.written?.rendered.mapped.routed.loaded.configured.images?.madeImages ?? 0
        }
        #expect(try build() == 1, "one image, one set of sizes: made once for both pages")
        let first = try Self.made(site)
        #expect(try build() == 0)
        try site.write("content/other.md", "---\ntitle: Other\n---\n![Wide](/images/wide.png) again.\n")
        #expect(try build() == 0, "an edit elsewhere makes no image")
        #expect(try Self.made(site) == first)
        try site.write("static/images/wide.png", TestImages.png(701, 350))
        #expect(try build() == 1)
        let second = try Self.made(site)
        #expect(Set(first).isDisjoint(with: second), "new bytes, new names; the old files are gone: \(first) \(second)")
        #expect(try site.differencesFromAFullBuild() == [])
        // The cache keeps only what the output uses.
        let stored = try FileManager.default.contentsOfDirectory(atPath: options.cacheDirectory! + "/images")
        #expect(stored.count == second.count, "\(stored)")
    }

    @Test func imagesWriteNothingButTheOutputAndTheCacheAndLeaveNoTemporaryFile() throws {
        let site = try TemporarySite(Self.component.merging([
            "static/images/wide.png": TestImages.png(700, 350),
            "content/index.md": Self.page("        image: /images/wide.png\n"),
        ]) { _, new in new })
        let before = OutputSafetyTests.snapshot(site.root)
        // Without a cache: made into the process's temporary folder (ImageCommandTests: gone when it exits).
        let (built, _) = try SiteBuilder(options: site.options()).run()
        let store = try #require(built.written?.rendered.mapped.routed.loaded.configured.images?.store)
        #expect(store.hasPrefix(NSTemporaryDirectory() + "tessera-images-\(getpid())-"))
        #expect(try Self.made(site).count == 3)
        var options = site.options()
        options.cacheDirectory = site.root + "/.tessera/cache"
        try SiteBuilder(options: options).build()
        let after = OutputSafetyTests.snapshot(site.root)
        let changed = Set(before.keys).union(after.keys).filter { before[$0] != after[$0] }
        #expect(changed.allSatisfy { $0 == "public" || $0.hasPrefix("public/") || $0 == ".tessera" || $0.hasPrefix(".tessera/") }, "\(changed.sorted())")
        #expect(!after.keys.contains { $0.contains(".tmp-") })
        #expect(after.keys.contains(".tessera/cache/images.index"))
    }

    /// The shim and the inspection take any bytes: a corrupt image fails with a message, never
    /// a crash, and what does decode is a real image.
    @Test func corruptImagesFailCleanly() throws {
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.rotated))
        let png = TestImages.pngData(width: 64, height: 48)
        var generator = SeededGenerator(seed: 31)
        var decoded = 0, failed = 0
        for round in 0..<240 {
            var data = round.isMultiple(of: 2) ? original : png
            switch round % 4 {
            case 0, 1:
                // A few bytes changed anywhere past the signature.
                for _ in 0..<(1 + Int(generator.next() % 8)) {
                    data[8 + Int(generator.next() % UInt64(data.count - 8))] = UInt8(truncatingIfNeeded: generator.next())
                }
            case 2:
                data = data.prefix(Int(generator.next() % UInt64(data.count)))
            default:
                // A run of bytes repeated or cut out of the middle.
                let start = 16 + Int(generator.next() % UInt64(data.count - 32)), length = 1 + Int(generator.next() % 64)
                data = round.isMultiple(of: 8) ? data.prefix(start) + data.dropFirst(start + length) : data.prefix(start + length) + data.dropFirst(start)
            }
            do {
                let image = try SourceImage.inspect(data, maxPixels: 100_000_000)
                #expect(image.width > 0 && image.height > 0 && image.color != nil)
                decoded += 1
            } catch let failure as ImageCodec.Failure {
                #expect(!failure.description.isEmpty)
                failed += 1
            }
        }
        #expect(decoded + failed == 240 && failed > 0)
    }

    /// WebP is encoded by libwebp directly, without the copy of the whole image libvips' saver
    /// makes first. The result must be the saver's: on generated images of every PNG colour type
    /// and depth, size, content, quality and effort, in memory (the pipeline's sizes) and still
    /// lazy, the VP8 and ALPH chunks are byte for byte libvips', and images libwebp cannot take
    /// as they are (grey, 16-bit) go to libvips' saver.
    @Test func directWebPIsLibvipsWebP() throws {
        var generator = SeededGenerator(seed: 0x5EB)
        func next(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
        var direct = 0, compared = 0
        for round in 0..<48 {
            let width = 1 + next(round < 8 ? 24 : 420), height = 1 + next(round < 8 ? 24 : 300)
            let colour = TestImages.Colour.allCases[round % 4], depth = round % 6 == 5 ? 16 : 8
            let (noise, step, seed) = (next(64), 1 + next(9), next(256))
            let png = TestImages.pngData(width: width, height: height, colour: colour, depth: depth) { x, y, band in
                band == colour.bands - 1 && (colour == .rgba || colour == .greyAlpha)
                    ? (x / step + y) % 3 == 0 ? 0 : 255 - (x * 7 + seed) % 200
                    : (x * (band + 1) * 3 + y * 5 + seed) / step % 256 + ((x * 31 + y * 17 + band * 13) % (noise + 1))
            }
            let (scaledWidth, scaledHeight) = (max(1, width * (40 + next(61)) / 100), max(1, height * (40 + next(61)) / 100))
            // A lazy image is read once (its loader reads the file in order): one each time.
            func lazy() throws -> ImageCodec.Image { try ImageCodec.scaled(png, width: scaledWidth, height: scaledHeight) }
            let quality = 1 + next(100), effort = next(7)
            let inMemory = try ImageCodec.materialized(lazy())
            for image in [{ inMemory }, lazy] {
                let ours = try ImageCodec.encode(image(), as: .webp, quality: quality, effort: effort)
                let theirs = try ImageCodec.encodeWithLibvipsSaver(image(), quality: quality, effort: effort)
                let (ourChunks, theirChunks) = (Self.webPChunks(ours), Self.webPChunks(theirs))
                #expect(ourChunks.filter { $0.type != "VP8X" } == theirChunks.filter { $0.type != "VP8X" },
                        "round \(round): \(colour) \(depth)-bit \(width)×\(height) → \(scaledWidth)×\(scaledHeight), Q \(quality), effort \(effort)")
                #expect(!ourChunks.contains { $0.type == "EXIF" || $0.type == "XMP " })
                // libvips' saver always writes VP8X; libwebp writes it only for an alpha plane.
                if !ourChunks.contains(where: { $0.type == "VP8X" }) { direct += 1 }
                compared += 1
            }
        }
        #expect(compared == 96 && direct >= 20, "\(direct) of \(compared) took libwebp directly")
    }

    /// The chunks of a WebP file, in order.
    static func webPChunks(_ data: Data) -> [WebPChunk] {
        let bytes = [UInt8](data)
        var chunks: [WebPChunk] = [], index = 12
        while index + 8 <= bytes.count {
            let size = Int(bytes[index + 4]) | Int(bytes[index + 5]) << 8 | Int(bytes[index + 6]) << 16 | Int(bytes[index + 7]) << 24
            let end = min(bytes.count, index + 8 + size)
            chunks.append(WebPChunk(type: String(decoding: bytes[index..<(index + 4)], as: UTF8.self), payload: Array(bytes[(index + 8)..<end])))
            index = end + (size & 1)
        }
        return chunks
    }

    struct WebPChunk: Equatable, CustomStringConvertible {
        var type: String
        var payload: [UInt8]

        var description: String {
            var digest = StableDigest()
            digest.combine(Data(payload))
            return "\(type) (\(payload.count) bytes, digest \(String(digest.value, radix: 16)))"
        }
    }

    /// Making an image trims every heap only for a photo's buffers: a site's icons and
    /// thumbnails (up to 4 megapixels) leave the page renderers' heaps alone; an image of
    /// unknown size is trimmed after, as before.
    @Test func onlyLargeImagesGiveMemoryBack() {
        #expect(!ImageCodec.returnsMemory(pixels: 512 * 512))
        #expect(!ImageCodec.returnsMemory(pixels: 1920 * 1080))
        #expect(!ImageCodec.returnsMemory(pixels: 0), "an SVG that gives no size, drawn at the icons' sizes")
        #expect(ImageCodec.returnsMemory(pixels: 3000 * 2000), "the photos of image_memory.py")
        #expect(ImageCodec.returnsMemory(pixels: 2048 * 2048))
        #expect(ImageCodec.returnsMemory(pixels: nil))
    }

    // MARK: The default theme, share cards and icons

    static func defaultThemeSite(_ extra: String = "") throws -> TemporarySite {
        try TemporarySite([
            "site.yml": "title: Photos\nbaseURL: https://example.com/\ntheme: default\nbuildDate: 2026-11-22T12:00:00Z\n" + extra,
            "static/images/harbour.png": TestImages.png(900, 600),
            "content/index.md": "---\ntitle: Home\nsections:\n  - items:\n      - { component: article-thumb, title: Harbour, image: /images/harbour.png }\n      - { component: article-top-image, title: Harbour, image: { src: /images/harbour.png, focus: top } }\n---\n",
            "content/post.md": "---\ntitle: A post\ndate: 2026-11-01\nimage: { src: /images/harbour.png, alt: The harbour }\n---\n![The harbour](/images/harbour.png)\n",
        ], base: [:], theme: nil)
    }

    @Test func theDefaultThemeSharesAPNGCardAndMakesIconsAndAManifest() throws {
        let site = try Self.defaultThemeSite()
        try site.build()
        let post = try site.read("post/index.html")
        let card = try #require(post.range(of: "<meta property=\"og:image\" content=\"https://example.com/images/harbour-card.")).upperBound
        let name = "harbour-card." + post[card...].prefix { $0 != "\"" }
        #expect(name.hasSuffix(".1200x630.png"), "a PNG source shares a PNG card, made larger: \(name)")
        let header = try Self.header(site.output + "/images/" + name)
        #expect(header.width == 1200 && header.height == 630)
        #expect(post.contains("<meta property=\"og:image:type\" content=\"image/png\">"))
        for (file, side) in [("favicon-32.png", 32), ("apple-touch-icon.png", 180), ("icon-192.png", 192), ("icon-512.png", 512)] {
            let icon = try Self.header(site.output + "/" + file)
            #expect(icon.width == side && icon.height == side && ImageFormat(loader: icon.loader) == .png, "\(file)")
        }
        let ico = try Data(contentsOf: URL(fileURLWithPath: site.output + "/favicon.ico"))
        #expect(Array(ico.prefix(6)) == [0, 0, 1, 0, 1, 0] && ico.dropFirst(22).starts(with: [0x89, 0x50, 0x4E, 0x47]), "an ICO of one PNG")
        let manifest = try #require(JSONSerialization.jsonObject(with: Data(site.read("manifest.webmanifest").utf8)) as? [String: Any])
        #expect(manifest["name"] as? String == "Photos" && (manifest["icons"] as? [[String: String]])?.map { $0["src"] } == ["/icon-192.png", "/icon-512.png"])
        #expect(post.contains("<link rel=\"apple-touch-icon\" href=\"/apple-touch-icon.png\">") && post.contains("<link rel=\"manifest\" href=\"/manifest.webmanifest\">"))
        // Cards crop to 16:9 at the focus; thumbnails to 4:3.
        let home = try site.read("index.html")
        #expect(home.contains(".320x180.webp 320w") && home.contains(".96x72.webp 96w"), "\(home)")
        #expect(try site.differencesFromAFullBuild() == [])
    }

    @Test func aSiteKeepsItsOwnIconsAndTheDefaultThemeBuildsWithImagesAsTheyAre() throws {
        let site = try Self.defaultThemeSite("images: { process: false }\n")
        try site.write("static/apple-touch-icon.png", TestImages.png(180, 180))
        let own = try Data(contentsOf: URL(fileURLWithPath: site.root + "/static/apple-touch-icon.png"))
        try site.build()
        // Nothing made: the files as they are, with their sizes; no card, no icons.
        let post = try site.read("post/index.html")
        #expect(post.contains("<img class=\"article-cover\" src=\"/images/harbour.png\" alt=\"The harbour\" width=\"900\" height=\"600\""), "\(post)")
        #expect(post.contains("<meta property=\"og:image\" content=\"https://example.com/images/harbour.png\">"))
        #expect(!site.exists("icon-192.png") && !site.exists("manifest.webmanifest"))
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.output + "/apple-touch-icon.png")) == own)
        // Processed, the site's own apple-touch-icon.png stays its own.
        try site.write("site.yml", "title: Photos\nbaseURL: https://example.com/\ntheme: default\nbuildDate: 2026-11-22T12:00:00Z\n")
        try site.build()
        #expect(try Data(contentsOf: URL(fileURLWithPath: site.output + "/apple-touch-icon.png")) == own)
        #expect(site.exists("icon-192.png"))
    }
}
