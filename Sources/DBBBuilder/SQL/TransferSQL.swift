import DBBFormat
import DBBSQLite

/// The SQL of copying tables between databases with their ids (``DBBManager/copyTables(of:from:)``):
/// rows read in id order, inserted many to a statement with their ids, and each table's id
/// counter carried over so that no id the source gave out is given out again.
struct TransferSQL {
    let dialect: DBBDialect

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

    /// What tells one database from another: on SQLite the main file's path (compared by
    /// device and inode), on PostgreSQL the server's start time and the database's name.
    var identity: String {
        switch dialect {
        case .sqlite: "SELECT file FROM pragma_database_list WHERE name = 'main'"
        case .postgresql: "SELECT CAST(pg_postmaster_start_time() AS text) || ' ' || current_database()"
        }
    }

    /// A row when the table has one.
    func anyRow(_ table: String) -> String { "SELECT 1 FROM \(dialect.quote(table)) LIMIT 1" }

    /// Keeps other writers out of `tables` until the transaction ends (readers may go on).
    /// `nil` on SQLite, where the copy's `BEGIN IMMEDIATE` already does.
    func lock(_ tables: [String]) -> String? {
        switch dialect {
        case .sqlite: nil
        case .postgresql: "LOCK TABLE \(tables.map(dialect.quote).joined(separator: ", ")) IN EXCLUSIVE MODE"
        }
    }

    /// The highest id the table bound to `?` has given out (0 when none): SQLite's
    /// `sqlite_sequence`, PostgreSQL's identity sequence.
    var lastID: String {
        switch dialect {
        case .sqlite:
            "SELECT COALESCE((SELECT seq FROM sqlite_sequence WHERE name = ?), 0)"
        case .postgresql:
            "SELECT COALESCE(pg_sequence_last_value(CAST(pg_get_serial_sequence(?, '\(DBBFormat.idColumn)') AS regclass)), 0)"
        }
    }

    /// The statements that raise the id counter of `table` to at least `id` (never lower it),
    /// with their arguments.
    func raiseLastID(_ table: String, to id: Int64) -> [(sql: String, arguments: [DBBValue])] {
        switch dialect {
        case .sqlite:
            [
                (
                    "UPDATE sqlite_sequence SET seq = ? WHERE name = ? AND seq < ?",
                    [.integer(id), .text(table), .integer(id)]
                ),
                (
                    "INSERT INTO sqlite_sequence (name, seq) SELECT ?, ? WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = ?)",
                    [.text(table), .integer(id), .text(table)]
                ),
            ]
        case .postgresql:
            [
                (
                    "SELECT setval(s, GREATEST(CAST(? AS bigint), COALESCE(pg_sequence_last_value(s), 0)))"
                        + " FROM (SELECT CAST(pg_get_serial_sequence(?, '\(DBBFormat.idColumn)') AS regclass) AS s) AS q",
                    [.integer(id), .text(dialect.quote(table))]
                )
            ]
        }
    }

    /// The argument ``lastID`` takes for `table`.
    func lastIDArgument(_ table: String) -> DBBValue {
        .text(dialect == .postgresql ? dialect.quote(table) : table)
    }
}
