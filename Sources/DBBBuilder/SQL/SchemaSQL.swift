import DBBFormat

/// The DDL of a table-object class, in DBBBuilder's on-disk layout:
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS Person (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real,
///     modifiedTime Real, firstName Text NOT NULL, …)
/// CREATE TABLE IF NOT EXISTS Person_photo (id Integer PRIMARY KEY AUTOINCREMENT, Person_ID Integer, photo BLOB)
/// CREATE INDEX IF NOT EXISTS Person_photo_idx ON Person_photo (Person_ID)
/// ```
///
/// On PostgreSQL the same tables, with its types (see ``DBBDialect/columnType(_:)``), and
/// join rows that go with their rows through foreign keys `ON DELETE CASCADE` instead of
/// triggers.
struct SchemaSQL {
    static let idColumn = DBBFormat.idColumn
    static let createdTimeColumn = DBBFormat.createdTimeColumn
    static let modifiedTimeColumn = DBBFormat.modifiedTimeColumn

    let dialect: DBBDialect

    func createTable(_ mapping: TableMapping) -> String {
        let times = [Self.createdTimeColumn, Self.modifiedTimeColumn].map {
            "\(dialect.quote($0)) \(dialect.columnType(.date))"
        }
        let columns =
            [dialect.idDefinition] + times
            + mapping.columns.map { column in
                let attributes = column.attributes.isEmpty ? "" : " " + Self.constraints(column.attributes)
                return "\(dialect.quote(column.column)) \(dialect.columnType(column.storageType))\(attributes)"
            }
        return "CREATE TABLE IF NOT EXISTS \(dialect.quote(mapping.tableName)) (\(columns.joined(separator: ", ")))"
    }

    /// The column constraints of `attributes`, as in a column definition: `NOT NULL UNIQUE`.
    static func constraints(_ attributes: ColumnAttributes) -> String {
        var words: [String] = []
        if attributes.contains(.notNull) { words.append("NOT NULL") }
        if attributes.contains(.unique) { words.append("UNIQUE") }
        return words.joined(separator: " ")
    }

    /// `ALTER TABLE … ADD COLUMN`: SQLite refuses to add `UNIQUE` columns (a unique index is
    /// made instead, see ``ConstraintSQL/createAttributeIndex(_:of:)``) and `NOT NULL` ones
    /// without a default.
    ///
    /// The rows already there get the property's value in a new object (`var priority = 5`
    /// gives them 5) as the column's default — not `NULL`, which a non-optional property cannot
    /// hold (its objects would read the default while the rows hold `NULL`). A `NOT NULL` column
    /// whose property is `nil` in a new object, or holds a value with no literal, gets the
    /// type's zero.
    func addColumn(_ column: ColumnProperty, to mapping: TableMapping) -> String {
        var definition = "\(dialect.quote(column.column)) \(dialect.columnType(column.storageType))"
        if column.isNotNull {
            let literal = dialect.literal(column.defaultValue) ?? dialect.defaultLiteral(column.storageType)
            definition += " NOT NULL DEFAULT \(literal)"
        } else if column.defaultValue != .null, let literal = dialect.literal(column.defaultValue) {
            definition += " DEFAULT \(literal)"
        }
        return "ALTER TABLE \(dialect.quote(mapping.tableName)) ADD COLUMN \(definition)"
    }

    /// DBBBuilder's index: named after the table and the listed property names, over their columns.
    /// DBBBuilder's name of an indexer's index: the table's name, `_`, the property names.
    func indexName(_ indexer: DBBIndexer, _ mapping: TableMapping) -> String {
        mapping.tableName + "_" + indexer.columns.joined()
    }

    func createIndex(_ indexer: DBBIndexer, _ mapping: TableMapping) -> String {
        let name = indexName(indexer, mapping)
        let columns = indexer.columns.map { dialect.quote(mapping.column(named: $0)?.column ?? $0) }
        return "CREATE \(indexer.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(dialect.quote(name))"
            + " ON \(dialect.quote(mapping.tableName)) (\(columns.joined(separator: ",")))"
    }

    /// The join table of `join`, owned by `owner`'s rows; `target` is the table a reference
    /// points into. On PostgreSQL both columns are foreign keys `ON DELETE CASCADE`.
    func createJoinTable(_ join: JoinProperty, owner: TableMapping, target: TableMapping?) -> String {
        var ownerColumn = "\(dialect.quote(join.parentColumn)) \(dialect.columnType(.int))"
        var valueColumn = "\(dialect.quote(join.column)) \(dialect.columnType(join.storageType))"
        if dialect == .postgresql {
            ownerColumn +=
                " REFERENCES \(dialect.quote(owner.tableName)) (\(dialect.quote(Self.idColumn))) ON DELETE CASCADE"
            if let target {
                valueColumn +=
                    " REFERENCES \(dialect.quote(target.tableName)) (\(dialect.quote(Self.idColumn))) ON DELETE CASCADE"
            }
        }
        return
            "CREATE TABLE IF NOT EXISTS \(dialect.quote(join.joinTable)) (\(dialect.idDefinition), \(ownerColumn), \(valueColumn))"
    }

    /// The longest name the engine keeps whole, in UTF-8 bytes: PostgreSQL cuts longer ones
    /// to 63 (`NAMEDATALEN`), after which the mapping's name would not find its object.
    var longestName: Int? {
        switch dialect {
        case .sqlite: nil
        case .postgresql: 63
        }
    }

    /// Every name the schema of `mapping` gives the engine, with the property it is for (none
    /// for the table's own): table, columns, join tables and their columns, and indexes.
    func names(of mapping: TableMapping) -> [(name: String, property: String?)] {
        var names: [(String, String?)] = [(mapping.tableName, nil)]
        names += mapping.columns.map { ($0.column, $0.name) }
        for join in mapping.joins {
            names += [join.joinTable, join.parentColumn, join.column, join.indexName].map { ($0, join.name) }
            names.append((DBBFormat.joinTargetIndex(join.joinTable), join.name))
        }
        names += mapping.indexers.map { (indexName($0, mapping), $0.columns.first) }
        return names
    }

    func createJoinIndex(_ join: JoinProperty) -> String {
        "CREATE INDEX IF NOT EXISTS \(dialect.quote(join.indexName)) ON \(dialect.quote(join.joinTable))"
            + " (\(dialect.quote(join.parentColumn)))"
    }

    /// Holds off the schema changes of every other manager and process on the database until
    /// this transaction ends. PostgreSQL's `CREATE TABLE IF NOT EXISTS` is not safe against a
    /// concurrent one (both find the name free, the second fails on the catalog's unique
    /// index), so service instances starting together would fail; after the lock, the second
    /// finds the first's tables. `nil` on SQLite, whose `BEGIN IMMEDIATE` does the same.
    var schemaLock: String? {
        switch dialect {
        case .sqlite: nil
        // The key is "DBBSchma" in ASCII: one lock for DBBBuilder's schema changes.
        case .postgresql: "SELECT pg_advisory_xact_lock(\(0x4442_4253_6368_6D61 as Int64))"
        }
    }

    /// The columns of the table bound to `?` (none when it does not exist): name, declared
    /// type, `NOT NULL`, default, hidden (0 for an ordinary column), position in the primary key.
    var tableColumns: String {
        switch dialect {
        case .sqlite:
            "SELECT name, type, \"notnull\", dflt_value, hidden, pk FROM pragma_table_xinfo(?)"
        case .postgresql:
            "SELECT c.column_name, c.data_type, CASE c.is_nullable WHEN 'NO' THEN 1 ELSE 0 END,"
                + " CASE WHEN c.column_default IS NOT NULL OR c.is_identity = 'YES' THEN 'default' END, 0,"
                + " (SELECT count(*) FROM information_schema.table_constraints t JOIN information_schema.key_column_usage k"
                + " ON k.constraint_name = t.constraint_name AND k.table_schema = t.table_schema"
                + " WHERE t.constraint_type = 'PRIMARY KEY' AND t.table_schema = c.table_schema AND t.table_name = c.table_name"
                + " AND k.column_name = c.column_name)"
                + " FROM information_schema.columns c WHERE c.table_schema = current_schema() AND c.table_name = ?"
                + " ORDER BY c.ordinal_position"
        }
    }

    /// How many indexes implement the primary key of the table bound to `?`: none when the key
    /// is the row id (`INTEGER PRIMARY KEY` of a rowid table).
    ///
    /// On PostgreSQL, whether `id` of the table bound to `?` is generated (identity or a
    /// sequence default): 0 when it is, as the key every insert leaves to the server.
    var primaryKeyIndexCount: String {
        switch dialect {
        case .sqlite:
            "SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'"
        case .postgresql:
            "SELECT count(*) FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ?"
                + " AND column_name = 'id' AND is_identity = 'NO' AND column_default IS NULL"
        }
    }

    /// The declared type `id` must have.
    var idType: String {
        switch dialect {
        case .sqlite: "INTEGER"
        case .postgresql: "BIGINT"
        }
    }

    /// `ALTER TABLE … ADD COLUMN createdTime Real`, for a table DBBBuilder did not create.
    func addTimeColumn(_ column: String, to table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) ADD COLUMN \(dialect.quote(column)) \(dialect.columnType(.date))"
    }

    // MARK: - Join rows go with their rows

    /// Whether join rows are deleted with their rows by triggers (SQLite), rather than by the
    /// join tables' foreign keys (PostgreSQL).
    var usesCleanupTriggers: Bool { dialect == .sqlite }

    /// Deletes an object's join rows when its row is deleted, by whatever means.
    func ownerDeleteTrigger(_ join: JoinProperty, owner: TableMapping) -> String {
        cleanupTrigger(ownerTriggerName(join), on: owner.tableName, deleting: join, whose: join.parentColumn)
    }

    /// Deletes the join rows that refer to an object when its row is deleted (references only).
    func targetDeleteTrigger(_ join: JoinProperty, target: TableMapping) -> String {
        cleanupTrigger(targetTriggerName(join), on: target.tableName, deleting: join, whose: join.column)
    }

    /// `CREATE TRIGGER name AFTER DELETE ON table BEGIN DELETE FROM <join table> WHERE column = OLD.id; END`
    private func cleanupTrigger(_ name: String, on table: String, deleting join: JoinProperty, whose column: String)
        -> String
    {
        "CREATE TRIGGER IF NOT EXISTS \(dialect.quote(name)) AFTER DELETE ON \(dialect.quote(table))"
            + " BEGIN DELETE FROM \(dialect.quote(join.joinTable)) WHERE \(dialect.quote(column)) = OLD.id; END"
    }

    func ownerTriggerName(_ join: JoinProperty) -> String { "\(join.joinTable)_owner_deleted" }
    func targetTriggerName(_ join: JoinProperty) -> String { "\(join.joinTable)_target_deleted" }

    /// The index the target trigger searches the join table with.
    func createJoinTargetIndex(_ join: JoinProperty) -> String {
        "CREATE INDEX IF NOT EXISTS \(dialect.quote(DBBFormat.joinTargetIndex(join.joinTable))) ON \(dialect.quote(join.joinTable))"
            + " (\(dialect.quote(join.column)))"
    }

    /// Whether the trigger named `?` exists.
    let triggerExists = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?"

    /// Join rows whose owner row is gone (left by a version without the triggers).
    func deleteOrphanRows(_ join: JoinProperty, owner: TableMapping) -> String {
        deleteUnmatched(join, whose: join.parentColumn, in: owner.tableName)
    }

    /// Join rows that refer to a row that is gone.
    func deleteDanglingReferences(_ join: JoinProperty, target: TableMapping) -> String {
        deleteUnmatched(join, whose: join.column, in: target.tableName)
    }

    private func deleteUnmatched(_ join: JoinProperty, whose column: String, in table: String) -> String {
        "DELETE FROM \(dialect.quote(join.joinTable)) WHERE \(dialect.quote(column))"
            + " NOT IN (SELECT \(dialect.quote(Self.idColumn)) FROM \(dialect.quote(table)))"
    }

    func dropIndex(_ name: String) -> String {
        "DROP INDEX IF EXISTS \(dialect.quote(name))"
    }

    func count(_ table: String) -> String {
        "SELECT COUNT(*) FROM \(dialect.quote(table))"
    }
}
