// swift-tools-version: 6.1
//
// dbb-service: DBBBuilder in an HTTP service (Hummingbird 2), the example a service team would
// copy. A package of its own, depending on DBBBuilder by path, so that the main package's build
// never compiles SwiftNIO's HTTP stack.
//   DBBService        – the application: routes, JSON bodies, errors, the database setup
//   dbb-service       – the server command (SQLite by default, --postgres URL [--replica URL …])
//   dbb-service-load  – the load and fault client behind BENCHMARKS.md's service numbers
import PackageDescription

let package = Package(
    name: "dbb-service",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "dbb-service", targets: ["dbb-service"]),
        .executable(name: "dbb-service-load", targets: ["dbb-service-load"]),
    ],
    dependencies: [
        // DBBPostgres and the PostgreSQL test server's client need the package trait `Postgres`.
        .package(name: "DBBBuilder", path: "../..", traits: ["Postgres"]),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Tests only: OpenAPIDocumentTests reads openapi.yaml.
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // `--metrics`: DBBBuilder's metrics in Prometheus' text format at GET /metrics.
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        // `--otel-endpoint`: DBBBuilder's spans exported over OTLP/HTTP. The trait leaves out
        // swift-otel's default OTLP/gRPC exporter, and with it gRPC's packages.
        .package(url: "https://github.com/swift-otel/swift-otel", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        .target(
            name: "DBBService",
            dependencies: [
                .product(name: "DBBBuilder", package: "DBBBuilder"),
                .product(name: "DBBPostgres", package: "DBBBuilder"),
                .product(name: "DBBWeeklyReport", package: "DBBBuilder"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "dbb-service",
            dependencies: [
                "DBBService",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "dbb-service-load",
            dependencies: [
                .product(name: "DBBBuilder", package: "DBBBuilder"),
                .product(name: "DBBPostgres", package: "DBBBuilder"),
                .product(name: "DBBTestSupport", package: "DBBBuilder"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .testTarget(
            name: "DBBServiceTests",
            dependencies: [
                "DBBService",
                .product(name: "DBBTestSupport", package: "DBBBuilder"),
                .product(name: "DBBWeeklyReport", package: "DBBBuilder"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
