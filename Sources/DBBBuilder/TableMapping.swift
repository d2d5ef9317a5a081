import DBBFormat
import DBBSQLite
import Foundation
import Synchronization

/// A property stored in a column of the object's table.
struct ColumnProperty: Sendable {
    let name: String
    let column: String
    let storageType: DBBStorageType
    let access: ColumnAccess
    /// Whether ``access`` goes through the property's storage offset (see ``StoredProperty``).
    let throughStorage: Bool
    /// The property's Swift type, for messages.
    let valueTypeName: String
    /// `NOT NULL`, `UNIQUE`, or both, from the class's `attributesDictionary`.
    let attributes: ColumnAttributes
    /// The value a new object has, as stored: what rows already in the table get when the
    /// column is added as `NOT NULL`.
    let defaultValue: DBBValue
    /// Whether the property is an `Optional`, which saves `nil` as `NULL`.
    let canHoldNil: Bool

    var isNotNull: Bool { attributes.contains(.notNull) }
    var isUnique: Bool { attributes.contains(.unique) }
}

/// A property stored in the join table `<Table>_<column>`.
struct JoinProperty: Sendable {
    let name: String
    let column: String
    let storageType: DBBStorageType
    let access: JoinAccess
    /// Whether ``access`` goes through the property's storage offset (see ``StoredProperty``).
    let throughStorage: Bool
    /// The property's Swift type, for messages.
    let valueTypeName: String
    let joinTable: String
    /// `<Table>_ID`, the column holding the owner's id.
    let parentColumn: String
    /// `<Table>_<property>_idx`, on `parentColumn`.
    let indexName: String

    /// Whether the property refers to one object (`Person?`): at most one join row.
    var isReference: Bool {
        if case .dbbObject = storageType { true } else { false }
    }
}

/// The value getters of a mapping's columns. `@unchecked Sendable` as ``ColumnAccess``.
struct ColumnGetters: @unchecked Sendable {
    let list: [ColumnGetter]
    /// Whether the values come from the class's ``DBBTableObject/writeColumns(_:)``.
    let generated: Bool
    /// Every column's ``StoredSlot`` when every column has one (the usual class): a save reads
    /// its row by a switch per column, with no closure context retained and released per
    /// value. Allocated once; the mapping frees it (``free()``).
    private let slots: UnsafeMutableBufferPointer<StoredSlot>?

    /// The getters of `columns`; through ``DBBTableObject/writeColumns(_:)`` when `generated`
    /// (an object of the class) gives each column's value, in order.
    init(_ columns: [ColumnProperty], generated prototype: DBBTableObject?) {
        list = columns.map { ColumnGetter($0.access) }
        generated = prototype.map { Self.writesEachColumn($0, columns.count) } ?? false
        if generated {
            slots = nil
            return
        }
        let all = list.compactMap(\.slot)
        if !all.isEmpty && all.count == list.count {
            let slots = UnsafeMutableBufferPointer<StoredSlot>.allocate(capacity: all.count)
            _ = slots.initialize(from: all)
            self.slots = slots
        } else {
            slots = nil
        }
    }

    func free() { slots?.deallocate() }

    /// Appends the value of each of `object`'s columns, as stored, to `values`.
    @inline(__always)
    func append(_ object: DBBTableObject, to values: SavedValues) {
        if generated {
            values.appendColumns(of: object, width: list.count)
        } else {
            forEachValue(of: object) { _, value in values.append(value) }
        }
    }

    /// Whether `prototype`'s ``DBBTableObject/writeColumns(_:)`` gives `width` values.
    private static func writesEachColumn(_ prototype: DBBTableObject, _ width: Int) -> Bool {
        withUnsafeTemporaryAllocation(of: SQLiteValue.self, capacity: width + 1) { buffer in
            var row = DBBRowEncoder(into: buffer.baseAddress!, width: width + 1)
            prototype.writeColumns(&row)
            buffer.baseAddress!.deinitialize(count: row.count)
            return row.count == width
        }
    }

    /// Calls `body` with each column's index and the value of `object`'s property, as stored.
    @inline(__always)
    func forEachValue(of object: DBBTableObject, _ body: (Int, DBBValue) throws -> Void) rethrows {
        if generated {
            let width = list.count
            try withUnsafeTemporaryAllocation(of: SQLiteValue.self, capacity: width) { buffer in
                let values = buffer.baseAddress!
                var row = DBBRowEncoder(into: values, width: width)
                object.writeColumns(&row)
                let count = row.count
                defer { values.deinitialize(count: count) }
                precondition(count == width, "\(type(of: object)).writeColumns(_:) wrote \(count) of \(width) columns")
                for index in 0..<width { try body(index, values[index]) }
            }
        } else if let slots {
            try withExtendedLifetime(object) {
                for index in slots.indices { try body(index, slots[index].value(of: object)) }
            }
        } else {
            try list.withUnsafeBufferPointer { list in
                for index in list.indices { try body(index, list[index](object)) }
            }
        }
    }
}

/// Gets one column's value from an object: through its ``StoredSlot`` when it has one (a
/// switch on the type), otherwise through the property's closure.
struct ColumnGetter {
    let slot: StoredSlot?
    let closure: ColumnAccess.Getter

    init(_ access: ColumnAccess) {
        (slot, closure) = (access.slot, access.value)
    }

    @inline(__always)
    func callAsFunction(_ object: DBBTableObject) -> DBBValue {
        if let slot { return withExtendedLifetime(object) { slot.value(of: object) } }
        return closure(object)
    }
}

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
    let dialect: DBBDialect
    /// Whether fetches and saves read and write the columns with the class's generated
    /// ``DBBTableObject/readColumns(_:)`` and ``DBBTableObject/writeColumns(_:)``.
    let generatedColumns: Bool
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
        indexers: [DBBIndexer], attributes: [String: ColumnAttributes], dialect: DBBDialect,
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
                        defaultValue: access.value(prototype), canHoldNil: persistence.canHoldNil))
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

/// Builds and caches the mapping of each class a manager handles.
///
/// A class is mapped by creating one prototype with `init(dbManager:)` while its mapping is
/// being recorded: every `addPersistenceMapping(_:for:indexer:)` call in the init chain
/// (Animal → Mammal → Pet) merges into the runtime class's mapping. Afterwards those calls
/// return at once, without evaluating their arguments.
final class MappingRegistry: Sendable {
    private struct Recording {
        var properties: [String: DBBPropertyPersistence] = [:]
        var indexers: [DBBIndexer] = []
        var calls = 0
    }

    private struct State {
        var mappings: [ObjectIdentifier: TableMapping] = [:]
        var recordings: [ObjectIdentifier: Recording] = [:]
    }

    private let state = Locked(State())
    /// How many classes are being recorded: while 0, `record` returns without locking.
    private let activeRecordings = Atomic<Int>(0)
    /// Held while a prototype is made, so one thread records a class at a time; recursive
    /// because a prototype's init may need another class's mapping.
    private let registration = RecursiveLock()

    /// The mapping of `type`, building it on first use.
    func mapping(for type: DBBTableObject.Type, manager: DBBManager) throws(DBBError) -> TableMapping {
        let key = ObjectIdentifier(type)
        if let mapping = state.withLock({ $0.mappings[key] }) { return mapping }
        return try registration.withLock { () throws(DBBError) -> TableMapping in
            if let mapping = state.withLock({ $0.mappings[key] }) { return mapping }
            return try build(type, key: key, manager: manager)
        }
    }

    private func build(_ type: DBBTableObject.Type, key: ObjectIdentifier, manager: DBBManager) throws(DBBError)
        -> TableMapping
    {
        state.withLock { $0.recordings[key] = Recording() }
        activeRecordings.add(1, ordering: .sequentiallyConsistent)
        defer { activeRecordings.subtract(1, ordering: .sequentiallyConsistent) }
        let prototype = type.init(dbManager: manager)
        let recording = state.withLock { $0.recordings.removeValue(forKey: key) } ?? Recording()
        let tableName = type.databaseTableName
        let generated = type.generatedMapping
        guard recording.calls > 0 || generated != nil else {
            throw DBBError(
                .invalidMapping, table: tableName,
                "\(type).init(dbManager:) does not call dbManager.addPersistenceMapping(_:for:indexer:), "
                    + "and the class is not marked @DBBTable")
        }
        // A generated mapping merges with what the init chain maps by hand (a superclass's
        // properties, a property the class maps itself), as the init chain's calls merge.
        let properties = (generated?.properties ?? [:]).merging(recording.properties) { _, recorded in recorded }
        let indexers = (generated?.indexers ?? []).reduce(into: recording.indexers) { indexers, indexer in
            if !indexer.columns.isEmpty, !indexers.contains(indexer) { indexers.append(indexer) }
        }
        let attributes = (generated?.attributes ?? [:]).merging(prototype.attributesDictionary ?? [:]) { $1 }
        let mapping = try TableMapping(
            objectType: type, prototype: prototype, properties: properties,
            indexers: indexers, attributes: attributes,
            dialect: manager.access.dialect,
            storedOffsets: manager.storedOffsetAccess, generatedOrder: generated?.order)
        return try state.withLock { state throws(DBBError) in
            if let existing = state.mappings[key] { return existing }
            if let other = state.mappings.values.first(where: {
                $0.tableName.lowercased() == mapping.tableName.lowercased()
            }) {
                throw DBBError(
                    .invalidMapping, table: mapping.tableName,
                    "\(String(reflecting: type)) and \(String(reflecting: other.objectType)) would share the table "
                        + "'\(mapping.tableName)'; override `class var databaseTableName` in one of them")
            }
            state.mappings[key] = mapping
            return mapping
        }
    }

    /// The join properties of every mapped class that refer to objects of `type`.
    func references(to type: DBBTableObject.Type) -> [JoinProperty] {
        state.withLock { state in
            state.mappings.values.flatMap { mapping in
                mapping.joins.filter { $0.access.relation.map { $0.targetType == type } ?? false }
            }
        }
    }

    /// Whether `type` is mapped already.
    func isMapped(_ type: DBBTableObject.Type) -> Bool {
        state.withLock { $0.mappings[ObjectIdentifier(type)] != nil }
    }

    /// Merges one `addPersistenceMapping` call into the recording of `type`, if one is going on.
    func record(
        _ type: DBBTableObject.Type, properties: () -> [String: DBBPropertyPersistence], indexer: () -> DBBIndexer?
    ) {
        guard activeRecordings.load(ordering: .sequentiallyConsistent) > 0 else { return }
        let key = ObjectIdentifier(type)
        guard state.withLock({ $0.recordings[key] != nil }) else { return }
        let properties = properties()
        let indexer = indexer()
        state.withLock { state in
            guard var recording = state.recordings[key] else { return }
            recording.properties.merge(properties) { _, new in new }
            if let indexer, !indexer.columns.isEmpty, !recording.indexers.contains(indexer) {
                recording.indexers.append(indexer)
            }
            recording.calls += 1
            state.recordings[key] = recording
        }
    }
}
