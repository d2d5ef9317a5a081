import DBBSQLite
import Foundation

/// What a ``SaveSession`` must put back when its transaction — or a save hook's savepoint —
/// rolls back, and what it gives the objects once the transaction commits: the objects'
/// state before the session wrote them, the values it wrote (their snapshots to be), what a
/// hook's later save replaced of those, and the objects a hook deleted.
///
/// Objects are not retained here: every object the session writes is in its list of hooked
/// objects first (``SaveSession/hooked``), which keeps it alive, and entries leave both
/// together (a nested save rolled back) or with the session. A retain and a release per entry
/// were a tenth of an update's time.
struct SaveJournal {
    /// An object's state before the session wrote it. Its snapshot is not kept: only
    /// ``committed()`` replaces it, once nothing can roll back.
    struct Written {
        unowned(unsafe) let object: DBBTableObject
        let id: Int64
        let created: Date?
        let modified: Date?
        let forcedDirty: Bool
        /// Where the row the session wrote for it starts in ``values``.
        let start: Int
    }

    /// A written object's snapshot to be: its row at `start` of ``values`` and its join rows.
    /// Neither reference is retained: the object is kept by the session's hooked list, the
    /// mapping by the manager.
    struct NewSnapshot {
        let object: Unmanaged<DBBTableObject>
        let mapping: Unmanaged<TableMapping>
        let start: Int
        var joins: [[SQLiteValue]]
    }

    /// How long each list was when a nested save began: ``rollBack(to:)`` cuts them back.
    struct Mark {
        fileprivate let written, values, snapshots, deleted, replaced, replacedJoins: Int
    }

    // A value in the session, whose property skips the run-time exclusivity checks.
    /// The column values written, every object's row after the other's: the snapshots the
    /// objects get when the transaction commits.
    let values = SavedValues()
    private(set) var written: [Written] = []
    var newSnapshots: [NewSnapshot] = []
    /// What a hook's save replaced — a value of ``values``, a join property's values of a new
    /// snapshot — to put back when the savepoint it ran in rolls back.
    private var replaced: [(position: Int, value: SQLiteValue)] = []
    private var replacedJoins: [(entry: Int, join: Int, values: [SQLiteValue])] = []
    /// The objects a hook deleted inside the session, marked ``DBBTableObject/isDeleted``: the
    /// marks come off again if the transaction (or the hook's savepoint) rolls back.
    private var deleted: [DBBTableObject] = []

    /// Makes room for `objects` more objects of `columns` columns.
    mutating func reserve(objects: Int, columns: Int) {
        values.reserve(objects * columns)
        newSnapshots.reserveCapacity(newSnapshots.count + objects)
        written.reserveCapacity(written.count + objects)
    }

    /// Records `object`'s state before its row, at `start` of ``values``, is written.
    @inline(__always)
    mutating func willWrite(_ object: DBBTableObject, start: Int) {
        written.append(
            Written(
                object: object, id: object.id, created: object.createdTime, modified: object.modifiedTime,
                forcedDirty: object.forcedDirty, start: start))
    }

    /// Where the row last written for `object` starts in ``values``, or `nil`.
    func start(of object: DBBTableObject) -> Int? {
        written.last(where: { $0.object === object })?.start
    }

    /// The index of `object`'s new snapshot, or `nil`.
    func snapshot(of object: DBBTableObject) -> Int? {
        newSnapshots.lastIndex { $0.object.toOpaque() == Unmanaged.passUnretained(object).toOpaque() }
    }

    /// Replaces the value at `position` of ``values`` (a hook's save wrote it again).
    mutating func replace(at position: Int, with value: SQLiteValue) {
        replaced.append((position, values.base[position]))
        values.base[position] = value
    }

    /// Replaces the values of join property `join` of new snapshot `entry`.
    mutating func replaceJoins(_ join: Int, of entry: Int, with current: [SQLiteValue]) {
        replacedJoins.append((entry, join, newSnapshots[entry].joins[join]))
        newSnapshots[entry].joins[join] = current
    }

    /// Marks `objects`, whose rows a hook deleted inside the session, as deleted.
    mutating func noteDeleted(_ objects: [DBBTableObject]) {
        for object in objects where !object.isDeleted {
            object.isDeleted = true
            deleted.append(object)
        }
    }

    var mark: Mark {
        Mark(
            written: written.count, values: values.count, snapshots: newSnapshots.count, deleted: deleted.count,
            replaced: replaced.count, replacedJoins: replacedJoins.count)
    }

    /// Puts back everything recorded since `mark` (a nested save's savepoint rolled back).
    mutating func rollBack(to mark: Mark) {
        restoreObjects(from: mark.written)
        undoDeletions(from: mark.deleted)
        for entry in replaced[mark.replaced...].reversed() { values.base[entry.position] = entry.value }
        replaced.removeSubrange(mark.replaced...)
        for entry in replacedJoins[mark.replacedJoins...].reversed() {
            newSnapshots[entry.entry].joins[entry.join] = entry.values
        }
        replacedJoins.removeSubrange(mark.replacedJoins...)
        values.removeAll(from: mark.values)
        newSnapshots.removeSubrange(mark.snapshots...)
    }

    /// Puts every written object back as it was before the session (the transaction rolled back).
    mutating func restore() {
        restoreObjects(from: 0)
        undoDeletions(from: 0)
    }

    private mutating func undoDeletions(from first: Int) {
        for object in deleted[first...] { object.isDeleted = false }
        deleted.removeSubrange(first...)
    }

    private mutating func restoreObjects(from first: Int) {
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
}
