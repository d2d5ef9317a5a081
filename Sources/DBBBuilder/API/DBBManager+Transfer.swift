import DBBFormat
import Foundation

extension DBBManager {
    /// Copies the tables of `classes`, and of every class they refer to, from `source`'s
    /// database into this manager's, unchanged: the same ids, `createdTime` and `modifiedTime`,
    /// columns and join rows. This is how data moves between backends — a SQLite file into
    /// PostgreSQL when a service outgrows one machine, or PostgreSQL into a SQLite file for a
    /// test or an archive.
    ///
    /// ```swift
    /// let file = try DBBManager(url: archiveURL)
    /// let server = try DBBManager(postgres: "postgres://app:secret@db.internal/app")
    /// let copied = try server.copyTables(of: [Person.self, Company.self], from: file)
    /// print(copied)   // ["Company": 12, "Person": 340, "Person_employer": 338, …]
    /// ```
    ///
    /// The tables are created (or migrated) here as ``register(_:)`` does; `source` is only
    /// read, never changed: its tables must already hold every column the classes map (register
    /// the classes on the source first when they gained properties). Values are copied
    /// exactly or not at all: a value the destination's column cannot hold as it is (text in a
    /// number column, a fraction in an integer column, NaN) is refused, naming table, property
    /// and row. The copy
    /// reads one consistent snapshot of `source` and writes in one transaction, with other
    /// writers of this database held off until it ends: it is all there or not at all. Each
    /// table's id counter is raised to the source's, so an id the source gave out — a deleted
    /// object's included — is not given out again. A database version recorded in the source
    /// (``setDatabaseVersion(_:)``) is recorded here too unless this one's is higher.
    ///
    /// Objects a manager holds are not affected: fetch them again from this manager.
    ///
    /// - Returns: the number of rows copied into each table, join tables included.
    /// - Throws: ``DBBError`` with ``DBBError/Kind/invalidOption`` naming the table when a
    ///   table here already has rows (copy into empty tables only; delete them first, or copy
    ///   into a new database), when the source lacks a table or column, when `classes` is
    ///   empty, or when `source` is this database (through this manager or another);
    ///   ``DBBError/Kind/invalidValue`` naming table, property and row for a value the
    ///   destination cannot hold unchanged; a backend error naming the
    ///   table and property of a value the destination refuses (text with a NUL character
    ///   into PostgreSQL, a join row referring to a row that does not exist). Nothing was
    ///   written then.
    @discardableResult
    public func copyTables(of classes: [DBBTableObject.Type], from source: DBBManager) throws -> [String: Int] {
        guard !classes.isEmpty else {
            throw DBBError(.invalidOption, "copyTables(of:from:) was given no class to copy")
        }
        try refuseWriteIfReadOnly("copyTables(of:from:) into it")
        let sameDatabase = DBBError(
            .invalidOption, "copyTables(of:from:) copies between two databases; the source is \(databaseLabel) itself")
        guard source !== self else { throw sameDatabase }
        if let here = try databaseIdentity(), try here == source.databaseIdentity() { throw sameDatabase }
        let tables = try transferTables(try classes.map(mapping(for:)))
        let names = tables.map(\.name)
        let version = try source.databaseVersion()
        let counts = try write(nil) { destination in
            try destination.atomically(.immediate) {
                let into = TransferSQL(dialect: destination.dialect)
                if let lock = destination.dialect.lockTables(names) { try destination.execute(lock) }
                for table in tables where try destination.fetchValue(into.anyRow(table.name), as: Int.self) != nil {
                    throw DBBError(
                        .invalidOption, table: table.name,
                        "\(table.name) already has rows in \(databaseLabel): copyTables(of:from:) copies into empty tables only"
                    )
                }
                return try source.read(nil) { origin in
                    try origin.atomically(.deferred) {
                        let from = TransferSQL(dialect: origin.dialect)
                        for table in tables { try table.checkSource(origin, label: source.databaseLabel) }
                        var counts: [String: Int] = [:]
                        for table in tables {
                            counts[table.name] = try table.copy(from: origin, from, to: destination, into)
                        }
                        return counts
                    }
                }
            }
        }
        if version > 0 { try setDatabaseVersion(version) }
        return counts
    }

    /// The tables of `roots` and of the classes they refer to: row tables first (join rows may
    /// refer to them through foreign keys), then join tables.
    private func transferTables(_ roots: [TableMapping]) throws -> [TransferTable] {
        var mappings: [TableMapping] = []
        var seen: Set<String> = []
        var queue = roots
        while let next = queue.popLast() {
            guard seen.insert(next.tableName).inserted else { continue }
            mappings.append(next)
            for case let relation? in next.joins.map(\.access.relation) {
                queue.append(try mapping(for: relation.targetType))
            }
        }
        mappings.sort { $0.tableName < $1.tableName }
        let rows = mappings.map { mapping in
            TransferTable(
                name: mapping.tableName,
                columns: [DBBFormat.idColumn, DBBFormat.createdTimeColumn, DBBFormat.modifiedTimeColumn]
                    + mapping.columns.map(\.column),
                types: [.int, .date, .date] + mapping.columns.map(\.storageType),
                properties: mapping.columns.map { ($0.name, $0.column) })
        }
        let joins = mappings.flatMap { mapping in
            mapping.joins.map { join in
                TransferTable(
                    name: join.joinTable, columns: [DBBFormat.idColumn, join.parentColumn, join.column],
                    types: [.int, .int, join.storageType],
                    properties: [(join.name, join.column), (join.name, join.parentColumn)])
            }
        }
        return rows + joins
    }

    /// What tells this database from another (see ``TransferSQL/identity``); `nil` for an
    /// in-memory SQLite database, which no other manager reaches.
    private func databaseIdentity() throws -> String? {
        let identity = try read(nil) { try $0.fetchValue($0.dialect.databaseIdentity, as: String.self) }
        guard access.dialect.identifiesByFile else { return identity }
        guard let path = identity, !path.isEmpty else { return nil }
        var status = stat()
        guard stat(path, &status) == 0 else { return path }
        return "\(status.st_dev):\(status.st_ino)"
    }
}
