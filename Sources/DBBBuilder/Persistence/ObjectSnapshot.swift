import DBBSQLite
import Foundation

/// What an object's row and join rows held when it was last loaded or saved: what change
/// tracking compares its properties with.
///
/// Column `i` of the snapshot is `row[i]`, in the order of the mapping's
/// columns; `joins[j]` holds the values of the join rows of the mapping's join `j`.
struct ObjectSnapshot {
    /// Keeps ``row`` alive.
    let storage: SnapshotStorage
    /// The object's column values: `storage.values + start`. Read through this trivial field,
    /// a comparison needs no copy of the snapshot (no retain and release of the storage).
    let row: UnsafePointer<DBBValue>
    var joins: [[DBBValue]]

    init(storage: SnapshotStorage, start: Int, joins: [[DBBValue]]) {
        (self.storage, row, self.joins) = (storage, UnsafePointer(storage.values + start), joins)
    }
}

// MARK: - Changes
