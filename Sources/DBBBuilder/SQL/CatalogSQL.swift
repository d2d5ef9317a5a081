import DBBFormat

/// The SQL of the package's catalog of mapped properties, ``DBBFormat/columnsTable`` (see
/// ``SchemaCatalog``):
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS dbb_columns (table_name Text NOT NULL, property Text NOT NULL,
///     column_name Text NOT NULL, class_name Text NOT NULL, swift_type Text NOT NULL,
///     storage Text NOT NULL, join_table Text, target_table Text,
///     mapped Boolean NOT NULL DEFAULT 1, PRIMARY KEY (table_name, property))
/// ```
struct CatalogSQL {
    let dialect: any DBBDialect

    /// The columns of a catalog row, in the order every statement here names them; the first
    /// two are the key.
    static let columns = [
        "table_name", "property", "column_name", "class_name", "swift_type", "storage", "join_table", "target_table",
        "mapped",
    ]

    private var table: String { dialect.quote(DBBFormat.columnsTable) }

    var createTable: String {
        let text = dialect.columnType(.string)
        let definitions =
            Self.columns.prefix(6).map { "\(dialect.quote($0)) \(text) NOT NULL" }
            + ["join_table", "target_table"].map { "\(dialect.quote($0)) \(text)" }
            + ["\(dialect.quote("mapped")) \(dialect.columnType(.bool)) NOT NULL DEFAULT 1"]
        return "CREATE TABLE IF NOT EXISTS \(table) (\(definitions.joined(separator: ", ")), "
            + "PRIMARY KEY (\(dialect.quote("table_name")), \(dialect.quote("property"))))"
    }

    /// The rows of the table bound to `?`, its name compared without case (SQLite's rule for
    /// names; on PostgreSQL the caller keeps the rows of the name it asked for where it must).
    var selectTable: String {
        "SELECT \(Self.columns.map(dialect.quote).joined(separator: ", ")) FROM \(table)"
            + " WHERE lower(\(dialect.quote("table_name"))) = lower(?)"
    }

    /// A new row: every column bound in order.
    var insert: String {
        "INSERT INTO \(table) (\(Self.columns.map(dialect.quote).joined(separator: ", "))) VALUES ("
            + Array(repeating: "?", count: Self.columns.count).joined(separator: ", ") + ")"
    }

    /// A changed row: every column after the key bound in order, then the key.
    var update: String {
        "UPDATE \(table) SET \(Self.columns.dropFirst(2).map { "\(dialect.quote($0)) = ?" }.joined(separator: ", "))"
            + " WHERE \(dialect.quote("table_name")) = ? AND \(dialect.quote("property")) = ?"
    }

    /// The row of a property bound as table and property.
    var delete: String {
        "DELETE FROM \(table) WHERE \(dialect.quote("table_name")) = ? AND \(dialect.quote("property")) = ?"
    }
}
