/// DBBBuilder's on-disk layout, the one place that states it: the ORM writes tables by these
/// rules and the code generator reads databases by them.
///
/// A class's table is named by the class's short name and starts with ``idColumn`` (the row
/// id), ``createdTimeColumn`` and ``modifiedTimeColumn`` (seconds since 2001); then one column
/// per column-stored property. An array, `Data` or reference property lives in a join table
/// `<Table>_<column>(id, <Table>_ID, <column>)`, indexed on `<Table>_ID`.
public enum DBBFormat {
    /// The row id: `id Integer PRIMARY KEY AUTOINCREMENT`.
    public static let idColumn = "id"
    /// When the row was inserted, in seconds since 2001.
    public static let createdTimeColumn = "createdTime"
    /// When the row was last written, in seconds since 2001.
    public static let modifiedTimeColumn = "modifiedTime"
    /// The columns every table starts with, which no property may use.
    public static let reservedColumns = [idColumn, createdTimeColumn, modifiedTimeColumn]
    /// DBBBuilder's schema version table.
    public static let versionTable = "DBVersion"
    /// The package's catalog of mapped properties, one row per property of each registered
    /// class: `table_name`, `property` (the primary key), `column_name`, `class_name` (the
    /// class as `String(reflecting:)` names it), `swift_type` (`Int8`, `Optional<Date>`,
    /// `Array<String>`), `storage` (the ``DBBStorageType`` description: `int`, `date`,
    /// `stringArray`, `dbbObject(Person)`…), `join_table` (`NULL` for a column of the object's
    /// table), `target_table` (the referenced class's table, for references) and `mapped` (0 once
    /// the class no longer maps the property; its column and data stay).
    ///
    /// Registration writes it, in its own transaction and only when something differs, so that
    /// a later registration knows the Swift type a column's values were written with (the
    /// declared type cannot tell `Int8` from `Int`, nor `Date` from `Double`). Lower case: the
    /// same name quoted or not on every engine. It is the package's, not a class's table: no
    /// class may use the name, and copies between databases do not carry it.
    public static let columnsTable = "dbb_columns"

    /// Whether `column` is one of ``reservedColumns``, ignoring case as SQL does.
    public static func isReserved(_ column: String) -> Bool {
        reservedColumns.contains { $0.lowercased() == column.lowercased() }
    }

    /// `<Table>_<column>`: the join table of a property stored in `column` of `table`.
    public static func joinTable(_ table: String, column: String) -> String { "\(table)_\(column)" }

    /// `<Table>_ID`: the join-table column that holds the owner's id.
    public static func ownerColumn(_ table: String) -> String { "\(table)_ID" }

    /// `<Table>_<property>_idx`: the index of a join table on its owner column.
    public static func joinIndex(_ table: String, property: String) -> String { "\(table)_\(property)_idx" }

    /// `<JoinTable>_target_idx`: the index of a reference's join table on the referenced ids.
    public static func joinTargetIndex(_ joinTable: String) -> String { "\(joinTable)_target_idx" }

    /// `<JoinTable>_owner_deleted`: the trigger (SQLite) that deletes an object's join rows with its row.
    public static func joinOwnerTrigger(_ joinTable: String) -> String { "\(joinTable)_owner_deleted" }

    /// `<JoinTable>_target_deleted`: the trigger (SQLite), on the referenced table, that deletes
    /// the join rows referring to a row deleted there: its table is the reference's target.
    public static func joinTargetTrigger(_ joinTable: String) -> String { "\(joinTable)_target_deleted" }

    /// `<Table>_<property names>` (the names run together, as DBBBuilder wrote them): the index
    /// of a `DBBIndexer` (and of `@Indexed`) over the columns of `properties`.
    public static func indexName(_ table: String, properties: [String]) -> String {
        table + "_" + properties.joined()
    }

    /// Whether a table named `table` with `columns` is the join table of a property stored in
    /// `column` of `owner`'s table.
    public static func isJoinTable(_ table: String, columns: Set<String>, owner: String, column: String) -> Bool {
        table == joinTable(owner, column: column) && columns == [idColumn, ownerColumn(owner), column]
    }

    /// The Swift types stored in a column of the object's table (their optionals too); `Data`
    /// and arrays of these are stored in join tables, as are references to table objects.
    /// (Enums are stored as their raw values, and values marked `@JSON` as JSON: neither is
    /// known by name.)
    public static let columnTypeNames: Set<String> = [
        "Bool", "Int", "Int8", "Int16", "Int32", "Int64", "UInt", "UInt8", "UInt16", "UInt32", "UInt64",
        "Double", "Float", "String", "Date", "Decimal", "UUID", "URL",
    ]

    /// Those of ``columnTypeNames`` that Foundation declares (`Foundation.Date`), not the standard library.
    public static let foundationTypeNames: Set<String> = ["Date", "Decimal", "UUID", "URL"]

    /// The declared type of a join table's column of `Date` elements (DBBBuilder's spelling).
    public static let dateArrayColumnType = "DateTimeStamp"
}
