// swift-tools-version: 6.1
//
// Benchmarks for DBBBuilder (SQLite, and PostgreSQL when DBB_BENCH_POSTGRES names a server), kept out of the main package so `swift test` and CI stay light.
//   swift run -c release --package-path Benchmarks bench [--quick] [--filter NAME]
import PackageDescription

let package = Package(
    name: "DBBBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "DBBBuilder", path: "..", traits: ["Postgres"]),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        .package(url: "https://github.com/vapor/fluent-kit", from: "1.57.0"),
        .package(url: "https://github.com/vapor/fluent-sqlite-driver", from: "4.9.0"),
        .package(url: "https://github.com/vapor/fluent-postgres-driver", from: "2.14.0"),
    ],
    targets: [
        .executableTarget(
            name: "bench",
            dependencies: [
                .product(name: "DBBSQLite", package: "DBBBuilder"),
                .product(name: "DBBLocale", package: "DBBBuilder"),
                .product(name: "DBBBuilder", package: "DBBBuilder"),
                .product(name: "DBBScript", package: "DBBBuilder"),
                .product(name: "DBBPostgres", package: "DBBBuilder"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "FluentKit", package: "fluent-kit"),
                .product(name: "FluentSQLiteDriver", package: "fluent-sqlite-driver"),
                .product(name: "FluentPostgresDriver", package: "fluent-postgres-driver"),
                "RawSQLite",
            ]
        ),
        .systemLibrary(name: "CSQLiteBench", providers: [.apt(["libsqlite3-dev"])]),
        .target(name: "RawSQLite", dependencies: ["CSQLiteBench"]),
    ],
    swiftLanguageModes: [.v6]
)
