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
/// Other engines write the same tables in their spelling (``DBBDialect/columnType(_:)``,
/// ``DBBDialect/idDefinition``), and may delete join rows with their rows through foreign keys
/// (``DBBDialect/joinColumnReference(to:)``) instead of triggers.
struct SchemaSQL {
    static let idColumn = DBBFormat.idColumn
    static let createdTimeColumn = DBBFormat.createdTimeColumn
    static let modifiedTimeColumn = DBBFormat.modifiedTimeColumn

    let dialect: any DBBDialect

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
    /// `ALTER TABLE … RENAME COLUMN` (SQLite 3.25 and later, and PostgreSQL).
    func renameColumn(_ column: String, to name: String, of table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) RENAME COLUMN \(dialect.quote(column)) TO \(dialect.quote(name))"
    }

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
        DBBFormat.indexName(mapping.tableName, properties: indexer.columns)
    }

    func createIndex(_ indexer: DBBIndexer, _ mapping: TableMapping, concurrently: Bool = false) -> String {
        let name = indexName(indexer, mapping)
        let columns = indexer.columns.map { dialect.quote(mapping.column(named: $0)?.column ?? $0) }
        return "CREATE \(indexer.isUnique ? "UNIQUE " : "")INDEX \(concurrently ? dialect.concurrently : "")"
            + "IF NOT EXISTS \(dialect.quote(name))"
            + " ON \(dialect.quote(mapping.tableName)) (\(columns.joined(separator: ",")))"
    }

    /// The join table of `join`, owned by `owner`'s rows; `target` is the table a reference
    /// points into (both columns refer to their tables where the dialect deletes join rows
    /// by foreign keys).
    func createJoinTable(_ join: JoinProperty, owner: TableMapping, target: TableMapping?) -> String {
        let ownerColumn =
            "\(dialect.quote(join.parentColumn)) \(dialect.columnType(.int))"
            + dialect.joinColumnReference(to: owner.tableName)
        let valueColumn =
            "\(dialect.quote(join.column)) \(dialect.columnType(join.storageType))"
            + (target.map { dialect.joinColumnReference(to: $0.tableName) } ?? "")
        return
            "CREATE TABLE IF NOT EXISTS \(dialect.quote(join.joinTable)) (\(dialect.idDefinition), \(ownerColumn), \(valueColumn))"
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

    func createJoinIndex(_ join: JoinProperty, concurrently: Bool = false) -> String {
        "CREATE INDEX \(concurrently ? dialect.concurrently : "")IF NOT EXISTS \(dialect.quote(join.indexName)) "
            + "ON \(dialect.quote(join.joinTable))"
            + " (\(dialect.quote(join.parentColumn)))"
    }

    /// `ALTER TABLE … ADD COLUMN createdTime Real`, for a table DBBBuilder did not create.
    func addTimeColumn(_ column: String, to table: String) -> String {
        "ALTER TABLE \(dialect.quote(table)) ADD COLUMN \(dialect.quote(column)) \(dialect.columnType(.date))"
    }

    // MARK: - Join rows go with their rows

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

    func ownerTriggerName(_ join: JoinProperty) -> String { DBBFormat.joinOwnerTrigger(join.joinTable) }
    func targetTriggerName(_ join: JoinProperty) -> String { DBBFormat.joinTargetTrigger(join.joinTable) }

    /// The index the target trigger searches the join table with.
    func createJoinTargetIndex(_ join: JoinProperty, concurrently: Bool = false) -> String {
        "CREATE INDEX \(concurrently ? dialect.concurrently : "")IF NOT EXISTS "
            + "\(dialect.quote(DBBFormat.joinTargetIndex(join.joinTable))) ON \(dialect.quote(join.joinTable))"
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
