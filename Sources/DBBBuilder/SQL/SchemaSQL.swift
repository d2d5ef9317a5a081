import DBBFormat
/// The DDL of a table-object class, in DBBBuilder's on-disk layout:
///
/// ```sql
/// CREATE TABLE IF NOT EXISTS Person (id Integer PRIMARY KEY AUTOINCREMENT, createdTime Real,
///     modifiedTime Real, firstName Text NOT NULL, …)
/// CREATE TABLE IF NOT EXISTS Person_photo (id Integer PRIMARY KEY AUTOINCREMENT, Person_ID Integer, photo BLOB)
/// CREATE INDEX IF NOT EXISTS Person_photo_idx ON Person_photo (Person_ID)
/// ```
enum SchemaSQL {
    static let idColumn = DBBFormat.idColumn
    static let createdTimeColumn = DBBFormat.createdTimeColumn
    static let modifiedTimeColumn = DBBFormat.modifiedTimeColumn
    static let idDefinition = "id Integer PRIMARY KEY AUTOINCREMENT"

    static func createTable(_ mapping: TableMapping) -> String {
        let columns = [idDefinition, "createdTime Real", "modifiedTime Real"]
            + mapping.columns.map { column in
                let attributes = column.attributes.isEmpty ? "" : " " + constraints(column.attributes)
                return "\(SQLDialect.quote(column.column)) \(SQLDialect.columnType(column.storageType))\(attributes)"
            }
        return "CREATE TABLE IF NOT EXISTS \(SQLDialect.quote(mapping.tableName)) (\(columns.joined(separator: ", ")))"
    }

    /// The column constraints of `attributes`, as in a column definition: `NOT NULL UNIQUE`.
    static func constraints(_ attributes: ColumnAttributes) -> String {
        var words: [String] = []
        if attributes.contains(.notNull) { words.append("NOT NULL") }
        if attributes.contains(.unique) { words.append("UNIQUE") }
        return words.joined(separator: " ")
    }

    /// `ALTER TABLE … ADD COLUMN`: SQLite refuses to add `UNIQUE` columns (a unique index is
    /// made instead, see ``uniqueIndex(_:_:)``) and `NOT NULL` ones without a default. The
    /// default of a `NOT NULL` column is the property's value in a new object (`var priority =
    /// 5` gives the rows already there 5), or the type's zero when that is `nil` or not storable.
    static func addColumn(_ column: ColumnProperty, to mapping: TableMapping) -> String {
        var definition = "\(SQLDialect.quote(column.column)) \(SQLDialect.columnType(column.storageType))"
        if column.isNotNull {
            let literal = SQLDialect.literal(column.defaultValue) ?? SQLDialect.defaultLiteral(column.storageType)
            definition += " NOT NULL DEFAULT \(literal)"
        }
        return "ALTER TABLE \(SQLDialect.quote(mapping.tableName)) ADD COLUMN \(definition)"
    }

    /// The unique index standing in for a `UNIQUE` attribute on an added column.
    static func uniqueIndex(_ column: ColumnProperty, _ mapping: TableMapping) -> String {
        "CREATE UNIQUE INDEX IF NOT EXISTS \(SQLDialect.quote("\(mapping.tableName)_\(column.column)_unique"))"
            + " ON \(SQLDialect.quote(mapping.tableName)) (\(SQLDialect.quote(column.column)))"
    }

    /// DBBBuilder's index: named after the table and the listed property names, over their columns.
    static func createIndex(_ indexer: DBBIndexer, _ mapping: TableMapping) -> String {
        let name = mapping.tableName + "_" + indexer.columns.joined()
        let columns = indexer.columns.map { SQLDialect.quote(mapping.column(named: $0)?.column ?? $0) }
        return "CREATE \(indexer.isUnique ? "UNIQUE " : "")INDEX IF NOT EXISTS \(SQLDialect.quote(name))"
            + " ON \(SQLDialect.quote(mapping.tableName)) (\(columns.joined(separator: ",")))"
    }

    static func createJoinTable(_ join: JoinProperty) -> String {
        "CREATE TABLE IF NOT EXISTS \(SQLDialect.quote(join.joinTable)) (\(idDefinition), "
            + "\(SQLDialect.quote(join.parentColumn)) Integer, "
            + "\(SQLDialect.quote(join.column)) \(SQLDialect.columnType(join.storageType)))"
    }

    static func createJoinIndex(_ join: JoinProperty) -> String {
        "CREATE INDEX IF NOT EXISTS \(SQLDialect.quote(join.indexName)) ON \(SQLDialect.quote(join.joinTable))"
            + " (\(SQLDialect.quote(join.parentColumn)))"
    }

    /// The columns of the table bound to `?` (none when it does not exist): name, declared
    /// type, `NOT NULL`, default, hidden (0 for an ordinary column), position in the primary key.
    static let tableColumns = "SELECT name, type, \"notnull\", dflt_value, hidden, pk FROM pragma_table_xinfo(?)"

    /// How many indexes implement the primary key of the table bound to `?`: none when the key
    /// is the row id (`INTEGER PRIMARY KEY` of a rowid table).
    static let primaryKeyIndexCount = "SELECT count(*) FROM pragma_index_list(?) WHERE origin = 'pk'"

    /// `ALTER TABLE … ADD COLUMN createdTime Real`, for a table DBBBuilder did not create.
    static func addTimeColumn(_ column: String, to table: String) -> String {
        "ALTER TABLE \(SQLDialect.quote(table)) ADD COLUMN \(SQLDialect.quote(column)) Real"
    }

    // MARK: - Join rows go with their rows

    /// Deletes an object's join rows when its row is deleted, by whatever means.
    static func ownerDeleteTrigger(_ join: JoinProperty, owner: TableMapping) -> String {
        cleanupTrigger(ownerTriggerName(join), on: owner.tableName, deleting: join, whose: join.parentColumn)
    }

    /// Deletes the join rows that refer to an object when its row is deleted (references only).
    static func targetDeleteTrigger(_ join: JoinProperty, target: TableMapping) -> String {
        cleanupTrigger(targetTriggerName(join), on: target.tableName, deleting: join, whose: join.column)
    }

    /// `CREATE TRIGGER name AFTER DELETE ON table BEGIN DELETE FROM <join table> WHERE column = OLD.id; END`
    private static func cleanupTrigger(_ name: String, on table: String, deleting join: JoinProperty, whose column: String) -> String {
        "CREATE TRIGGER IF NOT EXISTS \(SQLDialect.quote(name)) AFTER DELETE ON \(SQLDialect.quote(table))"
            + " BEGIN DELETE FROM \(SQLDialect.quote(join.joinTable)) WHERE \(SQLDialect.quote(column)) = OLD.id; END"
    }

    static func ownerTriggerName(_ join: JoinProperty) -> String { "\(join.joinTable)_owner_deleted" }
    static func targetTriggerName(_ join: JoinProperty) -> String { "\(join.joinTable)_target_deleted" }

    /// The index the target trigger searches the join table with.
    static func createJoinTargetIndex(_ join: JoinProperty) -> String {
        "CREATE INDEX IF NOT EXISTS \(SQLDialect.quote(DBBFormat.joinTargetIndex(join.joinTable))) ON \(SQLDialect.quote(join.joinTable))"
            + " (\(SQLDialect.quote(join.column)))"
    }

    /// Whether the trigger named `?` exists.
    static let triggerExists = "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND name = ?"

    /// Join rows whose owner row is gone (left by a version without the triggers).
    static func deleteOrphanRows(_ join: JoinProperty, owner: TableMapping) -> String {
        deleteUnmatched(join, whose: join.parentColumn, in: owner.tableName)
    }

    /// Join rows that refer to a row that is gone.
    static func deleteDanglingReferences(_ join: JoinProperty, target: TableMapping) -> String {
        deleteUnmatched(join, whose: join.column, in: target.tableName)
    }

    private static func deleteUnmatched(_ join: JoinProperty, whose column: String, in table: String) -> String {
        "DELETE FROM \(SQLDialect.quote(join.joinTable)) WHERE \(SQLDialect.quote(column))"
            + " NOT IN (SELECT id FROM \(SQLDialect.quote(table)))"
    }

    static func dropIndex(_ name: String) -> String {
        "DROP INDEX IF EXISTS \(SQLDialect.quote(name))"
    }

    static func count(_ table: String) -> String {
        "SELECT COUNT(*) FROM \(SQLDialect.quote(table))"
    }
}
