/// The SQL of bringing a column's `NOT NULL` and `UNIQUE` in line with its property's
/// attributes (see ``ConstraintMigration``): what the table has, whether its rows allow a
/// constraint, and the statements that add or lift one.
struct ConstraintSQL {
    let dialect: any DBBDialect

    /// The rows of `table` whose `column` is `NULL`.
    func nullCount(_ table: String, _ column: String) -> String {
        "SELECT count(*) FROM \(dialect.quote(table)) WHERE \(dialect.quote(column)) IS NULL"
    }

    /// The value of `column` that most rows of `table` share (as text), how many rows hold it
    /// and how many values are held by more than one row; no row when every value is unique.
    /// `NULL`s may repeat under `UNIQUE` and are not counted.
    func mostDuplicated(_ table: String, _ column: String) -> String {
        let quoted = dialect.quote(column)
        return "SELECT CAST(\(quoted) AS text), count(*), count(*) OVER () FROM \(dialect.quote(table))"
            + " WHERE \(quoted) IS NOT NULL GROUP BY \(quoted) HAVING count(*) > 1 ORDER BY 2 DESC, 1 LIMIT 1"
    }

    /// `ALTER TABLE … ALTER COLUMN … SET NOT NULL` (PostgreSQL; SQLite rebuilds the table).
    func setNotNull(_ column: String, of table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) ALTER COLUMN \(dialect.quote(column)) SET NOT NULL"
    }

    /// Releases a column from `NOT NULL` (PostgreSQL; SQLite rebuilds the table, see ``TableRebuild``).
    func dropNotNull(_ column: String, of table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) ALTER COLUMN \(dialect.quote(column)) DROP NOT NULL"
    }

    /// The unique index standing in for a `UNIQUE` attribute on an existing column.
    /// `concurrently`: built without holding off the table's writers (see
    /// ``DBBDialect/concurrently``), outside a transaction.
    func createAttributeIndex(_ column: String, of table: String, concurrently: Bool = false) -> String {
        "CREATE UNIQUE INDEX \(concurrently ? dialect.concurrently : "")IF NOT EXISTS "
            + "\(dialect.quote(dialect.attributeIndexName(table: table, column: column)))"
            + " ON \(dialect.quote(table)) (\(dialect.quote(column)))"
    }

    /// Drops a `UNIQUE` table constraint by name (PostgreSQL; SQLite rebuilds the table).
    func dropConstraint(_ name: String, of table: String, ifExists: Bool = false) -> String {
        "ALTER TABLE \(dialect.quote(table)) DROP CONSTRAINT \(ifExists ? "IF EXISTS " : "")\(dialect.quote(name))"
    }
}
