@_spi(DBBBackend) import DBBBuilder
import DBBFormat
import Foundation

/// Reads the tables of an existing database — a SQLite file or a PostgreSQL database, written
/// by DBBBuilder or by other SQL — as the classes that register against it unchanged and read
/// every row back.
///
/// Where the package's catalog ``DBBFormat/columnsTable`` describes a column (every database a
/// manager of this package registered classes in), the property is the one that wrote it: its
/// name, its exact type (`Int8`, `Date`, `Decimal?`, a reference to the class of its target
/// table), with an enum or a value type of the writing class's own as its stored type (`String`,
/// `Int`) and a `Codable` value stored as JSON as ``StoredJSON``, each with a comment naming the
/// type it was. Elsewhere the column's declared type decides (``ColumnFallback``), optional
/// unless `NOT NULL` or filled by a `DEFAULT`; a join table `<Table>_<column>(id,
/// <Table>_ID, <column>)` is an array, `Data`, or a reference where `--reference`, SQLite's
/// `<join>_target_deleted` trigger or PostgreSQL's foreign key names its target. Indexes named
/// as registration names them become `@Indexed` and `indexes:`; `NOT NULL` columns `@NotNull`;
/// single-column unique indexes `@Unique`; `DEFAULT` constants the properties' initial values.
///
/// A table registration would refuse (no `id INTEGER PRIMARY KEY`, `WITHOUT ROWID`, a column
/// no property type holds, columns the role may not read) is left out and named with the
/// reason; the package's own tables (`DBVersion`, `dbb_columns`, the locale rules) never are
/// classes.
public enum DatabaseReader {
    /// One class to generate.
    public struct Table: Sendable {
        public let className: String
        public let properties: [PropertyDeclaration]
        public let options: GeneratorOptions
    }

    /// A table left out, and why.
    public struct Skipped: Sendable, Equatable, CustomStringConvertible {
        public let table: String
        public let reason: String

        public init(table: String, reason: String) {
            self.table = table
            self.reason = reason
        }

        public var description: String { "table \(table) is left out: \(reason)" }
    }

    /// What a database reads as.
    public struct Reading: Sendable {
        /// The classes, by table name.
        public var tables: [Table]
        /// The tables left out, with the reasons.
        public var skipped: [Skipped]
        /// What to know about the classes (guesses made, columns left out, what registering adds).
        public var notes: [String]

        /// Whether a class has a property of type ``StoredJSON``, whose declaration goes beside them.
        public var needsStoredJSON: Bool {
            tables.contains { table in
                table.properties.contains { $0.isJSON && $0.type.description.contains(StoredJSON.typeName) }
            }
        }
    }

    /// The classes of the tables of the SQLite file at `url` (all, or those in `only`); the
    /// tables left out are not reported (see ``read(_:only:references:)``).
    ///
    /// - Parameter references: join columns that hold ids of another table, by
    ///   `Table.column` or `column`: `["Meeting.participants": "Person"]`, for a database whose
    ///   catalog and triggers do not say. A reference becomes `Target?` when no object has more
    ///   than one, else `[Target]`.
    public static func tables(at url: URL, only: [String] = [], references: [String: String] = [:]) throws -> [Table] {
        let manager = try DBBManager(url: url, readOnly: true)
        return try read(manager, only: only, references: references).tables
    }

    /// What the database of `manager` (open it read-only: nothing is written) reads as, in one
    /// read transaction.
    /// - Throws: ``CodeGenError`` when `only` names a table the database does not have; the
    ///   database's errors.
    public static func read(_ manager: DBBManager, only: [String] = [], references: [String: String] = [:]) throws
        -> Reading
    {
        try manager.backendAccess.read { connection in
            try connection.atomically(.deferred) {
                try read(connection, only: only, references: references)
            }
        }
    }

    private static func read(_ connection: any DatabaseConnection, only: [String], references: [String: String])
        throws -> Reading
    {
        let engine = engineCatalog(of: connection)
        let names = try engine.tableNames().sorted()
        let own = Set(
            ([DBBFormat.versionTable, DBBFormat.columnsTable] + connection.dialect.reservedTables.map(\.name)).map {
                $0.lowercased()
            })
        var reader = TableReader(
            connection: connection, engine: engine, catalog: nil, references: references, className: className)
        var joinTables: [String: [(column: String, table: String)]] = [:]
        for name in names {
            for owner in names where name.hasPrefix(owner + "_") {
                let column = String(name.dropFirst(owner.count + 1))
                let columns = try reader.columns(of: name).map(\.name)
                if DBBFormat.isJoinTable(name, columns: Set(columns), owner: owner, column: column) {
                    joinTables[owner, default: []].append((column, name))
                }
            }
        }
        let joinTableNames = Set(joinTables.values.flatMap { $0.map(\.table) })
        for name in only where !names.contains(name) {
            throw CodeGenError(line: 0, text: name, reason: "the database has no table \(name)")
        }
        let classTables = names.filter { !joinTableNames.contains($0) && !own.contains($0.lowercased()) }
        let wanted = only.isEmpty ? classTables : only
        let catalog = try SchemaCatalog(connection: connection)
        // Every table that can be a class is named, so that a reference names the same class
        // whichever tables `only` generates.
        let (classes, classNotes) = classNames(classTables + wanted.filter { !classTables.contains($0) })
        reader = TableReader(
            connection: connection, engine: engine, catalog: catalog.exists ? catalog : nil, references: references,
            className: { classes[$0] ?? className($0) })
        var reading = Reading(tables: [], skipped: [], notes: [])
        if catalog.isDenied {
            reading.notes.append(
                "the catalog \(DBBFormat.columnsTable) is there, but this role may not read it: every type comes from "
                    + "the columns' declared types (grant SELECT on it, or pg_read_all_data, for exact types)")
        }
        for name in wanted {
            let noted = reader.notes.count
            do {
                reading.tables.append(try reader.read(name, joins: joinTables[name] ?? [], allTables: Set(names)))
                if let note = classNotes[name] { reader.notes.append(note) }
            } catch let skipped as TableSkipped {
                // The reason says it all: no notes about a table that is left out.
                reader.notes.removeSubrange(noted...)
                reading.skipped.append(Skipped(table: skipped.table, reason: skipped.reason))
            }
        }
        reading.notes += reader.notes
        return reading
    }
}
