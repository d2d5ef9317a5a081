/// The SQL of bringing a column's `NOT NULL` and `UNIQUE` in line with its property's
/// attributes (see ``ConstraintMigration``): what the table has, whether its rows allow a
/// constraint, and the statements that add or lift one.
struct ConstraintSQL {
    let dialect: DBBDialect

    /// The unique indexes over exactly one column of the table bound to `?` (no partial or
    /// expression index, not the primary key): index name, column name, and how it was made —
    /// `constraint` for a `UNIQUE` constraint of the table (SQLite's `origin = 'u'`;
    /// PostgreSQL's constraint name), `index` for `CREATE UNIQUE INDEX`.
    var singleColumnUniqueIndexes: String {
        switch dialect {
        case .sqlite:
            """
            SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END FROM pragma_index_list(?) l, \
            pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 AND l.origin <> 'pk' \
            AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
            """
        case .postgresql:
            """
            SELECT ic.relname, a.attname, c.conname FROM pg_index x \
            JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
            JOIN pg_class ic ON ic.oid = x.indexrelid \
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] \
            LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u' \
            WHERE n.nspname = current_schema() AND t.relname = ? AND x.indisunique AND NOT x.indisprimary \
            AND x.indnkeyatts = 1 AND x.indpred IS NULL AND x.indexprs IS NULL
            """
        }
    }

    /// The name of the unique index DBBBuilder makes for a `UNIQUE` attribute when it cannot
    /// be a column constraint (the column existed before the attribute, or was added later).
    static func attributeIndexName(table: String, column: String) -> String { "\(table)_\(column)_unique" }

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
    func createAttributeIndex(_ column: String, of table: String) -> String {
        "CREATE UNIQUE INDEX IF NOT EXISTS \(dialect.quote(Self.attributeIndexName(table: table, column: column)))"
            + " ON \(dialect.quote(table)) (\(dialect.quote(column)))"
    }

    /// Drops a `UNIQUE` table constraint by name (PostgreSQL; SQLite rebuilds the table).
    func dropConstraint(_ name: String, of table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) DROP CONSTRAINT \(dialect.quote(name))"
    }
}
