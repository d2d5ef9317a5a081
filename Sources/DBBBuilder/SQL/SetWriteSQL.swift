import DBBFormat

/// The statements of set-based writes (PostgreSQL's): each writes every row of one table in
/// one round trip, its values bound as one array a column (``DBBValueArray``), so the text is
/// the same whatever the number of rows.
struct SetWriteSQL {
    let dialect: any DBBDialect

    /// Inserts rows into `mapping`'s table, their `createdTime`, `modifiedTime` and mapped
    /// columns the arrays bound in that order, and returns their new ids in the order of the
    /// arrays: each row takes its id from the table's identity sequence in a materialized
    /// common table expression (it calls a volatile function), which the insert and the final
    /// `SELECT … ORDER BY` both read, so the order is defined, not the order `RETURNING`
    /// happens to give. An id of 0 (which stands for "not saved yet") becomes `NULL`, which the
    /// `id` column refuses: the server fails the statement, so that nothing is stored even when
    /// the statement commits on its own (``SetWriter/insert(_:values:now:)`` names the cause).
    func insertRows(_ mapping: TableMapping) -> String {
        let table = dialect.quote(mapping.tableName)
        let values = (0..<(2 + mapping.columns.count)).map { "c\($0)" }
        let names =
            [SchemaSQL.idColumn, SchemaSQL.createdTimeColumn, SchemaSQL.modifiedTimeColumn].map(dialect.quote)
            + mapping.columns.map { dialect.quote($0.column) }
        let types = [DBBStorageType.date, .date] + mapping.columns.map(\.storageType)
        return
            "WITH new_rows AS (SELECT NULLIF(nextval(s.seq), 0) AS id, u.* FROM (SELECT CAST(\(sequence(of: table)) AS regclass) AS seq) AS s"
            + " CROSS JOIN \(unnest(types)) WITH ORDINALITY AS u(\(values.joined(separator: ", ")), n)),"
            + " inserted AS (INSERT INTO \(table) (\(names.joined(separator: ", ")))"
            + " SELECT id, \(values.joined(separator: ", ")) FROM new_rows)"
            + " SELECT id FROM new_rows ORDER BY n"
    }

    /// The id sequence of `table` (quoted).
    private func sequence(of table: String) -> String {
        "pg_get_serial_sequence(\(SQLText.literal(.text(table)) ?? "NULL"), '\(SchemaSQL.idColumn)')"
    }

    /// Moves the id sequence of `mapping`'s table past its highest id: what a user runs after
    /// other SQL inserted rows with ids of its own, which do not advance the sequence.
    func advanceSequence(_ mapping: TableMapping) -> String {
        let table = dialect.quote(mapping.tableName)
        return "SELECT setval(\(sequence(of: table)), max(\(dialect.quote(SchemaSQL.idColumn)))) FROM \(table)"
    }

    /// Updates `modifiedTime` and the columns at `columns` of `mapping`'s table in the rows
    /// whose ids are the first array bound, to the values of the arrays that follow (the
    /// time, then each column), and returns the ids of the rows it found.
    func updateRows(_ mapping: TableMapping, _ columns: [Int]) -> String {
        // Both tables under aliases of their own: a table named like the rows' alias (`v`) is
        // then no clash.
        let id = dialect.quote(SchemaSQL.idColumn)
        let values = (0..<columns.count).map { "c\($0)" }
        let assignments =
            ["\(dialect.quote(SchemaSQL.modifiedTimeColumn)) = dbb_rows.m"]
            + zip(columns, values).map { "\(dialect.quote(mapping.columns[$0].column)) = dbb_rows.\($1)" }
        let types = [DBBStorageType.int, .date] + columns.map { mapping.columns[$0].storageType }
        return "UPDATE \(dialect.quote(mapping.tableName)) AS dbb_target SET \(assignments.joined(separator: ", "))"
            + " FROM \(unnest(types)) AS dbb_rows(\((["id", "m"] + values).joined(separator: ", ")))"
            + " WHERE dbb_target.\(id) = dbb_rows.id RETURNING dbb_target.\(id)"
    }

    /// Deletes the join rows of the owners whose ids are the array bound to `?`.
    func deleteJoinRows(_ join: JoinProperty) -> String {
        "DELETE FROM \(dialect.quote(join.joinTable)) WHERE \(dialect.quote(join.parentColumn)) = ANY(CAST(? AS bigint[]))"
    }

    /// Inserts join rows from two arrays, owner ids and values, in their order: join rows
    /// are read back by owner, then by `id`, the order they were inserted in.
    func insertJoinRows(_ join: JoinProperty) -> String {
        "INSERT INTO \(dialect.quote(join.joinTable)) (\(dialect.quote(join.parentColumn)), \(dialect.quote(join.column)))"
            + " SELECT o, v FROM " + unnest([.int, join.storageType]) + " WITH ORDINALITY AS u(o, v, n) ORDER BY n"
    }

    /// `unnest(CAST(? AS type[]), …)`: the rows of parallel arrays, one a column of `types`.
    private func unnest(_ types: [DBBStorageType]) -> String {
        "unnest(" + types.map { "CAST(? AS \(dialect.columnType($0))[])" }.joined(separator: ", ") + ")"
    }
}
