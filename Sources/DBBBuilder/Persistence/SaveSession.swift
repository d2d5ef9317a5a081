import DBBSQLite
import Foundation

/// One save: objects and the objects they refer to, in one transaction — the graph walk.
///
/// - Only what changed is written: a new object is inserted; an existing one is updated in the
///   columns that differ from its snapshot (``ObjectSnapshot``), its join rows rewritten only
///   for the properties that differ; an unchanged object is not written at all. Related
///   objects are followed through unchanged ones, so a changed object anywhere in the graph is
///   saved, and an untouched copy never overwrites a newer row.
/// - An UPDATE that finds no row is ``DBBError/Kind/rowNotFound``, never an insert.
/// - Every object saved or referred to must belong to the session's manager.
/// - Each object is marked visited before its relations are followed, so cycles (a spouse's
///   spouse) end.
/// - Saves made from a save hook join the session (see ``nested(_:)``).
///
/// The walk decides what to write; two writers write it: on SQLite ``RowWriter``, a row at a
/// time as the walk meets it; on PostgreSQL a ``ChangeSet`` that ``SetWriter`` writes a set of
/// rows at a time (`SaveSession+SetWrites.swift`). The ``SaveJournal`` keeps what to put back
/// if the transaction rolls back, and the snapshots the objects get when it commits.
final class SaveSession {
    let connection: any DatabaseConnection
    let manager: DBBManager
    let now = Date()
    // The session is used by one thread, under the writer lock: its collections skip the
    // run-time exclusivity checks that would otherwise run on every append. (The journal is a
    // value in the session: no allocation of its own for a save.)
    @exclusivity(unchecked) var journal = SaveJournal()
    /// The journal's values: the rows written, every object's after the other's.
    let values: SavedValues
    let rows: RowWriter
    /// The objects visited, and those whose rows are known to exist in this transaction
    /// (written by it, or looked up).
    @exclusivity(unchecked) private var marks = SaveMarks()
    /// How many hook saves (``nested(_:)``) are running inside the session's own.
    @exclusivity(unchecked) private var nesting = 0
    /// The indices of the changed columns of the object being written: one array for the
    /// session, emptied for each object.
    @exclusivity(unchecked) var changedColumns: [Int] = []
    /// The object whose UPDATE is conditional on its row's stored `modifiedTime`
    /// (``DBBTableObject/save(ifModifiedTimeIs:)-jirm``, which marks it dirty so that its row is
    /// written, and the condition tested, even when nothing changed), and that time.
    @exclusivity(unchecked) var precondition: (object: ObjectIdentifier, modifiedTime: Date)?
    /// The objects whose pre-save hooks ran, in order: their post-save hooks run after the commit.
    var hooked: [DBBTableObject] { journal.hooked }
    /// On a connection that writes sets of rows (PostgreSQL): the rows and join rows not yet
    /// written (see ``flush(sticky:)``), and what writes them. `nil` on SQLite, which writes
    /// each row as the walk meets it.
    let changes: ChangeSet?
    let setWriter: SetWriter?
    /// The rows the session wrote, for the save's metrics and span (an add per row).
    @exclusivity(unchecked) var tally = StatementTally()
    /// The failure of a flush made for user code (a hook that fetched), which may have
    /// swallowed it: the save fails with it all the same.
    var flushFailure: (any Error)?

    init(connection: any DatabaseConnection, manager: DBBManager) {
        self.connection = connection
        self.manager = manager
        values = journal.values
        rows = RowWriter(connection: connection, now: now, values: journal.values)
        if SetWriter.isEnabled, let setWriting = connection.setWriting {
            (changes, setWriter) = (ChangeSet(), SetWriter(connection: setWriting))
        } else {
            (changes, setWriter) = (nil, nil)
        }
    }

    /// Saves `objects`, all of `mapping`'s class, and what they refer to.
    func save<Objects: Collection<DBBTableObject>>(_ objects: Objects, _ mapping: TableMapping) throws {
        journal.reserve(objects: objects.count, columns: mapping.columns.count)
        for object in objects { try save(object, mapping, explicit: true) }
    }

    /// Runs a save made from inside this session (a save hook that saves) in a savepoint:
    /// when it fails, what it wrote is undone and its objects are put back, and the outer
    /// save goes on (or fails, as the hook decides).
    func nested(_ body: () throws -> Void) throws {
        // What the outer save holds is written first, outside the savepoint: the hook's save
        // sees it, and its own failure does not take it back.
        try flush()
        let mark = journal.mark
        let start = marks.beginNested()
        nesting += 1
        defer { nesting -= 1 }
        do {
            try connection.savepoint {
                try body()
                try flush(sticky: false)
            }
        } catch {
            changes?.removeAll()
            journal.rollBack(to: mark)
            marks.abandon(since: start)
            throw error
        }
    }

    /// Puts every written object back as it was before the session (the transaction rolled back).
    func restore() { journal.restore() }

    /// Marks `objects`, whose rows a hook deleted inside the session, as deleted.
    func noteDeleted(_ objects: [DBBTableObject]) { journal.noteDeleted(objects) }

    /// Gives every written object its new snapshot: call once the transaction committed.
    func committed() { journal.committed() }

    /// The `modifiedTime` `object`'s UPDATE is conditional on (``precondition``), or `nil`.
    func expectedTime(of object: DBBTableObject) -> Date? {
        precondition.flatMap { $0.object == ObjectIdentifier(object) ? $0.modifiedTime : nil }
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
        if let start = journal.start(of: object) {
            try rewrite(object, mapping, from: start)
        } else if !object.isBeingSaved {
            if let position = journal.position(of: object) {
                try write(object, mapping, hooked: position)
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
        try write(object, mapping, hooked: journal.hook(object))
    }

    /// Writes `object` when it is new or changed (its hooks have run: it is at `position` of the
    /// journal's hooked objects), then what it refers to and its join rows.
    private func write(_ object: DBBTableObject, _ mapping: TableMapping, hooked position: Int) throws {
        let isNew = object.isNew
        let start = values.count
        mapping.values.append(object, to: values)
        changedColumns.removeAll(keepingCapacity: true)
        if !isNew {
            object.appendDifferingColumns(
                mapping.columns.count, current: values.base + start, assigned: object.assignedUnloadedColumns(mapping),
                to: &changedColumns)
        }
        let changedJoins = isNew ? [] : object.changedJoins(mapping)
        guard isNew || object.forcedDirty || !changedColumns.isEmpty || !changedJoins.isEmpty else {
            values.removeAll(from: start)
            return try saveRelated(of: object, mapping)
        }

        journal.willWrite(object, at: position, start: start)
        if isNew { tally.inserted &+= 1 } else { tally.updated &+= 1 }
        tally.lastWasInsert = isNew
        if let changes {
            return try writeLater(
                object, position, mapping, from: start, isNew: isNew, changedJoins, into: changes)
        }
        try naming(mapping) {
            if isNew {
                try rows.insertRow(object, mapping, from: start)
            } else {
                try rows.updateRow(object, mapping, from: start, changedColumns, expected: expectedTime(of: object))
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
        var joinValues: [[DBBValue]] = []
        // Not for a class without joins: reserving 0 allocates a buffer, which each snapshot keeps.
        if !mapping.joins.isEmpty { joinValues.reserveCapacity(mapping.joins.count) }
        for (index, join) in mapping.joins.enumerated() {
            let current = join.access.values(object)
            // Compared again here: a hook run by the related saves above may have changed it.
            if isNew ? !current.isEmpty : changedJoins.contains(index) || object.joinDiffers(index, current, mapping) {
                if let relation = join.access.relation { try requireRows(of: relation.objects(object), join, mapping) }
                try naming(mapping) { try rows.writeJoinRows(current, of: object, join, mapping, replacing: !isNew) }
            }
            joinValues.append(current)
        }
        journal.addSnapshot(ofHooked: position, mapping, start: start, joins: joinValues)
    }

    /// Writes again what changed in `object` since the session wrote its row (at `start` of
    /// ``values``, which then hold the new values, its snapshot-to-be). Its join properties are
    /// compared when its save is complete; while it is still writing them, that save does.
    private func rewrite(_ object: DBBTableObject, _ mapping: TableMapping, from start: Int) throws {
        var changed: [Int] = []
        let assigned = object.assignedUnloadedColumns(mapping)
        mapping.values.forEachValue(of: object) { index, current in
            if !current.isSameStored(as: values.base[start + index])
                || (index < 64 && assigned & (1 &<< UInt64(index)) != 0)
            {
                journal.replace(at: start + index, with: current)
                changed.append(index)
            }
        }
        if !changed.isEmpty {
            try naming(mapping) {
                try rows.updateRow(object, mapping, from: start, changed, expected: expectedTime(of: object))
            }
        }
        guard let entry = journal.snapshot(of: object) else { return }
        try saveRelated(of: object, mapping)
        for (index, join) in mapping.joins.enumerated() {
            let current = join.access.values(object)
            guard !DBBValue.areSameStored(current, journal.newSnapshots[entry].joins[index]) else { continue }
            if let relation = join.access.relation { try requireRows(of: relation.objects(object), join, mapping) }
            try naming(mapping) { try rows.writeJoinRows(current, of: object, join, mapping, replacing: true) }
            journal.replaceJoins(index, of: entry, with: current)
        }
    }

    /// Runs the SQL of one object's rows, so that an SQLite failure (a constraint) names that
    /// object's table and property — not the class the save started from.
    func naming(_ mapping: TableMapping, _ body: () throws -> Void) throws {
        do {
            try body()
        } catch let error as any DatabaseFailure {
            throw DBBError.backend(error, table: mapping.tableName, mapping: mapping)
        }
    }

    /// Follows the relations of `object`: every related object must belong to this manager
    /// and be of the declared class; each is saved when new or changed.
    func saveRelated(of object: DBBTableObject, _ mapping: TableMapping) throws {
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
    func requireRows(of targets: [DBBTableObject], _ join: JoinProperty, _ mapping: TableMapping) throws {
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
                [SQLText.idList(ids)]
            ) { $0.int64(at: 0) })
        if let missing = ids.subtracting(existing).min() {
            throw Self.missingRow(missing, of: targetMapping, join, mapping)
        }
        for target in unconfirmed { confirm(target) }
    }

    /// A reference of `join` (of `mapping`'s class) to row `missing` of `targetMapping`'s
    /// table, which no longer exists.
    static func missingRow(
        _ missing: Int64, of targetMapping: TableMapping, _ join: JoinProperty, _ mapping: TableMapping
    )
        -> DBBError
    {
        DBBError(
            .rowNotFound, table: mapping.tableName, property: join.name, rowID: missing,
            "refers to \(targetMapping.tableName) \(missing), whose row no longer exists (deleted by another "
                + "object, manager, process or SQL); the save was refused rather than store a reference to nothing")
    }

    /// Whether `object`'s row is known to exist in this transaction (see ``confirm(_:)``).
    func isConfirmed(_ object: DBBTableObject) -> Bool { marks.holds(object.confirmMark) }

    /// Records that `object`'s row exists in this transaction. A mark already given is kept,
    /// so that a nested save given up does not take back what was known before it.
    func confirm(_ object: DBBTableObject) {
        if !marks.holds(object.confirmMark) { object.confirmMark = marks.current }
    }
}
