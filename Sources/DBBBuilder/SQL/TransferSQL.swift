import DBBFormat
import DBBSQLite

/// The SQL of copying tables between databases with their ids (``DBBManager/copyTables(of:from:)``):
/// rows read in id order, inserted many to a statement with their ids, and each table's id
/// counter carried over so that no id the source gave out is given out again.
struct TransferSQL {
    let dialect: any DBBDialect

    /// `SELECT a, b, … FROM t ORDER BY id`
    func selectAll(_ table: String, _ columns: [String]) -> String {
        "SELECT \(columns.map(dialect.quote).joined(separator: ", ")) FROM \(dialect.quote(table))"
            + " ORDER BY \(dialect.quote(DBBFormat.idColumn))"
    }

    /// `INSERT INTO t (a, b, …) VALUES (?, ?, …), (?, ?, …)…` for `rows` rows.
    func insert(_ table: String, _ columns: [String], rows: Int) -> String {
        let row = "(" + Array(repeating: "?", count: columns.count).joined(separator: ", ") + ")"
        return "INSERT INTO \(dialect.quote(table)) (\(columns.map(dialect.quote).joined(separator: ", "))) VALUES "
            + Array(repeating: row, count: rows).joined(separator: ", ")
    }

    /// A row when the table has one.
    func anyRow(_ table: String) -> String { "SELECT 1 FROM \(dialect.quote(table)) LIMIT 1" }

}
