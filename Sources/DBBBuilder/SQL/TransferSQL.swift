import DBBFormat
import DBBSQLite

/// The SQL of copying tables between databases with their ids (``DBBManager/copyTables(of:from:)``):
/// rows read in id order, inserted many to a statement with their ids, and each table's id
/// counter carried over so that no id the source gave out is given out again.
struct TransferSQL {
    let dialect: any DBBDialect

    /// `SELECT a, b, … FROM t ORDER BY id`, each column of `types` selected so that it reads
    /// back exactly (``DBBDialect/selected(_:_:)``).
    func selectAll(_ table: String, _ columns: [String], _ types: [DBBStorageType]) -> String {
        let selected = zip(columns, types).map { dialect.selected(dialect.quote($0), $1) }
        return "SELECT \(selected.joined(separator: ", ")) FROM \(dialect.quote(table))"
            + " ORDER BY \(dialect.quote(DBBFormat.idColumn))"
    }

    /// `INSERT INTO t (a, b, …) VALUES (?, ?, …), (?, ?, …)…` for `rows` rows, each parameter
    /// as a column of `types` takes it (``DBBDialect/parameter(_:)``).
    func insert(_ table: String, _ columns: [String], _ types: [DBBStorageType], rows: Int) -> String {
        let row = "(" + types.map(dialect.parameter).joined(separator: ", ") + ")"
        return "INSERT INTO \(dialect.quote(table)) (\(columns.map(dialect.quote).joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// A row when the table has one.
    func anyRow(_ table: String) -> String { "SELECT 1 FROM \(dialect.quote(table)) LIMIT 1" }

}
