import DBBSQLite
import Foundation

/// Writes one object's rows a statement at a time: SQLite's way, where a prepared statement
/// bound again costs no round trip (and every backend's for what a set-based save does not
/// hold: a conditional UPDATE, a hook's save of an object written before). Values are checked
/// before they are bound: an error names the table and property.
final class RowWriter {
    private let connection: any DatabaseConnection
    private let now: Date
    /// The values the session wrote (see ``SaveJournal/values``).
    private let values: SavedValues
    /// The connection's dialect, and whether it refuses some values SQLite stores
    /// (``DBBDialect/refusal(of:)``): a flag, so that the check of each value reads a `Bool`
    /// instead of copying an existential.
    private let dialect: any DBBDialect
    private let refusesValues: Bool
    /// The UPDATE last run, for the mapping and the columns it was made for: a batch updating
    /// the same columns of many objects binds its prepared statement again, without the
    /// mapping's lock and dictionary or the connection's statement cache. Every parameter is
    /// bound for each row, so a hook's save that ran the statement in between changes nothing.
    // Used by one thread, under the writer lock (see SaveSession).
    @exclusivity(unchecked) private var update: (any DatabaseStatement)?
    @exclusivity(unchecked) private var updateMapping: ObjectIdentifier?
    @exclusivity(unchecked) private var updateColumns: [Int] = []
    /// The INSERT last run and its mapping, as ``update``: a batch of new objects of one class
    /// binds it again without looking it up per row.
    @exclusivity(unchecked) private var insert: (any DatabaseStatement)?
    @exclusivity(unchecked) private var insertMapping: ObjectIdentifier?

    init(connection: any DatabaseConnection, now: Date, values: SavedValues) {
        self.connection = connection
        self.now = now
        self.values = values
        dialect = connection.dialect
        refusesValues = dialect.refusesValues
    }

    func insertRow(_ object: DBBTableObject, _ mapping: TableMapping, from start: Int) throws {
        let created = object.createdTime ?? now
        let insert = try insertStatement(mapping)
        try insert.bind(.real(created.timeIntervalSinceReferenceDate), at: 1)
        try insert.bind(.real(now.timeIntervalSinceReferenceDate), at: 2)
        let row = UnsafeBufferPointer(start: values.base + start, count: mapping.columns.count)
        for index in row.indices { try checkStorable(row.baseAddress! + index, index, of: mapping) }
        try insert.bind(contentsOf: row, from: 3)
        try insert.execute()
        let rowID = connection.lastInsertedRowID
        guard rowID != 0 else {
            throw DBBError(
                .invalidValue, table: mapping.tableName, rowID: 0,
                "the database gave the new row id 0, which stands for \"not saved yet\": restart the table's "
                    + "id sequence above 0 (the save was rolled back)")
        }
        object.id = rowID
        object.createdTime = created
        object.modifiedTime = now
    }

    /// UPDATEs the changed columns and `modifiedTime`; when `expected` is given, only a row
    /// whose stored `modifiedTime` is that time.
    /// - Throws: ``DBBError/Kind/rowNotFound`` when the row is gone, ``DBBError/Kind/rowChanged``
    ///   when its `modifiedTime` is not `expected`.
    func updateRow(
        _ object: DBBTableObject, _ mapping: TableMapping, from start: Int, _ changed: [Int], expected: Date?
    ) throws {
        let update =
            try expected == nil
            ? updateStatement(mapping, changed)
            : connection.statement(
                mapping.statements.update(mapping.columns, changed, conditional: true), clearing: false)
        try update.bind(.real(now.timeIntervalSinceReferenceDate), at: 1)
        for (position, index) in changed.enumerated() {
            try bindColumn(index, of: mapping, from: start, to: update, at: position + 2)
        }
        try update.bind(.integer(object.id), at: changed.count + 2)
        if let expected { try update.bind(.real(expected.timeIntervalSinceReferenceDate), at: changed.count + 3) }
        try update.execute()
        if connection.changes == 0, let expected {
            throw try Persistence.missedRow(object.id, expected: expected, mapping, on: connection)
        }
        guard connection.changes > 0 else { throw Persistence.rowGone(object.id, mapping) }
        object.modifiedTime = now
    }

    private func insertStatement(_ mapping: TableMapping) throws -> any DatabaseStatement {
        if let insert, insertMapping == ObjectIdentifier(mapping) { return insert }
        let statement = try connection.statement(mapping.statements.insert, clearing: false)
        (insert, insertMapping) = (statement, ObjectIdentifier(mapping))
        return statement
    }

    private func updateStatement(_ mapping: TableMapping, _ changed: [Int]) throws -> any DatabaseStatement {
        if let update, updateMapping == ObjectIdentifier(mapping), updateColumns == changed {
            return update
        }
        let statement = try connection.statement(mapping.updateSQL(changed), clearing: false)
        // A copy of its own: sharing the session's array would make the next object's reuse of it copy.
        (update, updateMapping, updateColumns) = (statement, ObjectIdentifier(mapping), changed.map { $0 })
        return statement
    }

    /// Why `value` cannot be stored in a column of `type`, or `nil`: `NaN`, in an integer
    /// column the REAL standing in for an unsigned integer above `Int64.max` (see
    /// ``DBBWideUnsignedColumnValue``), in a decimal or JSON column the REAL standing in for
    /// `Decimal.nan` or a value that did not encode (see ``unstorableStandIn``), or what the
    /// backend refuses.
    func unstorable(_ value: DBBValue, in type: DBBStorageType) -> DBBError? {
        Self.unstorable(value, in: type, dialect, refusesValues: refusesValues)
    }

    /// ``unstorable(_:in:)`` on a connection of `dialect` (whose ``DBBDialect/refusesValues``
    /// is `refusesValues`): the rule of every write, a set-based `UPDATE` included.
    static func unstorable(
        _ value: DBBValue, in type: DBBStorageType, _ dialect: any DBBDialect, refusesValues: Bool
    ) -> DBBError? {
        if refusesValues, let refusal = dialect.refusal(of: value) { return refusal }
        guard case .real(let number) = value else { return nil }
        switch type {
        case .decimal, .decimalArray:
            return DBBError(
                .invalidValue,
                "Decimal.nan cannot be stored: NaN is refused on every backend (SQLite's text of a decimal has "
                    + "none that compares, PostgreSQL's numeric would sort it above every number)")
        case .json:
            return DBBError(
                .invalidValue,
                "the value could not be encoded as JSON (its encode(to:) threw, or it holds a Float or Double "
                    + "JSONEncoder refuses), or its JSON holds a NUL character (\\u0000 in a string), which "
                    + "PostgreSQL's jsonb refuses and so every backend does: nothing was stored")
        case .int, .intArray: return number.isNaN ? DBBBuilder.unstorable(number) : DBBBuilder.unstorable(integer: nil)
        default: return number.isNaN ? DBBBuilder.unstorable(number) : nil
        }
    }

    private func bindColumn(
        _ index: Int, of mapping: TableMapping, from start: Int, to statement: any DatabaseStatement, at parameter: Int
    ) throws {
        try checkStorable(values.base + start + index, index, of: mapping)
        try statement.bind(values.base[start + index], at: parameter)
    }

    /// Throws the error of a value of column `index` that cannot be stored (see
    /// ``unstorable(_:in:)``), naming the property; reads the value where it lies: a REAL is
    /// all that SQLite can refuse, and other values are not copied.
    @inline(__always)
    private func checkStorable(_ value: UnsafePointer<DBBValue>, _ index: Int, of mapping: TableMapping) throws {
        if !refusesValues {
            guard case .real = value.pointee else { return }
        }
        if let error = unstorable(value.pointee, in: mapping.columns[index].storageType) {
            throw error.about(table: mapping.tableName, property: mapping.columns[index].name)
        }
    }

    /// Writes the join rows of one property: deletes the old ones when `replacing`.
    func writeJoinRows(
        _ rows: [DBBValue], of object: DBBTableObject, _ join: JoinProperty, _ mapping: TableMapping,
        replacing: Bool
    ) throws {
        if replacing {
            let delete = try connection.statement(JoinSQL(dialect: connection.dialect).deleteRows(join))
            try delete.bind(.integer(object.id), at: 1)
            try delete.execute()
        }
        guard !rows.isEmpty else { return }
        let insert = try connection.statement(JoinSQL(dialect: connection.dialect).insertRow(join))
        try insert.bind(.integer(object.id), at: 1)
        for (position, value) in rows.enumerated() {
            if let error = unstorable(value, in: join.storageType) {
                throw error.about(table: mapping.tableName, property: "\(join.name)[\(position)]")
            }
            try insert.bind(value, at: 2)
            try insert.execute()
        }
    }
}
