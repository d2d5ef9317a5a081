/// The SQL of bringing a column's `NOT NULL` and `UNIQUE` in line with its property's
/// attributes (see ``ConstraintMigration``): what the table has, whether its rows allow a
/// constraint, and the statements that add or lift one.
struct ConstraintSQL {
    let dialect: DBBDialect

    /// The unique indexes over exactly one column of the table bound to `?1` (no partial or
    /// expression index, not the primary key): index name, column name, the name of the
    /// `UNIQUE` table constraint it backs (empty on SQLite, which names none; `NULL` for one
    /// made by `CREATE UNIQUE INDEX`), and the foreign keys that refer to it (`NULL` when none).
    var singleColumnUniqueIndexes: String {
        switch dialect {
        case .sqlite:
            """
            SELECT l.name, i.name, CASE l.origin WHEN 'u' THEN '' END, \
            (SELECT group_concat(m.name || '.' || f."from", ', ') FROM sqlite_master m, pragma_foreign_key_list(m.name) f \
            WHERE m.type = 'table' AND f."table" = ?1 COLLATE NOCASE AND f."to" = i.name COLLATE NOCASE) \
            FROM pragma_index_list(?1) l, pragma_index_info(l.name) i WHERE l."unique" = 1 AND l.partial = 0 \
            AND l.origin <> 'pk' AND i.name IS NOT NULL AND (SELECT count(*) FROM pragma_index_info(l.name)) = 1
            """
        case .postgresql:
            """
            SELECT ic.relname, a.attname, c.conname, \
            (SELECT string_agg(f.conname || ' of ' || f.conrelid::regclass::text, ', ') FROM pg_constraint f \
            WHERE f.contype = 'f' AND f.conindid = x.indexrelid) FROM pg_index x \
            JOIN pg_class t ON t.oid = x.indrelid JOIN pg_namespace n ON n.oid = t.relnamespace \
            JOIN pg_class ic ON ic.oid = x.indexrelid \
            JOIN pg_attribute a ON a.attrelid = t.oid AND a.attnum = x.indkey[0] \
            LEFT JOIN pg_constraint c ON c.conindid = x.indexrelid AND c.contype = 'u' \
            WHERE n.nspname = current_schema() AND t.relname = ?1 AND x.indisunique AND NOT x.indisprimary \
            AND x.indnkeyatts = 1 AND x.indpred IS NULL AND x.indexprs IS NULL
            """
        }
    }

    /// The name of the unique index DBBBuilder makes for a `UNIQUE` attribute when it cannot
    /// be a column constraint (the column existed before the attribute, or was added later):
    /// `<Table>_<column>_unique`. On PostgreSQL, whose names hold 63 bytes, a longer one keeps
    /// its first 46 bytes and a hash of the whole (`<start>_1a2b3c4d_unique`), so that two
    /// long names do not come out the same.
    func attributeIndexName(table: String, column: String) -> String {
        let base = "\(table)_\(column)"
        guard dialect == .postgresql, base.utf8.count + 7 > 63 else { return base + "_unique" }
        var start = ""
        for character in base {
            guard start.utf8.count + String(character).utf8.count <= 46 else { break }
            start.append(character)
        }
        var hash: UInt32 = 2_166_136_261  // FNV-1a
        for byte in base.utf8 { hash = (hash ^ UInt32(byte)) &* 16_777_619 }
        let hex = String(hash, radix: 16)
        return start + "_" + String(repeating: "0", count: 8 - hex.count) + hex + "_unique"
    }

    /// Whether an index named `name` is the attribute index of `column` (SQLite compares
    /// names without case; PostgreSQL as written).
    func isAttributeIndex(_ name: String, table: String, column: String) -> Bool {
        let expected = attributeIndexName(table: table, column: column)
        return dialect == .sqlite ? name.lowercased() == expected.lowercased() : name == expected
    }

    /// Whether a `UNIQUE` constraint named `name` is the one a column definition's `UNIQUE`
    /// makes (`CREATE TABLE` with the attribute): on PostgreSQL the name the server chooses,
    /// `<table>_<column>_key` cut to 63 bytes its way (the longer part first, never inside a
    /// character); a constraint named otherwise was made by other SQL, and is not the
    /// attribute's. SQLite names none: each is taken for the attribute's.
    func isAttributeConstraint(_ name: String, table: String, column: String) -> Bool {
        guard dialect == .postgresql else { return true }
        var (first, second) = (table.utf8.count, column.utf8.count)
        let available = 63 - "_key".utf8.count - 1
        while first + second > available {
            if first > second { first -= 1 } else { second -= 1 }
        }
        return name == Self.clipped(table, toBytes: first) + "_" + Self.clipped(column, toBytes: second) + "_key"
    }

    /// The longest start of `text` of at most `count` UTF-8 bytes that ends on a character.
    private static func clipped(_ text: String, toBytes count: Int) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            guard result.utf8.count + String(scalar).utf8.count <= count else { break }
            result.unicodeScalars.append(scalar)
        }
        return result
    }

    /// Holds off other sessions' writes to `table` until the transaction ends, so that the rows
    /// checked for a new constraint are the rows it is applied to (PostgreSQL; SQLite's
    /// `BEGIN IMMEDIATE` already does).
    func lockAgainstWrites(_ table: String) -> String? {
        switch dialect {
        case .sqlite: nil
        case .postgresql: "LOCK TABLE \(dialect.quote(table)) IN SHARE MODE"
        }
    }

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
        "CREATE UNIQUE INDEX IF NOT EXISTS \(dialect.quote(attributeIndexName(table: table, column: column)))"
            + " ON \(dialect.quote(table)) (\(dialect.quote(column)))"
    }

    /// Drops a `UNIQUE` table constraint by name (PostgreSQL; SQLite rebuilds the table).
    func dropConstraint(_ name: String, of table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) DROP CONSTRAINT \(dialect.quote(name))"
    }
}
