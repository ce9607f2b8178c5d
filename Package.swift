// swift-tools-version:6.0
import PackageDescription

/// `TESSERA_OPTIMIZED_TESTS=1`, which `make test` sets: Tessera's own targets are optimized in a
/// debug build too. Most tests build sites, and the unoptimized engine takes six times the CPU
/// (the whole suite 245 s against 205 s on two cores). `@testable import` still works: a debug
/// build keeps `-enable-testing`. Dependencies stay as they are.
let optimizedTests = Context.environment["TESSERA_OPTIMIZED_TESTS"] == "1"
let engineSettings: [SwiftSetting] = optimizedTests ? [.unsafeFlags(["-O"])] : []
let engineCSettings: [CSetting] = optimizedTests ? [.unsafeFlags(["-O2"])] : []

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
        .library(name: "TesseraKit", targets: ["TesseraKit"]),
        // For apps: reads the page JSON a site publishes. Foundation only; no engine inside.
        .library(name: "TesseraClient", targets: ["TesseraClient"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swiftcsv/SwiftCSV", from: "0.10.0"),
        .package(url: "https://github.com/onevcat/Rainbow", from: "4.2.2"),
    ],
    targets: [
        // GitHub's libcmark-gfm with its extensions (tables, strikethrough, autolinks, task lists);
        // footnotes are in the core library.
        .systemLibrary(
            name: "CCmarkGFM",
            pkgConfig: "libcmark-gfm",
            providers: [.apt(["libcmark-gfm-dev", "libcmark-gfm-extensions-dev"])]
        ),
        // Allocation in C: a per-thread bump allocator for libcmark-gfm (thread-local state, which
        // cmark's allocator interface needs), and the tuning of glibc's malloc.
        .target(name: "CAllocation", dependencies: ["CCmarkGFM"], cSettings: engineCSettings),
        // What makes libcmark-gfm's extensions safe on several threads at once: a one-time set-up,
        // and the table of special characters managed around each parse.
        .target(name: "CMarkdownExtensions", dependencies: ["CCmarkGFM"], cSettings: engineCSettings),
        // libvips' headers, for resizing and encoding images; only CImages includes them. Tessera
        // does not link libvips: CImages loads it on first use (`vips.c` says why). GLib's
        // pkg-config gives the include paths its headers need, and links GLib alone (0.3 ms
        // of a start, against libvips' 25).
        .systemLibrary(name: "CVips", pkgConfig: "glib-2.0", providers: [.apt(["libvips-dev"])]),
        // Tessera's calls into libvips, none of them variadic, behind a header of plain C types;
        // libwebp (which libvips links) for WebP encoded without libvips' copy of the whole image.
        .target(name: "CImages", dependencies: ["CVips"], cSettings: engineCSettings, linkerSettings: [.linkedLibrary("webp")]),
        .target(
            name: "TesseraKit",
            dependencies: [
                "CCmarkGFM",
                "CImages",
                "CAllocation",
                "CMarkdownExtensions",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "SwiftCSV", package: "SwiftCSV"),
            ],
            swiftSettings: engineSettings,
            // ICU, which Foundation brings, for search's word boundaries (`SearchAnalyzer`).
            linkerSettings: [.linkedLibrary("_FoundationICU")]
        ),
        .target(
            name: "TesseraCLI",
            dependencies: [
                "TesseraKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Rainbow", package: "Rainbow"),
            ],
            swiftSettings: engineSettings
        ),
        .executableTarget(name: "tessera", dependencies: ["TesseraCLI", "CAllocation"]),
        .target(name: "TesseraClient", swiftSettings: engineSettings),
        .testTarget(
            name: "TesseraKitTests",
            // swift-mustache renders the same templates in a differential test of Tessera's renderer.
            dependencies: ["TesseraKit", "CCmarkGFM", "CAllocation", "CMarkdownExtensions", .product(name: "Mustache", package: "swift-mustache")],
            // Fixture sites and golden files are read from disk by path, not bundled.
            exclude: ["Fixtures", "Catalog/Golden"]
        ),
        // TesseraKit only to build the example site the client reads.
        .testTarget(name: "TesseraClientTests", dependencies: ["TesseraClient", "TesseraKit"]),
        .testTarget(
            name: "TesseraCLITests",
            dependencies: [
                "TesseraCLI", "TesseraKit",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
