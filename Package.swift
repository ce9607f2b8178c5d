// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "tessera", targets: ["tessera"]),
        .library(name: "TesseraKit", targets: ["TesseraKit"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/swift-mustache", from: "2.1.1"),
        .package(url: "https://github.com/jpsim/Yams", from: "5.0.1"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CCmark",
            pkgConfig: "libcmark",
            providers: [.apt(["libcmark-dev"])]
        ),
        .target(
            name: "TesseraKit",
            dependencies: [
                "CCmark",
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "TesseraCLI",
            dependencies: [
                "TesseraKit",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(name: "tessera", dependencies: ["TesseraCLI"]),
        .testTarget(name: "TesseraKitTests", dependencies: ["TesseraKit"]),
        .testTarget(name: "TesseraCLITests", dependencies: ["TesseraCLI", "TesseraKit"]),
    ]
)
