import DBBSQLite

/// The DML of one class, built once at registration: insert, delete, ids; UPDATEs are built
/// per set of changed columns by ``update(_:_:)`` (and cached by the mapping).
struct MappingStatements: Sendable {
    let insert: String
    let deleteByIDs: String
    let deleteAll: String
    let allIDs: String
    /// The highest id, or NULL for an empty table.
    let highestID: String
    /// The ids, of those in the list bound to `?` (``SQLDialect/idList(_:)``), that have a row.
    let existingIDs: String
    /// `id, createdTime, modifiedTime`, the columns every SELECT starts with.
    let keyColumns: String
    private let quotedTable: String

    private let dialect: any DBBDialect

    init(table: String, columns: [ColumnProperty], dialect: any DBBDialect) {
        self.dialect = dialect
        let quotedTable = dialect.quote(table)
        self.quotedTable = quotedTable
        let names = columns.map { dialect.quote($0.column) }
        let insertColumns = [SchemaSQL.createdTimeColumn, SchemaSQL.modifiedTimeColumn].map(dialect.quote) + names
        let parameters = ["?", "?"] + columns.map { dialect.parameter($0.storageType) }
        insert =
            "INSERT INTO \(quotedTable) (\(insertColumns.joined(separator: ", "))) VALUES ("
            + parameters.joined(separator: ", ") + ")" + dialect.returningID
        let id = dialect.quote(SchemaSQL.idColumn)
        deleteByIDs = "DELETE FROM \(quotedTable) WHERE " + dialect.inIDList(id)
        deleteAll = "DELETE FROM \(quotedTable)"
        allIDs = "SELECT \(id) FROM \(quotedTable) ORDER BY \(id)"
        highestID = "SELECT MAX(\(id)) FROM \(quotedTable)"
        existingIDs = "SELECT \(id) FROM \(quotedTable) WHERE " + dialect.inIDList(id)
        keyColumns = [SchemaSQL.idColumn, SchemaSQL.createdTimeColumn, SchemaSQL.modifiedTimeColumn].map(dialect.quote)
            .joined(separator: ", ")
    }

    /// `DELETE … WHERE id = ? AND modifiedTime = ?`: a conditional delete (built when asked:
    /// one more stored string here costs every save a retain and release).
    var deleteIfModifiedTime: String {
        "DELETE FROM \(quotedTable) WHERE \(dialect.quote(SchemaSQL.idColumn)) = ? AND "
            + "\(dialect.quote(SchemaSQL.modifiedTimeColumn)) = ?"
    }

    /// `UPDATE t SET modifiedTime = ?, a = ?, … WHERE id = ?` for `columns[changed]`.
    /// `conditional`: only the row whose `modifiedTime` is a last `?`.
    func update(_ columns: [ColumnProperty], _ changed: [Int], conditional: Bool = false) -> String {
        let assignments =
            ["\(dialect.quote(SchemaSQL.modifiedTimeColumn)) = ?"]
            + changed.map { "\(dialect.quote(columns[$0].column)) = \(dialect.parameter(columns[$0].storageType))" }
        return "UPDATE \(quotedTable) SET " + assignments.joined(separator: ", ")
            + " WHERE \(dialect.quote(SchemaSQL.idColumn)) = ?"
            + (conditional ? " AND \(dialect.quote(SchemaSQL.modifiedTimeColumn)) = ?" : "")
    }
}
