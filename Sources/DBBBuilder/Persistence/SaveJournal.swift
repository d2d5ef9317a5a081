import DBBSQLite
import Foundation

/// What a ``SaveSession`` must put back when its transaction — or a save hook's savepoint —
/// rolls back, and what it gives the objects once the transaction commits: the objects'
/// state before the session wrote them, the values it wrote (their snapshots to be), what a
/// hook's later save replaced of those, and the objects a hook deleted.
///
/// The journal holds each object it records once, in ``hooked`` (whose pre-save hooks ran, in
/// order), and each mapping once; its entries name them by position there: a retain and a
/// release per entry were a tenth of an update's time.
struct SaveJournal {
    /// An object's state before the session wrote it. Its snapshot is not kept: only
    /// ``committed()`` replaces it, once nothing can roll back.
    struct Written {
        /// The object's position in ``SaveJournal/hooked``.
        let object: Int
        let id: Int64
        let created: Date?
        let modified: Date?
        let forcedDirty: Bool
        /// Where the row the session wrote for it starts in ``values``.
        let start: Int
    }

    /// A written object's snapshot to be: its row at `start` of ``values`` and its join rows.
    struct NewSnapshot {
        /// The object's position in ``SaveJournal/hooked``, its mapping's in ``SaveJournal/mappings``.
        let object: Int
        let mapping: Int
        let start: Int
        var joins: [[DBBValue]]
    }

    /// How long each list was when a nested save began: ``rollBack(to:)`` cuts them back.
    struct Mark {
        fileprivate let hooked, written, values, snapshots, deleted, replaced, replacedJoins: Int
    }

    // A value in the session, whose property skips the run-time exclusivity checks.
    /// The column values written, every object's row after the other's: the snapshots the
    /// objects get when the transaction commits.
    let values = SavedValues()
    /// The objects whose pre-save hooks ran, in order: their post-save hooks run after the commit.
    private(set) var hooked: [DBBTableObject] = []
    /// The mappings of the objects written (one entry for a run of objects of one class).
    private var mappings: [TableMapping] = []
    private var lastMapping: ObjectIdentifier?
    private(set) var written: [Written] = []
    private(set) var newSnapshots: [NewSnapshot] = []
    /// What a hook's save replaced — a value of ``values``, a join property's values of a new
    /// snapshot — to put back when the savepoint it ran in rolls back.
    private var replaced: [(position: Int, value: DBBValue)] = []
    private var replacedJoins: [(entry: Int, join: Int, values: [DBBValue])] = []
    /// The objects a hook deleted inside the session, marked ``DBBTableObject/isDeleted``: the
    /// marks come off again if the transaction (or the hook's savepoint) rolls back.
    private var deleted: [DBBTableObject] = []

    /// Makes room for `objects` more objects of `columns` columns.
    mutating func reserve(objects: Int, columns: Int) {
        values.reserve(objects * columns)
        newSnapshots.reserveCapacity(newSnapshots.count + objects)
        written.reserveCapacity(written.count + objects)
        hooked.reserveCapacity(hooked.count + objects)
    }

    /// Records that `object`'s pre-save hooks ran (it is about to be written); returns its
    /// position in ``hooked``.
    mutating func hook(_ object: DBBTableObject) -> Int {
        hooked.append(object)
        return hooked.count - 1
    }

    /// The position of `object` in ``hooked`` (the last, if it is there more than once), or `nil`.
    func position(of object: DBBTableObject) -> Int? { hooked.lastIndex { $0 === object } }

    /// Records the state before its row, at `start` of ``values``, is written of `object`, at
    /// `position` of ``hooked``.
    @inline(__always)
    mutating func willWrite(_ object: DBBTableObject, at position: Int, start: Int) {
        written.append(
            Written(
                object: position, id: object.id, created: object.createdTime, modified: object.modifiedTime,
                forcedDirty: object.forcedDirty, start: start))
    }

    /// Records the snapshot to be of the object at `position` of ``hooked``: its row at `start`
    /// of ``values`` and its join values; returns the entry's index.
    @discardableResult
    mutating func addSnapshot(ofHooked position: Int, _ mapping: TableMapping, start: Int, joins: [[DBBValue]])
        -> Int
    {
        if lastMapping != ObjectIdentifier(mapping) {
            mappings.append(mapping)
            lastMapping = ObjectIdentifier(mapping)
        }
        newSnapshots.append(NewSnapshot(object: position, mapping: mappings.count - 1, start: start, joins: joins))
        return newSnapshots.count - 1
    }

    /// Where the row last written for `object` starts in ``values``, or `nil`.
    func start(of object: DBBTableObject) -> Int? {
        written.last(where: { hooked[$0.object] === object })?.start
    }

    /// The index of `object`'s new snapshot, or `nil`.
    func snapshot(of object: DBBTableObject) -> Int? {
        newSnapshots.lastIndex { hooked[$0.object] === object }
    }

    /// Sets the join values of new snapshot `entry` (a set write read them after its rows).
    mutating func setJoins(_ joins: [[DBBValue]], of entry: Int) { newSnapshots[entry].joins = joins }

    /// Replaces the value at `position` of ``values`` (a hook's save wrote it again).
    mutating func replace(at position: Int, with value: DBBValue) {
        replaced.append((position, values.base[position]))
        values.base[position] = value
    }

    /// Replaces the values of join property `join` of new snapshot `entry`.
    mutating func replaceJoins(_ join: Int, of entry: Int, with current: [DBBValue]) {
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
            hooked: hooked.count, written: written.count, values: values.count, snapshots: newSnapshots.count,
            deleted: deleted.count,
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
        hooked.removeSubrange(mark.hooked...)
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
            let object = hooked[entry.object]
            (object.id, object.createdTime, object.modifiedTime) = (entry.id, entry.created, entry.modified)
            object.forcedDirty = entry.forcedDirty
        }
        written.removeSubrange(first...)
    }

    /// Gives every written object its new snapshot: call once the transaction committed.
    func committed() {
        let storage = values.takeStorage()
        // Through spans: a loop over the arrays copies each entry, and retains and releases
        // each object it loads.
        let hooked = hooked.span
        let mappings = mappings.span
        let entries = newSnapshots.span
        for index in entries.indices {
            let object = entries[index].object
            hooked[object].noteSaved(
                mappings[entries[index].mapping], row: storage.values + entries[index].start,
                joins: entries[index].joins)
            mappings[entries[index].mapping].setSnapshot(
                ObjectSnapshot(storage: storage, start: entries[index].start, joins: entries[index].joins),
                of: hooked[object])
            if hooked[object].forcedDirty { hooked[object].forcedDirty = false }
        }
    }
}
