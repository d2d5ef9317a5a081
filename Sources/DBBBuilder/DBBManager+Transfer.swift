import DBBFormat

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
    /// The tables are created (or migrated) on both sides as ``register(_:)`` does. The copy
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
    ///   into a new database) or when `source` is this manager; a backend error naming the
    ///   table and property of a value the destination refuses (text with a NUL character
    ///   into PostgreSQL, a join row referring to a row that does not exist). Nothing was
    ///   written then.
    @discardableResult
    public func copyTables(of classes: [DBBTableObject.Type], from source: DBBManager) throws -> [String: Int] {
        guard source !== self else {
            throw DBBError(.invalidOption, "copyTables(of:from:) needs two managers; source is this manager")
        }
        let tables = try transferTables(try classes.map(mapping(for:)))
        _ = try classes.map(source.mapping(for:))
        let names = tables.map(\.name)
        let version = try source.databaseVersion()
        let counts = try write(nil) { destination in
            try destination.atomically(.immediate) {
                let into = TransferSQL(dialect: destination.dialect)
                if let lock = into.lock(names) { try destination.execute(lock) }
                for table in tables where try destination.fetchValue(into.anyRow(table.name), as: Int.self) != nil {
                    throw DBBError(.invalidOption, table: table.name,
                                   "\(table.name) already has rows in \(databaseLabel): copyTables(of:from:) copies into empty tables only")
                }
                return try source.read(nil) { origin in
                    try origin.atomically(.deferred) {
                        let from = TransferSQL(dialect: origin.dialect)
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
            TransferTable(name: mapping.tableName,
                          columns: [DBBFormat.idColumn, DBBFormat.createdTimeColumn, DBBFormat.modifiedTimeColumn]
                              + mapping.columns.map(\.column),
                          properties: mapping.columns.map { ($0.name, $0.column) })
        }
        let joins = mappings.flatMap { mapping in
            mapping.joins.map { join in
                TransferTable(name: join.joinTable, columns: [DBBFormat.idColumn, join.parentColumn, join.column],
                              properties: [(join.name, join.column), (join.name, join.parentColumn)])
            }
        }
        return rows + joins
    }
}

/// One table a copy moves: its name and the columns it copies, `id` first.
private struct TransferTable {
    let name: String
    let columns: [String]
    /// Which property a column holds, to name it in an error.
    let properties: [(property: String, column: String)]

    /// Rows inserted by one statement: few round trips to a server, and far below both
    /// engines' limits on bound parameters.
    static let rowsPerInsert = 64

    /// Copies the rows, in id order, and raises the destination's id counter to the source's.
    func copy(from origin: any DatabaseConnection, _ from: TransferSQL,
              to destination: any DatabaseConnection, _ into: TransferSQL) throws -> Int {
        do {
            return try copyRows(from: origin, from, to: destination, into)
        } catch let failure as any DatabaseFailure {
            throw failure.dbbError(table: name, columns: properties)
        }
    }

    private func copyRows(from origin: any DatabaseConnection, _ from: TransferSQL,
                          to destination: any DatabaseConnection, _ into: TransferSQL) throws -> Int {
        var batch: [DBBValue] = []
        batch.reserveCapacity(columns.count * Self.rowsPerInsert)
        var count = 0
        var highest: Int64 = 0
        func flush() throws {
            guard !batch.isEmpty else { return }
            try insert(batch, rows: batch.count / columns.count, into: destination, into)
            batch.removeAll(keepingCapacity: true)
        }
        try origin.forEachRow(from.selectAll(name, columns)) { row in
            for index in 0..<columns.count {
                let value = row.value(at: index)
                if let refusal = into.dialect.refusal(of: value) {
                    throw refusal.about(table: name, property: property(of: columns[index]), rowID: row.int64(at: 0))
                }
                batch.append(value)
            }
            highest = max(highest, row.int64(at: 0))
            count += 1
            if count % Self.rowsPerInsert == 0 { try flush() }
        }
        try flush()
        let counter = max(highest, try origin.fetchValue(from.lastID, [from.lastIDArgument(name)], as: Int64.self) ?? 0)
        if counter > 0 {
            for statement in into.raiseLastID(name, to: counter) {
                try destination.execute(statement.sql, statement.arguments)
            }
        }
        return count
    }

    /// The property a column holds, or the column's name (`id`, the times, a join table's owner column).
    private func property(of column: String) -> String {
        properties.first { $0.column == column }?.property ?? column
    }

    private func insert(_ values: [DBBValue], rows: Int, into destination: any DatabaseConnection, _ into: TransferSQL) throws {
        let statement = try destination.statement(into.insert(name, columns, rows: rows))
        defer { statement.reset() }
        try statement.bind(values)
        try statement.execute()
    }
}
