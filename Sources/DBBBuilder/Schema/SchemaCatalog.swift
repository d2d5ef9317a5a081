import DBBFormat

/// The package's record, in the database, of what each mapped property of a registered class
/// is: the table ``DBBFormat/columnsTable`` (`dbb_columns`), one row per property. A later
/// registration reads in it the Swift type a column's values were written with, which the
/// declared type cannot tell (`Int8` and `Int` are both `Integer`, `Date` and `Double` both
/// `Real`), to judge a change of the property's type (see ``TypeMigration``); `dbb-codegen`
/// reads it to write `Date` for a date column.
///
/// `dbb-codegen --from-database` reads it through ``init(connection:)`` and ``recorded(_:)``
/// (`@_spi(DBBBackend)`), so that there is one reader of its rows.
///
/// Written by ``SchemaMigration`` inside the registration's transaction, and only where a row
/// differs from what the class maps: a registration that changes nothing writes nothing, and a
/// database without the table (a file DBBBuilder wrote) gets it when a manager that writes
/// first registers a class. A manager that may not write only reads it.
///
/// A property the class no longer maps keeps its row, with `mapped` 0: its column and data
/// stay in the table (migrations only add), and the row still says what they are — for the
/// code generator, and for a later version that maps the column again, whose type is judged
/// against the values' own. The row goes when another property of the class maps its column
/// (a property renamed, `columnName:` kept), which the new row then describes.
@_spi(DBBBackend)
public struct SchemaCatalog {
    let connection: any DatabaseConnection
    /// Whether the table is there, and may be read.
    public private(set) var exists: Bool
    /// Whether the table is there, but the connection's role may not read it.
    public private(set) var isDenied = false
    private var sql: CatalogSQL { CatalogSQL(dialect: connection.dialect) }

    /// One row: a property as the last registration of its class mapped it.
    public struct Entry: Equatable, Sendable {
        public var table: String
        public var property: String
        public var column: String
        public var className: String
        /// `String(describing:)` of the property's type: `Int8`, `Optional<Date>`, `Array<Stage>`.
        public var swiftType: String
        /// The ``DBBStorageType`` description: `int`, `stringArray`, `dbbObject(Person)`, `json`.
        public var storage: String
        public var joinTable: String?
        /// The table a reference points into.
        public var targetTable: String?
        /// Whether the class still maps the property (its column and data stay when it does not).
        public var mapped = true

        /// The row's values in ``CatalogSQL/columns`` order.
        var values: [DBBValue] {
            [
                .text(table), .text(property), .text(column), .text(className), .text(swiftType), .text(storage),
                joinTable.map(DBBValue.text) ?? .null, targetTable.map(DBBValue.text) ?? .null,
                .integer(mapped ? 1 : 0),
            ]
        }

        /// Whether the row describes the column `column` of the object's table, or the join
        /// table `joinTable` (names compared without case, as SQL compares them).
        public func describes(column: String, joinTable: String?) -> Bool {
            guard let joinTable else { return self.joinTable == nil && self.column.lowercased() == column.lowercased() }
            return self.joinTable?.lowercased() == joinTable.lowercased()
        }
    }

    /// A catalog the connection's role may not read (a reporting role granted `SELECT` on the
    /// classes' tables alone) counts as missing: the registration judges by the tables, as for a
    /// file without one.
    public init(connection: any DatabaseConnection) throws {
        self.connection = connection
        let denied = try connection.fetchAll(connection.dialect.tableColumns, [.text(DBBFormat.columnsTable)]) { row in
            row.count > 6 && !row.isNull(at: 6)
        }
        exists = !denied.isEmpty && !denied.contains(true)
        isDenied = denied.contains(true)
    }

    /// The rows of `table` (none when the catalog does not exist); with `ignoringCase`, also
    /// those of the names that differ from it only in case (one table on SQLite).
    public func recorded(_ table: String, ignoringCase: Bool = false) throws -> [Entry] {
        guard exists else { return [] }
        let rows = try connection.fetchAll(sql.selectTable, [.text(table)]) { row in
            Entry(
                table: row.string(at: 0) ?? "", property: row.string(at: 1) ?? "", column: row.string(at: 2) ?? "",
                className: row.string(at: 3) ?? "", swiftType: row.string(at: 4) ?? "",
                storage: row.string(at: 5) ?? "", joinTable: row.string(at: 6), targetTable: row.string(at: 7),
                mapped: row.int64(at: 8) != 0)
        }
        return ignoringCase ? rows : rows.filter { $0.table == table }
    }

    /// The Swift type `entries` record for the column `column` of the object's table or the join
    /// table `joinTable`: the property that maps it, else one that mapped it; `nil` when none did.
    static func swiftType(in entries: [Entry], column: String, joinTable: String?) -> String? {
        describing(entries, column: column, joinTable: joinTable)?.swiftType
    }

    /// The row of `entries` for the column `column` of the object's table or the join table
    /// `joinTable`: the property that maps it, else one that mapped it; `nil` when none did.
    public static func describing(_ entries: [Entry], column: String, joinTable: String?) -> Entry? {
        let describing = entries.filter { $0.describes(column: column, joinTable: joinTable) }
        return describing.first(where: \.mapped) ?? describing.first
    }

    /// The rows that describe `mapping`'s properties; `targets` gives the mapping of a class a
    /// reference points to.
    static func entries(of mapping: TableMapping, targets: (DBBTableObject.Type) throws -> TableMapping) throws
        -> [Entry]
    {
        let className = String(reflecting: mapping.objectType)
        let columns = mapping.columns.map { column in
            Entry(
                table: mapping.tableName, property: column.name, column: column.column, className: className,
                swiftType: column.valueTypeName, storage: column.storageType.description)
        }
        let joins = try mapping.joins.map { join in
            Entry(
                table: mapping.tableName, property: join.name, column: join.column, className: className,
                swiftType: join.valueTypeName, storage: join.storageType.description, joinTable: join.joinTable,
                targetTable: try join.access.relation.map { try targets($0.targetType).tableName })
        }
        return columns + joins
    }

    /// Brings the rows of `mapping`'s table in line with what it maps, writing only the rows
    /// that differ from `previous` (what ``recorded(_:)`` read); creates the table the first
    /// time something is written.
    /// - Returns: how many rows were written.
    @discardableResult
    mutating func record(
        _ mapping: TableMapping, previous: [Entry], renamed: Set<String> = [],
        targets: (DBBTableObject.Type) throws -> TableMapping
    ) throws -> Int {
        let current = try Self.entries(of: mapping, targets: targets)
        let byProperty = Dictionary(previous.map { ($0.property, $0) }, uniquingKeysWith: { first, _ in first })
        var writes: [(sql: String, arguments: [DBBValue])] = []
        for entry in current where byProperty[entry.property] != entry {
            writes.append(
                byProperty[entry.property] == nil
                    ? (sql.insert, entry.values)
                    : (sql.update, Array(entry.values.dropFirst(2)) + entry.values.prefix(2)))
        }
        let mappedNow = Set(current.map(\.property))
        for var entry in previous where !mappedNow.contains(entry.property) {
            let key: [DBBValue] = [.text(entry.table), .text(entry.property)]
            // Its column renamed for another property, or mapped by another: the new row says what it is.
            if (entry.joinTable == nil && renamed.contains(entry.column.lowercased()))
                || current.contains(where: { entry.describes(column: $0.column, joinTable: $0.joinTable) })
            {
                writes.append((sql.delete, key))
            } else if entry.mapped {
                entry.mapped = false
                writes.append((sql.update, Array(entry.values.dropFirst(2)) + key))
            }
        }
        guard !writes.isEmpty else { return 0 }
        if !exists {
            try connection.execute(sql.createTable)
            exists = true
        }
        for write in writes { try connection.execute(write.sql, write.arguments) }
        return writes.count
    }
}
