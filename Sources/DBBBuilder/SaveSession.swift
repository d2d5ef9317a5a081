import DBBSQLite
import Foundation

/// One save: objects and the objects they refer to, in one transaction.
///
/// - Only what changed is written: a new object is inserted; an existing one is updated in the
///   columns that differ from its snapshot (``ObjectSnapshot``), its join rows rewritten only
///   for the properties that differ; an unchanged object is not written at all. Related
///   objects are followed through unchanged ones, so a changed object anywhere in the graph is
///   saved, and an untouched copy never overwrites a newer row.
/// - An UPDATE that finds no row is ``DBBError/Kind/rowNotFound``, never an insert.
/// - Every object saved or referred to must belong to the session's manager.
/// - Each object's row is written before its relations are followed, so cycles (a spouse's
///   spouse) end: an object met again already has its id.
/// - Saves made from a save hook join the session (see ``nested(_:)``).
final class SaveSession {
    private let connection: any DatabaseConnection
    private let manager: DBBManager
    private let now = Date()
    // The session is used by one thread, under the writer lock: its collections skip the
    // run-time exclusivity checks that would otherwise run on every append.
    /// The objects visited, and those whose rows are known to exist in this transaction
    /// (written by it, or looked up).
    @exclusivity(unchecked) private var marks = SaveMarks()

    /// An object's state before the session wrote it, to put back if the transaction rolls back.
    /// Its snapshot is not kept: only ``committed()`` replaces it, once nothing can roll back.
    ///
    /// The object is not retained here (nor in ``NewSnapshot``): every object the session
    /// writes is in ``hooked`` first, which keeps it alive, and entries leave both lists
    /// together (a nested save rolled back) or with the session. A retain and a release per
    /// entry were a tenth of an update's time.
    private struct Written {
        unowned(unsafe) let object: DBBTableObject
        let id: Int64
        let created: Date?
        let modified: Date?
        let forcedDirty: Bool
        /// Where the row the session wrote for it starts in ``values``.
        let start: Int
    }

    @exclusivity(unchecked) private var written: [Written] = []
    /// How many hook saves (``nested(_:)``) are running inside the session's own.
    @exclusivity(unchecked) private var nesting = 0
    /// What ``rewrite(_:_:from:)`` replaced — a value of ``values``, a join property's values of
    /// a new snapshot — to put back when the savepoint it ran in rolls back.
    @exclusivity(unchecked) private var replaced: [(position: Int, value: SQLiteValue)] = []
    @exclusivity(unchecked) private var replacedJoins: [(entry: Int, join: Int, values: [SQLiteValue])] = []
    /// The objects a hook deleted inside the session, marked ``DBBTableObject/isDeleted``: the
    /// marks come off again if the transaction (or the hook's savepoint) rolls back.
    @exclusivity(unchecked) private var deleted: [DBBTableObject] = []
    /// The column values written, every object's row after the other's: the snapshots the
    /// objects get when the transaction commits.
    private let values = SavedValues()
    /// A written object's snapshot to be: its row at `start` of ``values`` and its join rows.
    /// Neither reference is retained: the object is kept by ``hooked`` (see ``Written``), the
    /// mapping by the manager.
    private struct NewSnapshot {
        let object: Unmanaged<DBBTableObject>
        let mapping: Unmanaged<TableMapping>
        let start: Int
        var joins: [[SQLiteValue]]
    }

    @exclusivity(unchecked) private var newSnapshots: [NewSnapshot] = []
    /// The indices of the changed columns of the object being written: one array for the
    /// session, emptied for each object.
    @exclusivity(unchecked) private var changedColumns: [Int] = []
    /// The UPDATE last run, for the mapping and the columns it was made for: a batch updating
    /// the same columns of many objects binds its prepared statement again, without the
    /// mapping's lock and dictionary or the connection's statement cache. Every parameter is
    /// bound for each row, so a hook's save that ran the statement in between changes nothing.
    @exclusivity(unchecked) private var update: (any DatabaseStatement)?
    @exclusivity(unchecked) private var updateMapping: Unmanaged<TableMapping>?
    @exclusivity(unchecked) private var updateColumns: [Int] = []
    /// The object whose UPDATE is conditional on its row's stored `modifiedTime`
    /// (``DBBTableObject/save(ifModifiedTimeIs:)-jirm``, which marks it dirty so that its row is
    /// written, and the condition tested, even when nothing changed), and that time.
    @exclusivity(unchecked) var precondition: (object: ObjectIdentifier, modifiedTime: Date)?
    /// The objects whose pre-save hooks ran, in order: their post-save hooks run after the commit.
    @exclusivity(unchecked) private(set) var hooked: [DBBTableObject] = []

    /// The connection's dialect when it refuses some values SQLite stores (``DBBDialect/refusal(of:)``).
    private let refusing: DBBDialect?

    init(connection: any DatabaseConnection, manager: DBBManager) {
        self.connection = connection
        self.manager = manager
        refusing = connection.dialect.refusesNULInText ? connection.dialect : nil
    }

    /// Saves `objects`, all of `mapping`'s class, and what they refer to.
    func save(_ objects: [DBBTableObject], _ mapping: TableMapping) throws {
        values.reserve(objects.count * mapping.columns.count)
        newSnapshots.reserveCapacity(newSnapshots.count + objects.count)
        written.reserveCapacity(written.count + objects.count)
        hooked.reserveCapacity(hooked.count + objects.count)
        for object in objects { try save(object, mapping, explicit: true) }
    }

    /// Runs a save made from inside this session (a save hook that saves) in a savepoint:
    /// when it fails, what it wrote is undone and its objects are put back, and the outer
    /// save goes on (or fails, as the hook decides).
    func nested(_ body: () throws -> Void) throws {
        let mark = (
            written: written.count, values: values.count, snapshots: newSnapshots.count, hooked: hooked.count,
            deleted: deleted.count, replaced: replaced.count, replacedJoins: replacedJoins.count
        )
        let start = marks.beginNested()
        nesting += 1
        defer { nesting -= 1 }
        do {
            try connection.savepoint(body)
        } catch {
            restore(from: mark.written)
            undoDeletions(from: mark.deleted)
            for entry in replaced[mark.replaced...].reversed() { values.base[entry.position] = entry.value }
            replaced.removeSubrange(mark.replaced...)
            for entry in replacedJoins[mark.replacedJoins...].reversed() {
                newSnapshots[entry.entry].joins[entry.join] = entry.values
            }
            replacedJoins.removeSubrange(mark.replacedJoins...)
            values.removeAll(from: mark.values)
            newSnapshots.removeSubrange(mark.snapshots...)
            hooked.removeSubrange(mark.hooked...)
            marks.abandon(since: start)
            throw error
        }
    }

    /// Puts every written object back as it was before the session (the transaction rolled back).
    func restore() {
        restore(from: 0)
        undoDeletions(from: 0)
    }

    /// Marks `objects`, whose rows a hook deleted inside the session, as deleted.
    func noteDeleted(_ objects: [DBBTableObject]) {
        for object in objects where !object.isDeleted {
            object.isDeleted = true
            deleted.append(object)
        }
    }

    private func undoDeletions(from first: Int) {
        for object in deleted[first...] { object.isDeleted = false }
        deleted.removeSubrange(first...)
    }

    private func restore(from first: Int) {
        for entry in written[first...].reversed() {
            let object = entry.object
            (object.id, object.createdTime, object.modifiedTime) = (entry.id, entry.created, entry.modified)
            object.forcedDirty = entry.forcedDirty
        }
        written.removeSubrange(first...)
    }

    /// Gives every written object its new snapshot: call once the transaction committed.
    func committed() {
        let storage = values.takeStorage()
        // Through the buffer and unretained references: a loop over the array copies each
        // entry, and a reference loaded into a variable is retained and released.
        newSnapshots.withUnsafeBufferPointer { entries in
            for index in entries.indices {
                let entry = entries.baseAddress! + index
                entry.pointee.object._withUnsafeGuaranteedRef { object in
                    entry.pointee.mapping._withUnsafeGuaranteedRef { mapping in
                        mapping.setSnapshot(
                            ObjectSnapshot(storage: storage, start: entry.pointee.start, joins: entry.pointee.joins),
                            of: object)
                    }
                    if object.forcedDirty { object.forcedDirty = false }
                }
            }
        }
    }

    // MARK: - One object

    private func save(_ object: DBBTableObject, _ mapping: TableMapping, explicit: Bool) throws {
        // Ownership is checked before: of the caller's objects by `batchClass`, of related
        // objects by `saveRelated`.
        guard !marks.holds(object.visitMark) else {
            // A batch naming an object twice saves it once; a hook's save() of it writes its changes.
            if explicit && nesting > 0 { try saveAgain(object, mapping) }
            return
        }
        object.visitMark = marks.current
        try visit(object, mapping, explicit: explicit)
    }

    /// A `save()` of an object this session met before, called from a hook: writes what
    /// changed since. When its row was written, the changed columns and join properties are
    /// written again; while its own save is still under way further up (its hooks, or the
    /// related objects of an object with nothing to write), that save goes on and the change
    /// stays to write if it comes too late for it; when it was met and needed no write, it is
    /// saved now.
    private func saveAgain(_ object: DBBTableObject, _ mapping: TableMapping) throws {
        if let entry = written.last(where: { $0.object === object }) {
            try rewrite(object, mapping, from: entry.start)
        } else if !object.isBeingSaved {
            if hooked.contains(where: { $0 === object }) {
                try write(object, mapping)
            } else {
                try visit(object, mapping, explicit: true)
            }
        }
    }

    private func visit(_ object: DBBTableObject, _ mapping: TableMapping, explicit: Bool) throws {
        guard !object.isDeleted else {
            throw DBBError(
                .rowNotFound, table: mapping.tableName, rowID: object.id,
                "row \(object.id) was deleted through this object, which is not saved again (nor "
                    + "referred to): copy its values into a new object to store them anew")
        }
        // A related object is saved only when it is new or changed; the objects the caller
        // named run their hooks whether or not anything changed.
        object.isBeingSaved = true
        defer { object.isBeingSaved = false }
        guard explicit || object.needsWrite(mapping) else {
            return try saveRelated(of: object, mapping)
        }
        try object.willSave()
        object.performPreSaveActions()
        hooked.append(object)
        try write(object, mapping)
    }

    /// Writes `object` when it is new or changed (its hooks have run), then what it refers to
    /// and its join rows.
    private func write(_ object: DBBTableObject, _ mapping: TableMapping) throws {
        let isNew = object.isNew
        let start = values.count
        mapping.values.forEachValue(of: object) { _, value in values.append(value) }
        changedColumns.removeAll(keepingCapacity: true)
        if !isNew {
            object.appendDifferingColumns(mapping.columns.count, current: values.base + start, to: &changedColumns)
        }
        let changedJoins = isNew ? [] : object.changedJoins(mapping)
        guard isNew || object.forcedDirty || !changedColumns.isEmpty || !changedJoins.isEmpty else {
            values.removeAll(from: start)
            return try saveRelated(of: object, mapping)
        }

        written.append(
            Written(
                object: object, id: object.id, created: object.createdTime, modified: object.modifiedTime,
                forcedDirty: object.forcedDirty, start: start))
        try naming(mapping) {
            if isNew {
                try insertRow(object, mapping, from: start)
            } else {
                try updateRow(object, mapping, from: start, changedColumns)
            }
        }
        confirm(object)
        try saveRelated(of: object, mapping)
        // A hook of a related object may have deleted this one: its row is gone, and join
        // rows written now would point at nothing (PostgreSQL's foreign keys refuse them;
        // SQLite, which does not enforce them, would keep them).
        if object.isDeleted && !mapping.joins.isEmpty {
            throw DBBError(
                .rowNotFound, table: mapping.tableName, rowID: object.id,
                "row \(object.id) was deleted by a save hook while its own save was writing it; "
                    + "the save was rolled back rather than write join rows for a row that is gone")
        }
        var joinValues: [[SQLiteValue]] = []
        // Not for a class without joins: reserving 0 allocates a buffer, which each snapshot keeps.
        if !mapping.joins.isEmpty { joinValues.reserveCapacity(mapping.joins.count) }
        for (index, join) in mapping.joins.enumerated() {
            let current = join.access.values(object)
            // Compared again here: a hook run by the related saves above may have changed it.
            if isNew ? !current.isEmpty : changedJoins.contains(index) || object.joinDiffers(index, current, mapping) {
                if let relation = join.access.relation { try requireRows(of: relation.objects(object), join, mapping) }
                try naming(mapping) { try writeJoinRows(current, of: object, join, mapping, replacing: !isNew) }
            }
            joinValues.append(current)
        }
        newSnapshots.append(
            NewSnapshot(
                object: .passUnretained(object), mapping: .passUnretained(mapping), start: start,
                joins: joinValues))
    }

    /// Writes again what changed in `object` since the session wrote its row (at `start` of
    /// ``values``, which then hold the new values, its snapshot-to-be). Its join properties are
    /// compared when its save is complete; while it is still writing them, that save does.
    private func rewrite(_ object: DBBTableObject, _ mapping: TableMapping, from start: Int) throws {
        var changed: [Int] = []
        mapping.values.forEachValue(of: object) { index, current in
            if !current.isSameStored(as: values.base[start + index]) {
                replaced.append((start + index, values.base[start + index]))
                values.base[start + index] = current
                changed.append(index)
            }
        }
        if !changed.isEmpty { try naming(mapping) { try updateRow(object, mapping, from: start, changed) } }
        guard
            let entry = newSnapshots.lastIndex(where: {
                $0.object.toOpaque() == Unmanaged.passUnretained(object).toOpaque()
            })
        else { return }
        try saveRelated(of: object, mapping)
        for (index, join) in mapping.joins.enumerated() {
            let current = join.access.values(object)
            guard !SQLiteValue.areSameStored(current, newSnapshots[entry].joins[index]) else { continue }
            if let relation = join.access.relation { try requireRows(of: relation.objects(object), join, mapping) }
            try naming(mapping) { try writeJoinRows(current, of: object, join, mapping, replacing: true) }
            replacedJoins.append((entry, index, newSnapshots[entry].joins[index]))
            newSnapshots[entry].joins[index] = current
        }
    }

    /// Runs the SQL of one object's rows, so that an SQLite failure (a constraint) names that
    /// object's table and property — not the class the save started from.
    private func naming(_ mapping: TableMapping, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as any DatabaseFailure {
            throw DBBError.backend(error, table: mapping.tableName, mapping: mapping)
        }
    }

    /// Follows the relations of `object`: every related object must belong to this manager
    /// and be of the declared class; each is saved when new or changed.
    private func saveRelated(of object: DBBTableObject, _ mapping: TableMapping) throws {
        for join in mapping.joins {
            guard let relation = join.access.relation else { continue }
            let related = relation.objects(object)
            guard !related.isEmpty else { continue }
            let targetMapping = try manager.mapping(for: relation.targetType)
            for target in related {
                guard type(of: target) == relation.targetType else {
                    throw DBBError(
                        .invalidOption, table: mapping.tableName, property: join.name,
                        "holds a \(type(of: target)), but references are stored by the declared class \(relation.targetType)"
                    )
                }
                guard target.dbManager === manager else {
                    throw DBBError(
                        .foreignObject, table: mapping.tableName, property: join.name,
                        "refers to a \(targetMapping.tableName) of another manager (\(target.dbManager.databaseLabel)); "
                            + "an object can only refer to objects of its own database")
                }
                try save(target, targetMapping, explicit: false)
            }
        }
    }

    // MARK: - Rows

    /// Makes sure the rows of `targets` exist before join rows point at them: an unchanged
    /// object is not written, so its row may have been deleted since it was loaded.
    /// - Throws: ``DBBError/Kind/rowNotFound`` naming the missing row and the property.
    private func requireRows(of targets: [DBBTableObject], _ join: JoinProperty, _ mapping: TableMapping) throws {
        let unconfirmed = targets.filter { !marks.holds($0.confirmMark) }
        guard let first = unconfirmed.first else { return }
        let targetMapping = try manager.mapping(for: type(of: first))
        // A new object met here was visited and not yet inserted: its own save is further up
        // this one (a save hook saved an object referring to it). Its id, 0, names no row of it.
        if unconfirmed.contains(where: \.isNew) {
            throw DBBError(
                .rowNotFound, table: mapping.tableName, property: join.name,
                "refers to a new \(targetMapping.tableName) that has no row yet: its own save is under way and has "
                    + "not inserted it (a save hook saved an object that refers to it); save the referring object "
                    + "from performPostSaveActions, once the row exists")
        }
        let ids = Set(unconfirmed.map(\.id))
        let existing = Set(
            try connection.fetchAll(
                targetMapping.statements.existingIDs,
                [SQLDialect.idList(ids)]
            ) { $0.int64(at: 0) })
        if let missing = ids.subtracting(existing).min() {
            throw DBBError(
                .rowNotFound, table: mapping.tableName, property: join.name, rowID: missing,
                "refers to \(targetMapping.tableName) \(missing), whose row no longer exists (deleted by another "
                    + "object, manager, process or SQL); the save was refused rather than store a reference to nothing")
        }
        for target in unconfirmed { confirm(target) }
    }

    /// Records that `object`'s row exists in this transaction. A mark already given is kept,
    /// so that a nested save given up does not take back what was known before it.
    private func confirm(_ object: DBBTableObject) {
        if !marks.holds(object.confirmMark) { object.confirmMark = marks.current }
    }

    private func insertRow(_ object: DBBTableObject, _ mapping: TableMapping, from start: Int) throws {
        let created = object.createdTime ?? now
        let insert = try connection.statement(mapping.statements.insert, clearing: false)
        try insert.bind(.real(created.timeIntervalSinceReferenceDate), at: 1)
        try insert.bind(.real(now.timeIntervalSinceReferenceDate), at: 2)
        for index in mapping.columns.indices {
            try bindColumn(index, of: mapping, from: start, to: insert, at: index + 3)
        }
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

    /// UPDATEs the changed columns and `modifiedTime`; for the object of ``precondition``, only
    /// a row whose stored `modifiedTime` is its time.
    /// - Throws: ``DBBError/Kind/rowNotFound`` when the row is gone, ``DBBError/Kind/rowChanged``
    ///   when its `modifiedTime` is not the precondition's. (Not in ``write(_:_:)``: code added
    ///   there made the compiler stop inlining the row's value loop, +1 % a saved row.)
    private func updateRow(_ object: DBBTableObject, _ mapping: TableMapping, from start: Int, _ changed: [Int]) throws
    {
        let expected = precondition.flatMap { $0.object == ObjectIdentifier(object) ? $0.modifiedTime : nil }
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
        guard connection.changes > 0 else {
            throw DBBError(
                .rowNotFound, table: mapping.tableName, rowID: object.id,
                "row \(object.id) no longer exists (deleted by another object, manager, process or SQL); "
                    + "the save was refused rather than insert it again")
        }
        object.modifiedTime = now
    }

    private func updateStatement(_ mapping: TableMapping, _ changed: [Int]) throws -> any DatabaseStatement {
        if let update, updateMapping?.toOpaque() == Unmanaged.passUnretained(mapping).toOpaque(),
            updateColumns == changed
        {
            return update
        }
        let statement = try connection.statement(mapping.updateSQL(changed), clearing: false)
        // A copy of its own: sharing the session's array would make the next object's reuse of it copy.
        (update, updateMapping, updateColumns) = (statement, .passUnretained(mapping), changed.map { $0 })
        return statement
    }

    /// Why `value` cannot be stored in a column of `type`, or `nil`: `NaN`, in an integer
    /// column the REAL standing in for an unsigned integer above `Int64.max` (see
    /// ``DBBWideUnsignedColumnValue``), or what the backend refuses.
    private func unstorable(_ value: SQLiteValue, in type: DBBStorageType) -> DBBError? {
        if let refusing, let refusal = refusing.refusal(of: value) { return refusal }
        guard case .real(let number) = value else { return nil }
        if number.isNaN { return DBBBuilder.unstorable(number) }
        switch type {
        case .int, .intArray: return DBBBuilder.unstorable(integer: nil)
        default: return nil
        }
    }

    private func bindColumn(
        _ index: Int, of mapping: TableMapping, from start: Int, to statement: any DatabaseStatement, at parameter: Int
    ) throws {
        let value = values.base[start + index]
        if let error = unstorable(value, in: mapping.columns[index].storageType) {
            throw error.about(table: mapping.tableName, property: mapping.columns[index].name)
        }
        try statement.bind(value, at: parameter)
    }

    /// Writes the join rows of one property: deletes the old ones when `replacing`.
    private func writeJoinRows(
        _ rows: [SQLiteValue], of object: DBBTableObject, _ join: JoinProperty, _ mapping: TableMapping,
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
