// swift-tools-version: 6.0
//
// DBBBuilder for Swift on Linux. The layers (see DESIGN.md), bottom up:
//   CSQLite    – the system SQLite library (libsqlite3-dev), no vendored amalgamation
//   DBBSQLite  – the only code that calls the SQLite C API
//   DBBLocale  – locale-aware calendar functions for SQL
//   DBBBuilder – the ORM: manager, table objects, mappings, queries
//   Sources/dbb, CodeGenerator/, Examples/ – tools on the public API (later issues)
import PackageDescription

let package = Package(
    name: "DBBBuilder",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "DBBSQLite", targets: ["DBBSQLite"]),
        .library(name: "DBBLocale", targets: ["DBBLocale"]),
        .library(name: "DBBBuilder", targets: ["DBBBuilder"]),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .target(
            name: "DBBSQLite",
            dependencies: ["CSQLite"]
        ),
        .target(
            name: "DBBLocale",
            dependencies: ["DBBSQLite"]
        ),
        .target(
            name: "DBBBuilder",
            dependencies: ["DBBSQLite", "DBBLocale", "CDBBRuntime"]
        ),
        /// One C helper of DBBBuilder: the size of an object's heap block.
        .target(name: "CDBBRuntime"),

        // MARK: - Tests

        /// Helpers shared by every test target: temporary directories and databases.
        .target(
            name: "DBBTestSupport",
            dependencies: ["DBBSQLite", "DBBLocale", "DBBBuilder"],
            path: "Tests/DBBTestSupport"
        ),
        .testTarget(
            name: "DBBSQLiteTests",
            dependencies: ["DBBSQLite", "CSQLite", "DBBTestSupport"]
        ),
        .testTarget(
            name: "DBBBuilderTests",
            dependencies: ["DBBBuilder", "DBBSQLite", "DBBTestSupport"]
        ),
        .testTarget(
            name: "DBBLocaleTests",
            dependencies: ["DBBLocale", "DBBSQLite", "DBBTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
