// swift-tools-version: 6.1
//
// DBBBuilder for Swift on Linux. The layers (see the README, "Layers"), bottom up:
//   DBBCore    – what every layer shares and nothing else: `Locked`, `DBBBuilderVersion`, `SQLQuoting`
//   CSQLite    – the system SQLite library (libsqlite3-dev), no vendored amalgamation
//   DBBSQLite  – the only code that calls the SQLite C API
//   DBBLocale  – locale-aware calendar functions for SQL
//   DBBBuilder – the ORM: manager, table objects, mappings, queries
//   DBBPostgres – the same table objects on PostgreSQL (postgres-nio): built only with the
//                 package trait `Postgres` (off by default), empty without it
//   DBBScript  – the build-script runner (schema script + CSV import) behind `dbb build`
//   Sources/dbb, CodeGenerator/, Examples/ – tools on the public API
import CompilerPluginSupport
import PackageDescription

/// DBBPostgres, for the targets that use it only with the trait `Postgres` (their code that does is
/// inside `#if Postgres`).
let postgres: Target.Dependency = .target(name: "DBBPostgres", condition: .when(traits: ["Postgres"]))

let package = Package(
    name: "DBBBuilder",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "dbb", targets: ["dbb"]),
        .executable(name: "dbb-codegen", targets: ["dbb-codegen"]),
        .executable(name: "dbb-demo", targets: ["dbb-demo"]),
        .library(name: "DBBSQLite", targets: ["DBBSQLite"]),
        .library(name: "DBBLocale", targets: ["DBBLocale"]),
        .library(name: "DBBBuilder", targets: ["DBBBuilder"]),
        /// PostgreSQL for the same table objects. Its code and postgres-nio are there only with
        /// the trait `Postgres`: applications on SQLite alone never resolve or build SwiftNIO.
        .library(name: "DBBPostgres", targets: ["DBBPostgres"]),
        .library(name: "DBBScript", targets: ["DBBScript"]),
        /// The examples' weekly report (the seed's `Usage` data, its query, an SVG chart of it),
        /// shared by dbb-demo and Examples/dbb-service: not a stable API.
        .library(name: "DBBWeeklyReport", targets: ["DBBWeeklyReport"]),
        /// The tests' helpers (temporary databases, a throwaway PostgreSQL server with standbys),
        /// for the examples' tests and load runs: not a stable API.
        .library(name: "DBBTestSupport", targets: ["DBBTestSupport", "DBBBackendTestSupport"]),
        /// Builds the reference databases of a target's `*.dbbscript` files into its resources.
        .plugin(name: "DBBBuildPlugin", targets: ["DBBBuildPlugin"]),
    ],
    traits: [
        .trait(
            name: "Postgres",
            description: """
                PostgreSQL: the DBBPostgres library (postgres-nio, SwiftNIO), `dbb sql postgres://…`, \
                `dbb-demo --postgres`, and the PostgreSQL test suites. \
                `swift run --traits Postgres dbb-demo --postgres URL`; a dependent package names it in \
                `.package(url:from:traits: ["Postgres"])`.
                """
        ),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        // Metrics and spans for the statements, transactions and pool (NOOP until a backend is bootstrapped).
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
        // `@DBBTable` (a compiler plugin: built for the host, linked into no product).
        .package(url: "https://github.com/swiftlang/swift-syntax", from: "603.0.1"),
        // `swift package generate-documentation` (see the README's "Documentation"); a plugin
        // only: nothing of it is linked into the products.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(
            name: "CSQLite",
            path: "Sources/CSQLite",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        /// The few names every layer shares (`Locked`, `DBBBuilderVersion`), with no dependency:
        /// not a product; `import DBBBuilder` re-exports it.
        .target(name: "DBBCore"),
        .target(
            name: "DBBSQLite",
            dependencies: ["CSQLite", "DBBCore", .product(name: "Logging", package: "swift-log")]
        ),
        .target(
            name: "DBBLocale",
            dependencies: ["DBBCore", "DBBSQLite"]
        ),
        .target(
            name: "DBBBuilder",
            dependencies: [
                "DBBCore", "DBBSQLite", "DBBLocale", "DBBFormat", "CDBBRuntime", "DBBBuilderMacros",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ]
        ),
        /// `@DBBTable` and its property markers: the mapping, `init(dbManager:)` and the row
        /// accessors of a table-object class, generated from its stored properties.
        .macro(
            name: "DBBBuilderMacros",
            dependencies: [
                "DBBMacroKit", .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftCompilerPlugin", package: "swift-syntax"),
            ]
        ),
        /// The macros' expansions, in a library of their own: the tests use it directly, so that no
        /// test target depends on the macro target (which would build every test, and all it
        /// depends on, a second time for the host).
        .target(
            name: "DBBMacroKit",
            dependencies: [
                "DBBFormat",
                .product(name: "SwiftSyntaxMacros", package: "swift-syntax"),
                .product(name: "SwiftSyntaxBuilder", package: "swift-syntax"),
                .product(name: "SwiftDiagnostics", package: "swift-syntax"),
            ]
        ),
        .target(
            name: "DBBPostgres",
            dependencies: [
                "DBBCore", "DBBBuilder", "DBBLocale",
                .product(name: "PostgresNIO", package: "postgres-nio", condition: .when(traits: ["Postgres"])),
                .product(name: "Metrics", package: "swift-metrics"),
            ]
        ),
        /// DBBBuilder's on-disk layout (reserved columns, join-table and index names, storable
        /// types), shared by the ORM, the macro and the code generator.
        .target(name: "DBBFormat"),
        /// One C helper of DBBBuilder: the size of an object's heap block.
        .target(name: "CDBBRuntime"),
        .target(
            name: "DBBScript",
            dependencies: ["DBBCore", "DBBSQLite", "DBBLocale"]
        ),

        // MARK: - Tools

        /// The build-tool plugin and the program it runs (DBBScript alone: no PostgreSQL).
        .plugin(name: "DBBBuildPlugin", capability: .buildTool(), dependencies: ["dbb-build-tool"]),
        .executableTarget(name: "dbb-build-tool", dependencies: ["DBBCore", "DBBScript", "DBBSQLite"]),
        /// The plugin's example: a reference database built from food.dbbscript at build time,
        /// loaded through Bundle.module.
        .executableTarget(
            name: "dbb-food",
            dependencies: ["DBBBuilder"],
            path: "Examples/dbb-food",
            plugins: ["DBBBuildPlugin"]
        ),

        .executableTarget(
            name: "dbb",
            dependencies: [
                "DBBCore", "DBBScript", "DBBSQLite", "DBBLocale", "DBBBuilder", postgres,
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        /// The code generator: declarations or a database in, table-object classes out; and
        /// `--convert`, which rewrites DBBBuilder-style classes as `@DBBTable` classes (read and
        /// rewritten with swift-syntax, checked against the macro's own rules in DBBMacroKit).
        /// A database is read through DBBBuilder's backends, with the questions registration asks
        /// of each engine (its dialect), so that what it generates registers unchanged.
        .target(
            name: "DBBCodeGen",
            dependencies: [
                "DBBSQLite", "DBBFormat", "DBBBuilder", "DBBMacroKit",
                .product(name: "SwiftSyntax", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ],
            path: "CodeGenerator/Sources/DBBCodeGen"
        ),
        .target(name: "DBBWeeklyReport", dependencies: ["DBBBuilder", "DBBLocale"], path: "Examples/DBBWeeklyReport"),
        .executableTarget(
            name: "dbb-demo",
            dependencies: [
                "DBBBuilder", "DBBWeeklyReport", postgres,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Examples/dbb-demo",
            exclude: ["ModelSpecs", "regenerate.sh"]
        ),
        .executableTarget(
            name: "dbb-codegen",
            dependencies: [
                "DBBCodeGen", "DBBCore", "DBBSQLite", "DBBBuilder", postgres,
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "CodeGenerator/Sources/dbb-codegen"
        ),

        // MARK: - Tests

        /// Helpers shared by every test target: temporary directories and SQLite databases, the
        /// throwaway PostgreSQL server's processes, seeded randomness (no PostgreSQL client).
        .target(
            name: "DBBTestSupport",
            dependencies: [
                "DBBCore", "DBBSQLite", "DBBLocale", "DBBBuilder", .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/DBBTestSupport"
        ),
        /// `BackendDatabase`: one test source on a SQLite file or a PostgreSQL database.
        .target(
            name: "DBBBackendTestSupport",
            dependencies: ["DBBBuilder", postgres, "DBBTestSupport"],
            path: "Tests/DBBBackendTestSupport"
        ),
        /// Saves one batch for the crash-safety tests, which kill it mid-write.
        .executableTarget(
            name: "dbb-crash-helper",
            dependencies: ["DBBBuilder", postgres, "DBBSQLite", "DBBTestSupport"],
            path: "Tests/CrashHelper"
        ),
        .testTarget(
            name: "DBBReliabilityTests",
            dependencies: [
                "DBBBuilder", "DBBCore", "DBBSQLite", "DBBLocale", "DBBScript", "DBBCodeGen", "DBBTestSupport",
                "DBBBackendTestSupport", "dbb-crash-helper", "dbb",
            ]
        ),
        .testTarget(
            name: "DBBSQLiteTests",
            dependencies: [
                "DBBCore", "DBBSQLite", "CSQLite", "DBBTestSupport", .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .testTarget(
            name: "DBBBuilderTests",
            dependencies: [
                "DBBBuilder", "DBBSQLite", "DBBTestSupport", "DBBBackendTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "MetricsTestKit", package: "swift-metrics"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "DBBScriptTests",
            dependencies: [
                "DBBScript", "DBBBuilder", "DBBCore", "DBBSQLite", "DBBTestSupport", "dbb", "dbb-build-tool",
                "dbb-food",
            ]
        ),
        /// The proof of `dbb-codegen --convert`: classes mapped by hand (Before) and the converter's
        /// output of them (After, checked to be what it writes now), compiled side by side.
        .target(name: "ConversionBefore", dependencies: ["DBBBuilder"], path: "Tests/ConversionFixtures/Before"),
        .target(name: "ConversionAfter", dependencies: ["DBBBuilder"], path: "Tests/ConversionFixtures/After"),
        /// The proof of `dbb-codegen --from-database`: the classes that wrote a database (the
        /// tests' models and the demo's, linked from where they live) and the generator's output
        /// of that database (checked to be what it writes now), compiled side by side.
        .target(name: "FromDatabaseModels", dependencies: ["DBBBuilder"], path: "Tests/FromDatabaseFixtures/Models"),
        .target(
            name: "FromDatabaseModelsGenerated", dependencies: ["DBBBuilder"],
            path: "Tests/FromDatabaseFixtures/ModelsGenerated"),
        .target(name: "FromDatabaseDemo", dependencies: ["DBBBuilder"], path: "Tests/FromDatabaseFixtures/Demo"),
        .target(
            name: "FromDatabaseDemoGenerated", dependencies: ["DBBBuilder"],
            path: "Tests/FromDatabaseFixtures/DemoGenerated"),
        .target(
            name: "FromDatabaseNamesGenerated", dependencies: ["DBBBuilder"],
            path: "Tests/FromDatabaseFixtures/NamesGenerated"),
        .testTarget(
            name: "DBBCodeGenTests",
            dependencies: [
                "DBBCodeGen", "DBBBuilder", "DBBSQLite", "DBBTestSupport", "DBBBackendTestSupport", "DBBWeeklyReport",
                "dbb-codegen", "dbb-demo", "dbb", "ConversionBefore", "ConversionAfter", "FromDatabaseModels",
                "FromDatabaseModelsGenerated", "FromDatabaseDemo", "FromDatabaseDemoGenerated",
                "FromDatabaseNamesGenerated", .product(name: "SwiftParser", package: "swift-syntax"),
                .product(name: "SwiftSyntax", package: "swift-syntax"),
            ],
            exclude: ["Golden"]
        ),
        /// The README's Swift examples, extracted by its extract.sh, compiled and run.
        .testTarget(
            name: "ReadmeExampleTests",
            dependencies: [
                "DBBBuilder", "DBBSQLite", "DBBLocale", postgres, "DBBScript", "DBBTestSupport", "DBBWeeklyReport",
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["extract.sh"]
        ),
        /// The PostgreSQL backend against a throwaway server that the tests start.
        .testTarget(
            name: "DBBPostgresTests",
            dependencies: [
                postgres, "DBBBuilder", "DBBLocale", "DBBTestSupport", "DBBBackendTestSupport", "dbb",
                "dbb-demo", "dbb-crash-helper",
            ]
        ),
        /// `@DBBTable`'s expansions and diagnostics, checked on the source it writes.
        .testTarget(
            name: "DBBMacroTests",
            dependencies: [
                "DBBMacroKit", .product(name: "SwiftSyntaxMacrosTestSupport", package: "swift-syntax"),
                .product(name: "SwiftSyntaxMacroExpansion", package: "swift-syntax"),
                .product(name: "SwiftParser", package: "swift-syntax"),
            ]
        ),
        .testTarget(
            name: "DBBLocaleTests",
            dependencies: ["DBBLocale", "DBBSQLite", "DBBTestSupport"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// CI's sanitizer stages build with DBB_SQLITE_SUITES=1 (and without the trait `Postgres`): the
// package then holds only the SQLite, locale, ORM and build-script code and their suites, not the
// macro's, the code generator's or the README's (swift-syntax and the tools built once more under
// a sanitizer would double those builds).
if Context.environment["DBB_SQLITE_SUITES"] == "1" {
    let kept: Set<String> = [
        "CSQLite", "DBBCore", "DBBSQLite", "DBBLocale", "DBBFormat", "CDBBRuntime", "DBBMacroKit", "DBBBuilderMacros",
        "DBBBuilder", "DBBScript", "DBBCodeGen", "DBBTestSupport", "DBBBackendTestSupport", "DBBBuildPlugin",
        "dbb-build-tool", "dbb-food", "DBBSQLiteTests", "DBBLocaleTests", "DBBScriptTests", "DBBReliabilityTests",
        "DBBBuilderTests",
    ]
    package.targets.removeAll { !kept.contains($0.name) }
    let products: Set<String> = ["DBBSQLite", "DBBLocale", "DBBBuilder", "DBBScript", "DBBBuildPlugin"]
    package.products.removeAll { !products.contains($0.name) }
    for target in package.targets {
        switch target.name {
        case "DBBScriptTests":
            // `dbb`'s command-line tests need the whole tool.
            target.dependencies = [
                "DBBScript", "DBBBuilder", "DBBCore", "DBBSQLite", "DBBTestSupport", "dbb-build-tool", "dbb-food",
            ]
            target.exclude = ["DBBCommandTests.swift"]
        case "DBBBackendTestSupport":
            target.dependencies = ["DBBBuilder", "DBBTestSupport"]
        case "DBBReliabilityTests":
            target.dependencies = [
                "DBBBuilder", "DBBCore", "DBBSQLite", "DBBLocale", "DBBScript", "DBBCodeGen", "DBBTestSupport",
            ]
            target.sources = ["HostileInputTests.swift"]
        default:
            break
        }
    }
}
