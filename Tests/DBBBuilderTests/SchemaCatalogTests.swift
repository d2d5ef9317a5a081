import DBBBackendTestSupport
import DBBBuilder
import DBBSQLite
import DBBTestSupport
import Foundation
import Testing

/// The package's catalog, `dbb_columns`: one row per mapped property, written by registration
/// only when something differs.
@Suite("The schema catalog records what each property is")
struct SchemaCatalogTests {
    /// The catalog's rows of `table`, one line each.
    private func catalog(_ database: BackendDatabase, _ table: String = "Crate") throws -> [String] {
        try database.manager.query(
            """
            SELECT "property", "column_name", "class_name", "swift_type", "storage", COALESCE("join_table", '-'), \
            COALESCE("target_table", '-'), "mapped" FROM "dbb_columns" WHERE "table_name" = ? ORDER BY "property"
            """, arguments: [table]
        ).map { row in try (0..<8).map { try row.decode(String.self, at: $0) }.joined(separator: " ") }
    }

    /// Something that changes when another connection writes the catalog: its rows' `xmin` on
    /// PostgreSQL; on SQLite, `PRAGMA data_version` as a connection of its own sees it.
    private final class WriteWatch {
        let database: BackendDatabase
        let connection: SQLiteConnection?

        init(_ database: BackendDatabase) throws {
            self.database = database
            connection = database.backend == .sqlite ? try SQLiteConnection(path: database.place) : nil
        }

        func mark() throws -> String {
            if let connection {
                return "\(try connection.fetchValue("PRAGMA data_version", as: Int.self) ?? -1)"
            }
            return try database.scalar(
                #"SELECT string_agg(xmin::text, ',' ORDER BY "table_name", "property") FROM "dbb_columns""#,
                as: String.self) ?? ""
        }
    }

    /// The statements that write the catalog while `manager` registers `type`.
    private func catalogWrites(_ manager: DBBManager, registering type: DBBTableObject.Type) throws -> [String] {
        let statements = Locked<[String]>([])
        manager.trace { sql in statements.withLock { $0.append(sql) } }
        try manager.register([type])
        manager.trace(nil)
        return statements.withLock { $0 }.filter { sql in
            sql.contains("dbb_columns") && ["INSERT", "UPDATE", "DELETE", "CREATE"].contains { sql.hasPrefix($0) }
        }
    }

    @Test(
        "registration records each property; registering again writes nothing, a change writes",
        arguments: Backend.allCases)
    func recordsEachProperty(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Crate.self]) else { return }
        let name = String(reflecting: Crate.self)
        #expect(
            try catalog(database) == [
                "count count \(name) Int8 int - - 1",
                "labels labels \(name) Array<String> stringArray Crate_labels - 1",
                "packed packed \(name) Optional<Date> date - - 1",
                "sibling sibling \(name) Optional<Crate> dbbObject(Crate) Crate_sibling Crate 1",
            ])
        let watch = try WriteWatch(database)
        let before = try watch.mark()
        #expect(try catalogWrites(database.reopen(), registering: Crate.self).isEmpty)
        #expect(try watch.mark() == before)
        // What the trace and the watch see when the catalog is written.
        #expect(try catalogWrites(database.reopen(), registering: CrateWithoutLabels.self).count == 4)
        #expect(try watch.mark() != before)
    }

    @Test(
        "a property the class no longer maps keeps its row, marked, and its data; mapping it again marks it again",
        arguments: Backend.allCases)
    func removedProperty(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Crate.self]) else { return }
        let crate = Crate(dbManager: database.manager)
        crate.labels = ["fragile"]
        try crate.save()
        _ = try database.reopen([CrateWithoutLabels.self])
        let without = String(reflecting: CrateWithoutLabels.self)
        #expect(
            try catalog(database) == [
                "count count \(without) Int8 int - - 1",
                "labels labels \(String(reflecting: Crate.self)) Array<String> stringArray Crate_labels - 0",
                "packed packed \(without) Optional<Date> date - - 1",
                "sibling sibling \(without) Optional<CrateWithoutLabels> dbbObject(CrateWithoutLabels) Crate_sibling Crate 1",
            ])
        let again = try database.reopen([Crate.self])
        #expect(try catalog(database).allSatisfy { $0.hasSuffix(" 1") })
        #expect(try Crate.all(manager: again).map(\.labels) == [["fragile"]])
    }

    @Test("a property renamed over its column replaces the old name's row", arguments: Backend.allCases)
    func renamedProperty(_ backend: Backend) throws {
        guard let database = try BackendDatabase(backend, [Crate.self]) else { return }
        let crate = Crate(dbManager: database.manager)
        crate.count = 12
        try crate.save()
        let renamed = try database.reopen([CrateRenamed.self])
        let rows = try catalog(database)
        #expect(rows.contains("quantity count \(String(reflecting: CrateRenamed.self)) Int8 int - - 1"), "\(rows)")
        #expect(!rows.contains { $0.hasPrefix("count ") })
        #expect(try catalog(database).count == 4)
        #expect(try CrateRenamed.all(manager: renamed).map(\.quantity) == [12])
    }

    @Test("a copy between databases carries the classes' rows, not the source's catalog", arguments: Backend.allCases)
    func copyLeavesTheCatalog(_ backend: Backend) throws {
        guard let source = try BackendDatabase(backend, [Crate.self, ReadingInt.self]),
            let destination = try BackendDatabase(backend)
        else { return }
        try Crate(dbManager: source.manager).save()
        try destination.manager.copyTables(of: [Crate.self], from: source.manager)
        #expect(
            try destination.values(#"SELECT DISTINCT "table_name" FROM "dbb_columns""#, as: String.self) == ["Crate"])
        #expect(try catalog(destination) == catalog(source))
        #expect(try destination.rows(of: "Crate") == 1)
    }
}
