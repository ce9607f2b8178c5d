// swift-tools-version:6.0
// The libFuzzer target over Tessera's input pipeline. A package of its own so the normal build
// never sees the sanitizer flags; see README.md here for the command.
import PackageDescription

let package = Package(
    name: "TesseraFuzz",
    platforms: [.macOS(.v14)],
    dependencies: [.package(name: "Tessera", path: "../..")],
    targets: [
        .executableTarget(
            name: "TesseraFuzz",
            dependencies: ["FuzzEntry", .product(name: "TesseraKit", package: "Tessera")]
        ),
        .target(name: "FuzzEntry"),
    ]
)
