import DBBCore
import DBBFormat
import DBBSQLite
import Foundation

/// Everything DBBBuilder knows about one table-object class: its table, its properties in
/// column order, and the SQL it runs, built once when the class is registered.
final class TableMapping: Sendable {
    let objectType: DBBTableObject.Type
    let tableName: String
    /// Column properties, sorted by property name: the column order of every statement.
    let columns: [ColumnProperty]
    let joins: [JoinProperty]
    /// The value getters of ``columns``, in order: what a save reads, without copying the properties.
    let values: ColumnGetters
    let indexers: [DBBIndexer]
    let statements: MappingStatements
    /// The SQL spelling of the manager's backend, which every statement of the class uses.
    let dialect: any DBBDialect
    /// Whether fetches and saves read and write the columns with the class's generated
    /// ``DBBTableObject/readColumns(_:)`` and ``DBBTableObject/writeColumns(_:)``.
    let generatedColumns: Bool
    /// The bit of ``DBBTableObject/assignedMarks`` that `@DBBTable`'s setter of each column
    /// and join property sets (its position in the generated mapping), 0 for a property mapped
    /// by hand (whose setting cannot be seen).
    let columnMarks: [UInt64]
    let joinMarks: [UInt64]
    private let columnIndex: [String: Int]
    private let joinIndex: [String: Int]
    /// The mapped properties' names by key path, for typed conditions (``DBBCondition``).
    private let namesByKeyPath: [PropertyKeyPath: String]
    /// UPDATE statements by the set of columns they write (bit `i`: column `i`).
    private let updates = Locked<[UInt64: String]>([:])

    /// - Parameters:
    ///   - prototype: an object of `objectType`, to find the storage of its properties.
    ///   - storedOffsets: whether properties that are plain stored storage are read and written
    ///     at their offsets (``StoredProperty``); `false` keeps every access on key paths.
    ///   - generatedOrder: the properties `@DBBTable`'s accessors read and write, in order
    ///     (``DBBGeneratedMapping/order``); they are used when they cover exactly the mapping's columns.
    init(
        objectType: DBBTableObject.Type, prototype: DBBTableObject, properties: [String: DBBPropertyPersistence],
        indexers: [DBBIndexer], attributes: [String: ColumnAttributes], dialect: any DBBDialect,
        storedOffsets: Bool, generatedOrder: [String]? = nil
    ) throws(DBBError) {
        self.objectType = objectType
        self.dialect = dialect
        let tableName = objectType.databaseTableName
        self.tableName = tableName
        self.indexers = indexers

        var columns: [ColumnProperty] = []
        var joins: [JoinProperty] = []
        var owners: [String: String] = [:]  // lowercased column name → property
        for reserved in DBBFormat.reservedColumns {
            owners[reserved.lowercased()] = reserved
        }
        let names = properties.keys.sorted()
        let generated =
            generatedOrder.map { order in
                order.filter { name in
                    properties[name].map { if case .column = $0.access { true } else { false } } ?? false
                }
                    == names.filter { name in if case .column = properties[name]!.access { true } else { false } }
            } ?? false
        for name in names {
            let persistence = properties[name]!
            let column = persistence.columnName.isEmpty ? name : persistence.columnName
            if ["id", "idnum", "createdtime", "modifiedtime"].contains(name.lowercased()) {
                throw DBBError(
                    .invalidMapping, table: tableName, property: name,
                    "'\(name)' is managed by DBBTableObject and cannot be mapped")
            }
            if let owner = owners[column.lowercased()] {
                throw DBBError(
                    .invalidMapping, table: tableName, property: name,
                    "column '\(column)' is already used by '\(owner)'")
            }
            owners[column.lowercased()] = name
            switch persistence.access {
            case .column(let access):
                let direct = storedOffsets && !generated ? access.direct(prototype) : nil
                columns.append(
                    ColumnProperty(
                        name: name, column: column, storageType: persistence.storageType,
                        access: direct ?? access, throughStorage: direct != nil,
                        valueTypeName: persistence.valueTypeName, attributes: attributes[name] ?? [],
                        defaultValue: access.value(prototype), canHoldNil: persistence.canHoldNil,
                        integerBounds: persistence.integerBounds))
            case .join(let access):
                let direct = storedOffsets ? access.direct(prototype) : nil
                joins.append(
                    JoinProperty(
                        name: name, column: column, storageType: persistence.storageType, access: direct ?? access,
                        throughStorage: direct != nil,
                        valueTypeName: persistence.valueTypeName,
                        joinTable: DBBFormat.joinTable(tableName, column: column),
                        parentColumn: DBBFormat.ownerColumn(tableName),
                        indexName: DBBFormat.joinIndex(tableName, property: name)))
            }
        }
        self.columns = columns
        self.joins = joins
        let positions = Dictionary((generatedOrder ?? []).enumerated().map { ($1, $0) }) { first, _ in first }
        let mark = { (name: String) -> UInt64 in
            positions[name].map { $0 < 64 ? 1 &<< UInt64($0) : 0 } ?? 0
        }
        columnMarks = columns.map { mark($0.name) }
        joinMarks = joins.map { mark($0.name) }
        values = ColumnGetters(columns, generated: generated ? prototype : nil)
        generatedColumns = values.generated
        namesByKeyPath = Dictionary(properties.map { ($1.keyPath, $0) }) { first, _ in first }
        columnIndex = Dictionary(uniqueKeysWithValues: columns.enumerated().map { ($1.name, $0) })
        joinIndex = Dictionary(uniqueKeysWithValues: joins.enumerated().map { ($1.name, $0) })

        for name in attributes.keys.sorted() where columnIndex[name] == nil {
            throw DBBError(
                .unknownProperty, table: tableName, property: name,
                "attributesDictionary names '\(name)', which is not a mapped column property")
        }
        for name in attributes.keys.sorted() where attributes[name]!.contains(.unrecognized) {
            throw DBBError(
                .invalidMapping, table: tableName, property: name,
                "attributesDictionary gives '\(name)' text other than NOT NULL and UNIQUE, the only attributes supported"
            )
        }
        for indexer in indexers {
            for name in indexer.columns where columnIndex[name] == nil {
                throw DBBError(
                    .unknownProperty, table: tableName, property: name,
                    "DBBIndexer names '\(name)', which is not a mapped column property")
            }
        }
        statements = MappingStatements(table: tableName, columns: columns, dialect: dialect)
    }

    deinit { values.free() }

    /// Gives a fetched or saved object its snapshot.
    @inline(__always)
    func setSnapshot(_ snapshot: ObjectSnapshot, of object: DBBTableObject) {
        object.snapshot = snapshot
    }

    /// The library's own time column `index` (no check: the library writes it).
    @inline(__always)
    static func keyDate(_ row: DBBColumnReader, _ index: Int) -> Date? {
        // One C call for a time; the storage class is asked only for 0, as NULL reads.
        let value = row.double(at: index)
        return value != 0 || row.type(at: index) != .null ? Date(timeIntervalSinceReferenceDate: value) : nil
    }

    /// Writes `id`, `createdTime` and `modifiedTime` of a fetched object.
    @inline(__always)
    static func readKeys(_ row: DBBColumnReader, into object: DBBTableObject) {
        let rowID = row.int64(at: 0)
        object.id = rowID
        object.loadedFromRowZero = rowID == 0
        object.createdTime = keyDate(row, 1)
        object.modifiedTime = keyDate(row, 2)
    }

    /// `UPDATE … SET modifiedTime = ?, <changed columns> = ? … WHERE id = ?`, for the columns
    /// at the indices `changed` (ascending).
    func updateSQL(_ changed: [Int]) -> String {
        guard columns.count <= 64 else { return statements.update(columns, changed) }
        let key = changed.reduce(UInt64(0)) { $0 | (1 << UInt64($1)) }
        if let sql = updates.withLock({ $0[key] }) { return sql }
        let sql = statements.update(columns, changed)
        updates.withLock { $0[key] = sql }
        return sql
    }

    /// The name of the mapped property `keyPath` reaches, or `nil`.
    func propertyName(for keyPath: AnyKeyPath) -> String? { namesByKeyPath[PropertyKeyPath(keyPath)] }

    func column(named property: String) -> ColumnProperty? {
        columnIndex[property].map { columns[$0] }
    }

    func join(named property: String) -> JoinProperty? {
        joinIndex[property].map { joins[$0] }
    }
}
