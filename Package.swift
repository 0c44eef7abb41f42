// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TesseraLayout", targets: ["TesseraLayout"]),
        .library(name: "TesseraStore", targets: ["TesseraStore"]),
        .library(name: "TesseraSQLite", targets: ["TesseraSQLite"]),
        .executable(name: "tessera", targets: ["tessera"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only for `swift package generate-documentation` (a plugin: nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "TesseraLayout"),
        .target(name: "TesseraStore", dependencies: ["TesseraLayout"]),
        .target(name: "TesseraSQLite", dependencies: ["TesseraStore", "TesseraLayout", "CSQLite"]),
        .executableTarget(
            name: "tessera",
            dependencies: [
                "TesseraLayout",
                "TesseraStore",
                "TesseraSQLite",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(name: "TesseraTestSupport", dependencies: ["TesseraLayout"], path: "Tests/TesseraTestSupport"),
        .testTarget(name: "TesseraLayoutTests", dependencies: ["TesseraLayout", "TesseraTestSupport"]),
        .testTarget(name: "TesseraStoreTests", dependencies: ["TesseraStore", "TesseraSQLite", "TesseraLayout", "TesseraTestSupport"]),
        .testTarget(name: "TesseraSQLiteTests", dependencies: ["TesseraSQLite", "TesseraStore", "TesseraLayout", "TesseraTestSupport"]),
        .testTarget(name: "TesseraCLITests", dependencies: ["tessera", "TesseraLayout", "TesseraStore", "TesseraSQLite", "TesseraTestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
