import DBBBackendTestSupport
import DBBBuilder
import DBBCodeGen
import DBBTestSupport
import Foundation
import Testing

/// The proof of `dbb-codegen --from-database` on one database: generate, compare with the
/// committed fixture target (which the test compiled), register the fixture's classes against
/// the same database, and check that nothing changed and every row reads back as the classes
/// that wrote it read it.
struct RoundTrip {
    let database: BackendDatabase
    /// The folder of the committed output (Tests/FromDatabaseFixtures/<name>).
    let fixture: String

    var fixtureFolder: URL { repository.appendingPathComponent("Tests/FromDatabaseFixtures/\(fixture)") }

    /// The whole proof for `pairs` (each class that wrote a table, with the class generated for
    /// it): generate, compare, register, compare the rows. Returns dbb-codegen's standard error.
    @discardableResult
    func check(_ pairs: [(original: DBBTableObject.Type, generated: DBBTableObject.Type)], skipped: [String] = [])
        throws -> String
    {
        let notes = try generate(expectSkipped: skipped)
        let manager = try register(pairs.map(\.generated))
        try compareRows(pairs, generatedManager: manager)
        return notes
    }

    /// Runs dbb-codegen on the database; returns its standard error. With
    /// `DBB_REGENERATE_FROMDB_FIXTURES=1`, the SQLite run writes the fixture first.
    func generate(expectSkipped skipped: [String]) throws -> String {
        let codegen = try #require(ScriptFixture.product("dbb-codegen"))
        let output = try TemporaryDirectory()
        let place = database.place
        let strict = try ScriptFixture.run(codegen, ["--from-database", place, "--output-dir", output.url.path])
        #expect(strict.status == (skipped.isEmpty ? 0 : 1), "\(strict.stderr)")
        let run = try ScriptFixture.run(
            codegen, ["--from-database", place, "--output-dir", output.url.path, "--allow-skipped"])
        #expect(run.status == 0, "\(run.stderr)")
        let named = run.stderr.split(separator: "\n").filter { $0.hasPrefix("dbb-codegen: table ") }
        // (PostgreSQL folds the unquoted names of other SQL to lower case: `Report` is `report` there.)
        #expect(
            named.map { $0.split(separator: " ")[2].lowercased() } == skipped.map { $0.lowercased() }, "\(run.stderr)")
        let files = try FileManager.default.contentsOfDirectory(atPath: output.url.path).sorted()
        if database.backend == .sqlite, ProcessInfo.processInfo.environment["DBB_REGENERATE_FROMDB_FIXTURES"] == "1" {
            for name in try FileManager.default.contentsOfDirectory(atPath: fixtureFolder.path) {
                try FileManager.default.removeItem(at: fixtureFolder.appendingPathComponent(name))
            }
            for name in files {
                try FileManager.default.copyItem(
                    at: output.url.appendingPathComponent(name), to: fixtureFolder.appendingPathComponent(name))
            }
        }
        let committed = try FileManager.default.contentsOfDirectory(atPath: fixtureFolder.path).sorted()
        #expect(files == committed, "the generated files are the fixture's")
        for name in files where committed.contains(name) {
            let generated = try String(contentsOf: output.url.appendingPathComponent(name), encoding: .utf8)
            let expected = try String(contentsOf: fixtureFolder.appendingPathComponent(name), encoding: .utf8)
            #expect(
                generated == expected,
                "\(database.backend): \(name) is not what dbb-codegen writes now: run the test with DBB_REGENERATE_FROMDB_FIXTURES=1"
            )
        }
        return run.stderr
    }

    /// Registers `generated` through a second manager and checks the schema is as it was, and
    /// the catalog too but for the class names (the registering class's module) and the Swift
    /// types the generator replaced (an enum's raw type, ``StoredJSON``); returns that manager.
    func register(_ generated: [DBBTableObject.Type]) throws -> DBBManager {
        let reading = try DatabaseReader.read(database.manager)
        let replaced = Set(
            reading.tables.flatMap { table in
                table.options.comments.keys.map { "\(table.options.tableName ?? table.className).\($0)" }
            })
        let schemaBefore = try schema()
        let catalogBefore = try catalog()
        let manager = try database.reopen(generated)
        #expect(try schema() == schemaBefore, "\(database.backend): registering the generated classes changed nothing")
        let catalogAfter = try catalog()
        #expect(catalogAfter.count == catalogBefore.count)
        for (before, after) in zip(catalogBefore, catalogAfter) {
            var expected = before
            expected[4] = after[4]
            if replaced.contains("\(before[0]).\(before[1])") { expected[3] = after[3] }
            #expect(after == expected, "\(database.backend): the catalog row is kept")
        }
        return manager
    }

    /// The schema: SQLite's `sqlite_master`; PostgreSQL's columns, indexes, constraints and
    /// triggers from `pg_catalog`.
    func schema() throws -> [String] {
        let sql =
            database.backend == .sqlite
            ? "SELECT type || ' ' || name || ' ON ' || tbl_name || ': ' || coalesce(sql, '') FROM sqlite_master"
            : """
            SELECT 'column ' || c.relname || '.' || a.attname || ' ' || format_type(a.atttypid, a.atttypmod) \
            || CASE WHEN a.attnotnull THEN ' NOT NULL' ELSE '' END || coalesce(' DEFAULT ' || pg_get_expr(d.adbin, d.adrelid), '') \
            || ' ' || a.attidentity::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace AND n.nspname = current_schema() \
            JOIN pg_attribute a ON a.attrelid = c.oid AND a.attnum > 0 AND NOT a.attisdropped \
            LEFT JOIN pg_attrdef d ON d.adrelid = c.oid AND d.adnum = a.attnum WHERE c.relkind = 'r' \
            UNION ALL SELECT 'index ' || indexdef FROM pg_indexes WHERE schemaname = current_schema() \
            UNION ALL SELECT 'constraint ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(oid) \
            FROM pg_constraint WHERE connamespace = current_schema()::regnamespace \
            UNION ALL SELECT 'trigger ' || tgrelid::regclass::text || ' ' || tgname FROM pg_trigger WHERE NOT tgisinternal
            """
        return try database.manager.query(sql).map { plain($0[0]) }.sorted()
    }

    /// The catalog's rows: table, property, column, swift type, class, storage, join and target
    /// table, mapped.
    func catalog() throws -> [[String]] {
        let columns = [
            "table_name", "property", "column_name", "swift_type", "class_name", "storage", "join_table",
            "target_table", "mapped",
        ]
        return try database.manager.query(
            "SELECT \(columns.map { "\"\($0)\"" }.joined(separator: ", ")) FROM dbb_columns"
        ).map { row in row.values.map(plain) }.sorted { $0.lexicographicallyPrecedes($1) }
    }

    /// Reads every object of each pair's classes through the manager of each, and compares them
    /// property by property (the properties the generated class maps, as the catalog lists them).
    func compareRows(
        _ pairs: [(original: DBBTableObject.Type, generated: DBBTableObject.Type)], generatedManager: DBBManager
    ) throws {
        let recorded = try database.manager.query(
            "SELECT \"table_name\", \"property\", \"storage\" FROM dbb_columns WHERE \"mapped\" = 1")
        var storages: [String: [(property: String, storage: String)]] = [:]
        for row in recorded {
            storages[plain(row[0]), default: []].append((plain(row[1]), plain(row[2])))
        }
        var compared = 0
        for (original, generated) in pairs {
            let table = generated.databaseTableName
            #expect(original.databaseTableName == table)
            let originals = try original.all(manager: database.manager).sorted { $0.id < $1.id }
            let copies = try generated.all(manager: generatedManager).sorted { $0.id < $1.id }
            #expect(originals.map(\.id) == copies.map(\.id), "\(table): the same rows")
            #expect(!originals.isEmpty, "\(table) has rows to compare")
            let properties = try #require(storages[table], "\(table) is in the catalog")
            for (first, second) in zip(originals, copies) {
                let a = StoredValues(first)
                let b = StoredValues(second)
                for (property, storage) in properties {
                    let left = a.value(property, storage: storage)
                    let right = b.value(property, storage: storage)
                    #expect(
                        left != nil && left == right,
                        "\(table) id \(first.id) .\(property): \(left ?? "-") ≠ \(right ?? "-")")
                    compared += 1
                }
                #expect(first.createdTime == second.createdTime && first.modifiedTime == second.modifiedTime)
            }
        }
        #expect(compared > 0)
    }
}

/// A value as plain text: text as it is, others as described.
func plain(_ value: DBBValue) -> String {
    if case .text(let text) = value { text } else { "\(value)" }
}

/// The stored properties of a table object, read through `Mirror` (a `@DBBTable` property
/// keeps its value in `_dbb_<name>`), as comparable text: references by id, enums by raw
/// value, JSON values as their canonical JSON.
struct StoredValues {
    private var values: [String: Any] = [:]

    init(_ object: DBBTableObject) {
        var mirror: Mirror? = Mirror(reflecting: object)
        while let current = mirror {
            for child in current.children {
                guard var label = child.label else { continue }
                if label.hasPrefix("_dbb_") { label.removeFirst(5) }
                if values[label] == nil { values[label] = child.value }
            }
            mirror = current.superclassMirror
        }
    }

    /// The value of `property`, stored as `storage` (the catalog's name), as text; `nil` when
    /// the object has no such property.
    func value(_ property: String, storage: String) -> String? {
        values[property].map { Self.text($0, json: storage == "json") }
    }

    private static func text(_ value: Any, json: Bool) -> String {
        if json {
            guard let encodable = value as? any Encodable,
                let data = try? JSONEncoder().encode(encodable),
                let object = try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed),
                let canonical = try? JSONSerialization.data(
                    withJSONObject: object, options: [.sortedKeys, .fragmentsAllowed])
            else { return "unencodable \(value)" }
            return String(decoding: canonical, as: UTF8.self)
        }
        let mirror = Mirror(reflecting: value)
        if mirror.displayStyle == .optional {
            return mirror.children.first.map { text($0.value, json: false) } ?? "nil"
        }
        if let object = value as? DBBTableObject { return "#\(object.id)" }
        if mirror.displayStyle == .collection {
            return "[" + mirror.children.map { text($0.value, json: false) }.joined(separator: ", ") + "]"
        }
        if let raw = value as? any RawRepresentable { return text(raw.rawValue, json: false) }
        if let date = value as? Date { return "date \(date.timeIntervalSinceReferenceDate)" }
        return "\(value)"
    }
}
