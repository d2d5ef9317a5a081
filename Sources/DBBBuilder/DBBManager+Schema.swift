import DBBSQLite
import Foundation

extension DBBManager {
    /// Registers table-object classes: creates each table, its join tables and its indexes,
    /// or brings an existing table up to date. Properties added to a class become new columns
    /// (`ALTER TABLE ADD COLUMN`); properties removed keep their columns, so no data is ever
    /// dropped. All of it happens in one transaction.
    ///
    /// - Throws: ``DBBError`` naming the class and property of a bad mapping, or the SQL that failed.
    public func register(_ tableClasses: [DBBTableObject.Type]) throws {
        let mappings = try tableClasses.map { type throws(DBBError) in try registry.mapping(for: type, manager: self) }
        try write(nil) { connection in
            try connection.transaction(.immediate) {
                for mapping in mappings { try Self.migrate(mapping, on: connection) }
            }
        }
        markTablesReady(mappings)
    }

    /// DBBBuilder's name for ``register(_:)``; a failure is reported by ``errorMessage()``.
    public func addTableClasses(_ tableClasses: [DBBTableObject.Type]) {
        _ = recordingErrors { try register(tableClasses) }
    }

    /// Creates or updates the table of `mapping`.
    static func migrate(_ mapping: TableMapping, on connection: SQLiteConnection) throws {
        let existing = Set(try connection.fetchAll(SchemaSQL.tableColumns, [.text(mapping.tableName)]) {
            ($0.string(at: 0) ?? "").lowercased()
        })
        if existing.isEmpty {
            try connection.execute(SchemaSQL.createTable(mapping))
        } else {
            for column in mapping.columns where !existing.contains(column.column.lowercased()) {
                try connection.execute(SchemaSQL.addColumn(column, to: mapping))
                if column.isUnique { try connection.execute(SchemaSQL.uniqueIndex(column, mapping)) }
            }
        }
        for join in mapping.joins {
            try connection.execute(SchemaSQL.createJoinTable(join))
            try connection.execute(SchemaSQL.createJoinIndex(join))
        }
        for indexer in mapping.indexers {
            try connection.execute(SchemaSQL.createIndex(indexer, mapping))
        }
    }
}
