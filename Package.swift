// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "Tessera",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TesseraLayout", targets: ["TesseraLayout"]),
        .library(name: "TesseraStore", targets: ["TesseraStore"]),
        .library(name: "TesseraSQLite", targets: ["TesseraSQLite"]),
        // A stored layout cut into immutable tiles, for CDNs and clients.
        .library(name: "TesseraTiles", targets: ["TesseraTiles"]),
        .library(name: "TesseraPrecompute", targets: ["TesseraPrecompute"]),
        // A store in memory for users' tests: no file, the same rules.
        .library(name: "TesseraStoreTesting", targets: ["TesseraStoreTesting"]),
        .executable(name: "tessera", targets: ["tessera"]),
        // A client of the tile routes (or of a static export): Foundation
        // and the engine only, for apps and servers alike.
        .library(name: "TesseraClient", targets: ["TesseraClient"]),
        // The HTTP service and the module to mount it in a Hummingbird app: separate
        // products, so that `swift run tessera` never builds Hummingbird.
        .library(name: "TesseraHummingbird", targets: ["TesseraHummingbird"]),
        .executable(name: "tessera-server", targets: ["tessera-server"]),
        // The benchmarks (the README's tables, the server's encoding and
        // routes in process): their own program, not part of `tessera` or
        // `tessera-server`.
        .executable(name: "tessera-bench", targets: ["tessera-bench"]),
        // The PostgreSQL backend. `tessera` and `tessera-server` open it from a
        // `postgres://` URL when built with the trait PostgreSQL
        // (`swift build --traits PostgreSQL`); without it they never build postgres-nio.
        .library(name: "TesseraPostgres", targets: ["TesseraPostgres"]),
    ],
    traits: [
        .trait(name: "PostgreSQL", description: "`tessera` and `tessera-server` open PostgreSQL stores from postgres:// URLs"),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Only for `swift package generate-documentation` (a plugin: nothing of it is linked).
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // The HTTP service only (TesseraHummingbird, tessera-server).
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // The PostgreSQL backend only (TesseraPostgres).
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        // gzip for the tile routes and `tessera export --tiles` (zlib1g-dev).
        .systemLibrary(
            name: "CZlib",
            path: "CZlib",
            pkgConfig: "zlib",
            providers: [.apt(["zlib1g-dev"])]
        ),
        .target(name: "TesseraGzip", dependencies: ["CZlib"]),
        // The viewer's page and the JavaScript tile client, compiled into the
        // binaries from their one source in Clients/ (no bundle to lose).
        .target(
            name: "TesseraViewer",
            path: "Clients",
            exclude: [
                "JavaScript/README.md", "JavaScript/package.json", "JavaScript/tessera-tiles.d.ts",
                "JavaScript/bench", "JavaScript/browser", "JavaScript/support", "JavaScript/test",
            ],
            sources: ["Viewer/ViewerFiles.swift"],
            resources: [.embedInCode("Viewer/index.html"), .embedInCode("Viewer/viewer.js"), .embedInCode("JavaScript/tessera-tiles.mjs")]
        ),
        .target(name: "TesseraLayout"),
        .target(name: "TesseraClient", dependencies: ["TesseraLayout", "Locking"]),
        // The package's lock, one that ThreadSanitizer understands, the
        // containers kept behind locks (FIFO, LRUList), and its clock.
        .target(name: "Locking"),
        // A prefetch instruction, which Swift does not have.
        .target(name: "CTesseraPrefetch"),
        // Bytes the store writes and checks: placer states, checksums, spec
        // fingerprints, frame blobs. Pure values, no storage.
        .target(name: "TesseraStoreFormat", dependencies: ["TesseraLayout", "CTesseraPrefetch"]),
        .target(name: "TesseraStore", dependencies: ["TesseraStoreFormat", "TesseraLayout", "Locking", "CTesseraPrefetch"]),
        // Tiles of stored layouts: their manifest, revision and JSON, over the store's queries.
        // The contract's JSON of listings and write reports, for the CLI and the HTTP service alike.
        .target(name: "TesseraStoreJSON", dependencies: ["TesseraStore", "TesseraLayout"]),
        .target(name: "TesseraTiles", dependencies: ["TesseraStore", "TesseraStoreFormat", "TesseraLayout", "Locking"]),
        // Precompute at fleet scale over the store's writes: batches of specs
        // through workers and one writer, shards of a spec list, merges of stores.
        .target(name: "TesseraPrecompute", dependencies: ["TesseraStore", "TesseraStoreFormat", "TesseraLayout", "Locking"]),
        // The in-memory backend, for tests: the store's conformance suite
        // runs on it, and users' tests open stores with it.
        .target(name: "TesseraStoreTesting", dependencies: ["TesseraStore", "TesseraLayout", "Locking"]),
        // The SQLite toolkit (connections, statements, the pool of readers and
        // its writer): an internal layer that knows nothing of the store.
        .target(name: "SQLiteToolkit", dependencies: ["CSQLite", "Locking"]),
        .target(name: "TesseraSQLite", dependencies: ["SQLiteToolkit", "Locking", "TesseraStore", "TesseraStoreFormat", "TesseraLayout", "CSQLite"]),
        .target(
            name: "TesseraPostgres",
            dependencies: [
                "TesseraStore", "TesseraLayout", "Locking",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        // Opens a store from what a user gives `--db`: a file path, or a
        // postgres:// URL when the trait PostgreSQL is on.
        .target(
            name: "TesseraBackends",
            dependencies: [
                "TesseraStore", "TesseraSQLite", "TesseraLayout",
                .target(name: "TesseraPostgres", condition: .when(traits: ["PostgreSQL"])),
            ]
        ),
        // What `tessera` and `tessera-bench` share: one-line errors, tables,
        // standard output. Not a product.
        .target(
            name: "TesseraCommandSupport",
            dependencies: ["TesseraLayout", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "tessera",
            dependencies: [
                "TesseraLayout",
                "TesseraTiles",
                "TesseraPrecompute",
                "TesseraStore",
                "TesseraStoreJSON",
                "TesseraSQLite",
                "SQLiteToolkit",
                "Locking",
                "TesseraBackends",
                "TesseraCommandSupport",
                "TesseraGzip",
                "TesseraViewer",
                .target(name: "TesseraPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .target(
            name: "TesseraHummingbird",
            dependencies: [
                "Locking",
                "TesseraLayout",
                "TesseraTiles",
                "TesseraStore",
                "TesseraStoreJSON",
                "TesseraStoreFormat",
                "TesseraGzip",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // What `tessera-server` and `tessera-bench` share: the server's
        // router, its log lines, opening its store. Not a product.
        .target(
            name: "TesseraServerSupport",
            dependencies: [
                "Locking",
                "TesseraHummingbird",
                "TesseraStore",
                "TesseraSQLite",
                "TesseraBackends",
                "TesseraViewer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .executableTarget(
            name: "tessera-server",
            dependencies: [
                "TesseraHummingbird",
                "TesseraServerSupport",
                "TesseraStore",
                "TesseraSQLite",
                "TesseraBackends",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "tessera-bench",
            dependencies: [
                "TesseraLayout",
                "TesseraTiles",
                "TesseraPrecompute",
                "TesseraStore",
                "TesseraSQLite",
                "SQLiteToolkit",
                "TesseraBackends",
                "TesseraCommandSupport",
                "TesseraGzip",
                "TesseraHummingbird",
                "TesseraServerSupport",
                "TesseraClient",
                "Locking",
                .target(name: "TesseraPostgres", condition: .when(traits: ["PostgreSQL"])),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
        .target(name: "TesseraTestSupport", dependencies: ["TesseraLayout"], path: "Tests/TesseraTestSupport"),
        // What only this package's tests do to an in-memory store: damage
        // its rows, count its reads, check its indexes.
        .target(
            name: "TesseraInMemory", dependencies: ["TesseraStoreTesting", "TesseraStore", "TesseraStoreFormat", "TesseraLayout", "TesseraCommandSupport"],
            path: "Tests/TesseraInMemory"
        ),
        .testTarget(name: "TesseraLayoutTests", dependencies: ["TesseraLayout", "TesseraTestSupport"]),
        .testTarget(
            name: "TesseraStoreTests",
            dependencies: [
                "TesseraStore", "TesseraStoreFormat", "TesseraStoreJSON", "TesseraTiles", "TesseraPrecompute", "TesseraSQLite", "SQLiteToolkit", "TesseraPostgres", "TesseraStoreTesting", "TesseraInMemory", "TesseraLayout",
                "TesseraTestSupport", "Locking",
                // The column tiles' decoder, against their encoder.
                "TesseraClient", "TesseraGzip",
            ]
        ),
        // The product as a user's tests use it: public API only.
        .testTarget(name: "TesseraStoreTestingTests", dependencies: ["TesseraStoreTesting", "TesseraStore", "TesseraLayout", "TesseraTestSupport"]),
        .testTarget(
            name: "TesseraSQLiteTests", dependencies: ["TesseraSQLite", "SQLiteToolkit", "CSQLite", "TesseraStore", "TesseraStoreFormat", "TesseraPrecompute", "TesseraLayout", "TesseraTestSupport", "Locking"]
        ),
        .testTarget(
            name: "TesseraCLITests",
            dependencies: [
                "tessera", "TesseraCommandSupport", "TesseraLayout", "TesseraStore", "TesseraPrecompute", "TesseraSQLite", "SQLiteToolkit", "TesseraBackends",
                "TesseraTestSupport", "Locking",
            ]
        ),
        .testTarget(name: "TesseraPostgresTests", dependencies: ["TesseraPostgres", "TesseraStore"]),
        .testTarget(name: "TesseraBackendsTests", dependencies: ["TesseraBackends", "TesseraStore", "TesseraLayout"]),
        .testTarget(
            name: "TesseraServerTests",
            dependencies: [
                // `tessera` for its binary: answers are compared with the CLI's;
                // `tessera-bench` for its binary: the server's benchmarks run.
                "tessera", "tessera-server", "tessera-bench", "TesseraHummingbird", "TesseraServerSupport", "TesseraSQLite", "SQLiteToolkit", "TesseraGzip",
                "TesseraViewer",
                "TesseraClient", "TesseraStore", "TesseraTiles", "TesseraPrecompute", "TesseraLayout", "TesseraTestSupport", "Locking",
                "TesseraBackends",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
